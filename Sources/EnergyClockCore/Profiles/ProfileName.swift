/// The rules for a profile's name, which becomes a level of every topic it publishes.
public enum ProfileName {
    /// The longest name, in characters.
    public static let maxLength = 24

    /// Why `name` cannot name a new profile, or nil when it can: 1 to 24 of `a-z`, `0-9`, `_` and
    /// `-`, starting with a letter or digit, not ``Profiles/firstName`` and none of `reserved` (the
    /// leaves of the topic tree, such as `prices` or `settings`, which the first profile uses).
    public static func problem(with name: String, reserved: Set<String>) -> String? {
        if name.isEmpty { return "a profile needs a name" }
        if name.utf8.count > maxLength { return "a profile's name is at most \(maxLength) characters" }
        let letters = UInt8(ascii: "a")...UInt8(ascii: "z")
        let digits = UInt8(ascii: "0")...UInt8(ascii: "9")
        let allowed = name.utf8.allSatisfy {
            letters.contains($0) || digits.contains($0) || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-")
        }
        guard allowed else { return "a profile's name may hold only a-z, 0-9, _ and -" }
        guard let head = name.utf8.first, head != UInt8(ascii: "_"), head != UInt8(ascii: "-") else {
            return "a profile's name starts with a letter or a digit"
        }
        if name == Profiles.firstName { return "\(Profiles.firstName) is the first profile's name" }
        if reserved.contains(name) {
            return "\(name) is a topic of the first profile (\(reserved.sorted().joined(separator: ", ")) are taken)"
        }
        return nil
    }
}
