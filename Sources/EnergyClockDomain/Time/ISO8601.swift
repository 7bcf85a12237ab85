import FoundationEssentials

/// Fast, exact ISO 8601 for the forms price APIs use, without locale surprises.
package enum ISO8601 {
    /// Parses `YYYY-MM-DDTHH:MM[:SS[.fff]](Z|±HH[:MM])`; a time without a zone, or with an offset
    /// beyond ±18:00, is rejected.
    package static func parse(_ text: some StringProtocol) -> Date? {
        let b = Array(text.utf8)
        func number(_ from: Int, _ count: Int) -> Int? {
            guard from + count <= b.count else { return nil }
            var value = 0
            for i in from..<(from + count) {
                let c = b[i]
                guard c >= 48, c <= 57 else { return nil }
                value = value * 10 + Int(c - 48)
            }
            return value
        }
        guard b.count >= 17, let year = number(0, 4), b[4] == 45, let month = number(5, 2), b[7] == 45,
            let day = number(8, 2), b[10] == 84 || b[10] == 32 || b[10] == 116,
            let hour = number(11, 2), b[13] == 58, let minute = number(14, 2)
        else { return nil }
        var i = 16
        var second = 0.0
        if i < b.count, b[i] == 58 {
            guard let s = number(i + 1, 2) else { return nil }
            second = Double(s)
            i += 3
            if i < b.count, b[i] == 46 || b[i] == 44 {
                i += 1
                var scale = 0.1
                let digitsStart = i
                while i < b.count, b[i] >= 48, b[i] <= 57 {
                    second += Double(b[i] - 48) * scale
                    scale /= 10
                    i += 1
                }
                guard i > digitsStart else { return nil }
            }
        }
        guard i < b.count else { return nil }
        var offset = 0
        switch b[i] {
        case 90, 122:  // Z
            i += 1
        case 43, 45:  // + or -
            let sign = b[i] == 45 ? -1 : 1
            guard let oh = number(i + 1, 2) else { return nil }
            i += 3
            var om = 0
            if i < b.count {
                if b[i] == 58 { i += 1 }
                guard let m = number(i, 2) else { return nil }
                om = m
                i += 2
            }
            // Real offsets lie within ±14:00; ±18:00 is what ISO 8601 and RFC 3339 readers accept.
            guard oh <= 18, om <= 59, oh * 60 + om <= 18 * 60 else { return nil }
            offset = sign * (oh * 3600 + om * 60)
        default:
            return nil
        }
        guard i == b.count, (1...12).contains(month), hour <= 24, minute <= 59, second < 61 else { return nil }
        let date = LocalDay(year: year, month: month, day: day)
        guard LocalDay(daysSinceEpoch: date.daysSinceEpoch) == date else { return nil }
        let seconds = Double(date.daysSinceEpoch * 86_400 + hour * 3600 + minute * 60 - offset) + second
        return Date(timeIntervalSince1970: seconds)
    }

    /// `instant` in `calendar`'s zone with its offset, e.g. `2026-10-25T02:00:00+01:00`.
    package static func local(_ instant: Date, in calendar: LocalCalendar) -> String {
        format(instant, offset: calendar.offset(at: instant))
    }

    /// `instant` in UTC, e.g. `2026-10-25T01:00:00Z`.
    package static func utc(_ instant: Date) -> String { format(instant, offset: 0) }

    /// `instant` in UTC as `YYYYMMDDTHHMMSSZ`, for file names.
    package static func compactUTC(_ instant: Date) -> String {
        utc(instant).filter { $0 != "-" && $0 != ":" }
    }

    /// Seconds since 1970 that are written as a date: the years 1 to 9999.
    static let writable: ClosedRange<Double> = -62_135_596_800...253_402_300_799

    /// The longest text ``write(_:offset:to:at:)`` writes: `YYYY-MM-DDThh:mm:ss+hh:mm`.
    static let longest = 25

    /// `instant` at a fixed offset east of UTC, whole seconds.
    ///
    /// An instant outside the years 1 to 9999, or not finite, is written as its number of seconds,
    /// so that an error about a hostile time can always name it.
    static func format(_ instant: Date, offset: Int) -> String {
        var written = false
        let text = String(unsafeUninitializedCapacity: longest) { text in
            var end = 0
            written = write(instant, offset: offset, to: text, at: &end)
            return end
        }
        return written ? text : "\(instant.timeIntervalSince1970) s since 1970-01-01T00:00:00Z"
    }

    /// Writes `instant` at `offset` as `YYYY-MM-DDThh:mm:ss` and `Z` or `±hh:mm` into `text` at
    /// `index`, which it moves on; `text` has room for ``longest`` bytes from there. Writes nothing
    /// and returns false for an instant outside the years 1 to 9999 (in local time too), not
    /// finite, or an offset of a day or more.
    ///
    /// Timestamps are written digit by digit where they end up: a forecast holds thousands of them,
    /// and built from interpolated pieces each took a dozen small strings.
    static func write(_ instant: Date, offset: Int, to text: UnsafeMutableBufferPointer<UInt8>, at index: inout Int) -> Bool {
        let seconds = instant.timeIntervalSince1970
        guard writable.contains(seconds), abs(offset) < 86_400 else { return false }
        let total = Int(seconds.rounded(.down)) + offset
        let days = Int((Double(total) / 86_400).rounded(.down))
        let secondOfDay = total - days * 86_400
        let date = LocalDay(daysSinceEpoch: days)
        // The first or last instant, a day's offset away: year 0 or 10000 in local time.
        guard (1...9999).contains(date.year) else { return false }
        func put(_ character: Unicode.Scalar) {
            text[index] = UInt8(ascii: character)
            index += 1
        }
        date.write(to: text, at: &index)
        put("T")
        writeDigits(secondOfDay / 3600, 2, to: text, at: &index)
        put(":")
        writeDigits(secondOfDay / 60 % 60, 2, to: text, at: &index)
        put(":")
        writeDigits(secondOfDay % 60, 2, to: text, at: &index)
        if offset == 0 {
            put("Z")
        } else {
            let magnitude = abs(offset)
            put(offset < 0 ? "-" : "+")
            writeDigits(magnitude / 3600, 2, to: text, at: &index)
            put(":")
            writeDigits(magnitude / 60 % 60, 2, to: text, at: &index)
        }
        return true
    }
}
