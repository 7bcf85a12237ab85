/// The rules for a job's name, which becomes a level of its topics (`plan/<name>`).
public enum JobName {
    /// The longest name, in characters.
    public static let maxLength = TopicLevel.maxLength

    /// Why `name` cannot name a job, or nil: 1 to 24 of `a-z`, `0-9`, `_` and `-`, starting with
    /// a letter or a digit, as a profile's name.
    public static func problem(with name: String) -> String? { TopicLevel.problem(with: name, noun: "job") }
}
