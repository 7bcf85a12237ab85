/// A local time of day written `HH:MM`, as minutes after midnight: grid fee periods and job windows.
enum ClockTime {
    /// Reads `HH:MM`; `allowEndOfDay` also takes `24:00` (1440). `field` names it in errors.
    static func minutes(_ value: JSONValue, field: String, allowEndOfDay: Bool) throws(SettingsError) -> Int {
        let allowed = allowEndOfDay ? "a time from 00:00 to 24:00" : "a time from 00:00 to 23:59"
        guard case let .string(text) = value else { throw .wrongType(field: field, expected: allowed, found: value.typeName) }
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 2, parts[1].count == 2,
            parts.allSatisfy({ $0.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 } }),
            let hours = Int(parts[0]), let minutes = Int(parts[1]), minutes < 60,
            hours < 24 || (allowEndOfDay && hours == 24 && minutes == 0)
        else { throw .outOfRange(field: field, value: Quote.json(text, limit: 40), allowed: allowed) }
        return hours * 60 + minutes
    }

    /// `minutes` after midnight as `HH:MM`.
    static func text(_ minutes: Int) -> String { "\(pad(minutes / 60, 2)):\(pad(minutes % 60, 2))" }
}
