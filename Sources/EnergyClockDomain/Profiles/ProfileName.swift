/// The rules for a profile's name, which becomes a level of every topic it publishes.
public enum ProfileName {
    /// The longest name, in characters.
    public static let maxLength = TopicLevel.maxLength

    /// Why `name` cannot name a new profile, or nil when it can: 1 to 24 of `a-z`, `0-9`, `_` and
    /// `-`, starting with a letter or digit, not ``Profiles/firstName`` and none of `reserved` (the
    /// leaves of the topic tree, such as `prices` or `settings`, which the first profile uses).
    public static func problem(with name: String, reserved: Set<String>) -> String? {
        if let problem = TopicLevel.problem(with: name, noun: "profile") { return problem }
        if name == Profiles.firstName { return "\(Profiles.firstName) is the first profile's name" }
        if reserved.contains(name) {
            return "\(name) is a topic of the first profile (\(reserved.sorted().joined(separator: ", ")) are taken)"
        }
        return nil
    }
}
