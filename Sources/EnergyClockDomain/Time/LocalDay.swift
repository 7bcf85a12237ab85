/// A calendar date in the proleptic Gregorian calendar, with no time zone attached.
public struct LocalDay: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Year, e.g. 2026.
    public var year: Int
    /// Month, 1…12.
    public var month: Int
    /// Day of the month, 1…31.
    public var day: Int

    /// Creates a day from its parts; use ``init(parsing:)`` to validate text.
    public init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// Parses `YYYY-MM-DD`, rejecting impossible dates.
    public init?(parsing text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2]),
            (1...12).contains(m), d >= 1
        else { return nil }
        let candidate = LocalDay(year: y, month: m, day: d)
        guard LocalDay(daysSinceEpoch: candidate.daysSinceEpoch) == candidate else { return nil }
        self = candidate
    }

    /// Days since 1970-01-01 (Howard Hinnant's days-from-civil).
    public var daysSinceEpoch: Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// The day `daysSinceEpoch` days after 1970-01-01.
    public init(daysSinceEpoch days: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        self.init(year: yoe + era * 400 + (m <= 2 ? 1 : 0), month: m, day: d)
    }

    /// The day `count` days later (or earlier when negative).
    public func adding(days count: Int) -> LocalDay { LocalDay(daysSinceEpoch: daysSinceEpoch + count) }

    /// `YYYY-MM-DD`.
    public var description: String {
        guard (0...9999).contains(year) else { return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))" }
        return String(unsafeUninitializedCapacity: 10) { text in
            var i = 0
            write(to: text, at: &i)
            return i
        }
    }

    /// Writes `YYYY-MM-DD` into `text` at `index`, moving it on; the year is within 0…9999 (see
    /// ``ISO8601/write(_:offset:to:at:)``).
    func write(to text: UnsafeMutableBufferPointer<UInt8>, at index: inout Int) {
        writeDigits(year, 4, to: text, at: &index)
        text[index] = UInt8(ascii: "-")
        index += 1
        writeDigits(month, 2, to: text, at: &index)
        text[index] = UInt8(ascii: "-")
        index += 1
        writeDigits(day, 2, to: text, at: &index)
    }

    /// Orders days chronologically.
    public static func < (lhs: LocalDay, rhs: LocalDay) -> Bool { lhs.daysSinceEpoch < rhs.daysSinceEpoch }
}

/// Writes the non-negative `value`, below 10 to the power of `width`, as `width` digits into
/// `text` at `index`, moving it on.
func writeDigits(_ value: Int, _ width: Int, to text: UnsafeMutableBufferPointer<UInt8>, at index: inout Int) {
    var rest = value
    var k = index + width
    while k > index {
        k -= 1
        text[k] = UInt8(truncatingIfNeeded: 48 + rest % 10)
        rest /= 10
    }
    index += width
}

/// Zero-pads a non-negative number to `width` digits.
package func pad(_ value: Int, _ width: Int) -> String {
    let digits = String(value)
    return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
}
