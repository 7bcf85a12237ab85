import EnergyClockDomain
import EnergyClockPublisher
import FoundationEssentials

extension RunConfiguration {
    /// A light's text without its `@PROFILE` ending, and that profile (the first when there is
    /// none): the ending counts when it could name a profile, so `json:home@work` follows `work`
    /// and a topic that really ends in `@x` is written with `@default` after it.
    static func followedProfile(_ text: String) -> (light: String, profile: String) {
        guard let at = text.lastIndex(of: "@") else { return (text, Profiles.firstName) }
        let name = String(text[text.index(after: at)...])
        guard name == Profiles.firstName || ProfileName.problem(with: name, reserved: []) == nil else { return (text, Profiles.firstName) }
        return (String(text[..<at]), name)
    }

    /// `energyclock-<host>-<8 hex digits of the state directory's path>`: two daemons on one host
    /// with their own state directories never take each other's session.
    static func defaultClientID(stateDirectory: URL) -> String {
        var hash: UInt32 = 0x811C_9DC5  // FNV-1a
        for byte in stateDirectory.standardizedFileURL.path.utf8 {
            hash = (hash ^ UInt32(byte)) &* 0x0100_0193
        }
        let hex = String(hash, radix: 16)
        return "energyclock-\(ProcessInfo.processInfo.hostName)-\(String(repeating: "0", count: 8 - hex.count))\(hex)"
    }

    /// The value of `option` when it can root a topic tree.
    static func topic(_ options: ParsedOptions, _ option: Option<String>) throws(UsageError) -> String {
        try topic(options, option.spec.name, try options.value(option))
    }

    /// `value` of the option `name` when it can root a topic tree (see ``TopicTree/problem(withPrefix:)``).
    static func topic(_ options: ParsedOptions, _ name: String, _ value: String) throws(UsageError) -> String {
        if let problem = TopicTree.problem(withPrefix: value) {
            throw UsageError("\(options.origin(name)) cannot be \(Quote.json(value)): \(problem)")
        }
        return value
    }
}
