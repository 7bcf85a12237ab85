/// The rules for a name that becomes a level of MQTT topics: a profile's, a job's.
enum TopicLevel {
    /// The longest name, in characters.
    static let maxLength = 24

    /// Why `name` cannot be such a level, or nil: 1 to 24 of `a-z`, `0-9`, `_` and `-`, starting
    /// with a letter or a digit. `noun` says what it names, in the reason.
    static func problem(with name: String, noun: String) -> String? {
        if name.isEmpty { return "a \(noun) needs a name" }
        if name.utf8.count > maxLength { return "a \(noun)'s name is at most \(maxLength) characters" }
        let letters = UInt8(ascii: "a")...UInt8(ascii: "z")
        let digits = UInt8(ascii: "0")...UInt8(ascii: "9")
        let allowed = name.utf8.allSatisfy {
            letters.contains($0) || digits.contains($0) || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-")
        }
        guard allowed else { return "a \(noun)'s name may hold only a-z, 0-9, _ and -" }
        guard let head = name.utf8.first, head != UInt8(ascii: "_"), head != UInt8(ascii: "-") else {
            return "a \(noun)'s name starts with a letter or a digit"
        }
        return nil
    }
}
