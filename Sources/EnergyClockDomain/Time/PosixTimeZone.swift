/// A POSIX `TZ` rule such as `CET-1CEST,M3.5.0,M10.5.0/3`: how a TZif file describes every
/// instant after its last listed transition (RFC 8536 §3.3, with its extensions).
struct PosixTimeZone: Sendable, Hashable {
    /// Seconds east of UTC in standard time.
    let standardOffset: Int
    /// Daylight-saving time, when the zone has it.
    let daylight: Daylight?

    /// Daylight-saving time: its offset and when it starts and ends each year.
    struct Daylight: Sendable, Hashable {
        let offset: Int
        let start: Transition
        let end: Transition
    }

    /// A yearly change: a day of the year and seconds after that day's local midnight (−167 h to 167 h).
    struct Transition: Sendable, Hashable {
        enum Day: Sendable, Hashable {
            /// `Jn`: 1…365, February 29 never counted.
            case julian(Int)
            /// `n`: 0…365, February 29 counted in leap years.
            case zeroBased(Int)
            /// `Mm.w.d`: weekday `d` (0 is Sunday) of week `w` (5 is the last) of month `m`.
            case monthWeekDay(month: Int, week: Int, weekday: Int)
        }
        let day: Day
        let time: Int

        /// Days since 1970 of the day this change falls on in `year`.
        func daysSinceEpoch(in year: Int) -> Int {
            switch day {
            case let .julian(n):
                return LocalDay.days(year: year, month: 1, day: 1) + n - 1 + (LocalDay.isLeap(year) && n >= 60 ? 1 : 0)
            case let .zeroBased(n):
                return LocalDay.days(year: year, month: 1, day: 1) + n
            case let .monthWeekDay(month, week, weekday):
                let first = LocalDay.days(year: year, month: month, day: 1)
                // 1970-01-01 was a Thursday (weekday 4).
                let firstWeekday = ((first + 4) % 7 + 7) % 7
                var day = 1 + (weekday - firstWeekday + 7) % 7 + (week - 1) * 7
                while day > LocalDay.daysInMonth(year: year, month: month) { day -= 7 }
                return first + day - 1
            }
        }
    }

    /// Seconds east of UTC at `seconds` since 1970.
    func offset(at seconds: Int64) -> Int {
        guard let daylight else { return standardOffset }
        let year = LocalDay(daysSinceEpoch: Int((seconds + Int64(standardOffset)).floorDiv(86_400))).year
        let start = Int64(daylight.start.daysSinceEpoch(in: year)) * 86_400 + Int64(daylight.start.time - standardOffset)
        let end = Int64(daylight.end.daysSinceEpoch(in: year)) * 86_400 + Int64(daylight.end.time - daylight.offset)
        let inDaylight = start < end ? (start <= seconds && seconds < end) : !(end <= seconds && seconds < start)
        return inDaylight ? daylight.offset : standardOffset
    }

    /// Parses a rule, or returns nil when `text` is not one.
    init?(_ text: String) {
        var scanner = Scanner(Array(text.utf8))
        guard scanner.skipName(), let standard = scanner.offset() else { return nil }
        standardOffset = -standard
        if scanner.atEnd {
            daylight = nil
            return
        }
        guard scanner.skipName() else { return nil }
        var daylightOffset = standardOffset + 3600
        if !scanner.atEnd, scanner.peek != UInt8(ascii: ",") {
            guard let value = scanner.offset() else { return nil }
            daylightOffset = -value
        }
        let start: Transition
        let end: Transition
        if scanner.atEnd {
            // POSIX leaves the rule to the system; the tz database always writes one, and glibc uses the US rule.
            start = Transition(day: .monthWeekDay(month: 3, week: 2, weekday: 0), time: 7200)
            end = Transition(day: .monthWeekDay(month: 11, week: 1, weekday: 0), time: 7200)
        } else {
            guard scanner.take(","), let first = scanner.transition(), scanner.take(","), let second = scanner.transition(),
                scanner.atEnd
            else { return nil }
            (start, end) = (first, second)
        }
        daylight = Daylight(offset: daylightOffset, start: start, end: end)
    }

    /// A cursor over the rule's bytes.
    private struct Scanner {
        let bytes: [UInt8]
        var index = 0

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        var atEnd: Bool { index == bytes.count }
        var peek: UInt8? { atEnd ? nil : bytes[index] }

        mutating func take(_ character: Character) -> Bool {
            guard let peek, peek == character.asciiValue else { return false }
            index += 1
            return true
        }

        /// A name: three or more letters, or anything in angle brackets (`<+03>`).
        mutating func skipName() -> Bool {
            if take("<") {
                guard let close = bytes[index...].firstIndex(of: UInt8(ascii: ">")), close - index >= 3 else { return false }
                index = close + 1
                return true
            }
            let start = index
            while let peek, (peek | 0x20) >= UInt8(ascii: "a"), (peek | 0x20) <= UInt8(ascii: "z") { index += 1 }
            return index - start >= 3
        }

        mutating func number(maxDigits: Int) -> Int? {
            var value = 0
            var digits = 0
            while let peek, peek >= UInt8(ascii: "0"), peek <= UInt8(ascii: "9"), digits < maxDigits {
                value = value * 10 + Int(peek - UInt8(ascii: "0"))
                digits += 1
                index += 1
            }
            return digits > 0 ? value : nil
        }

        /// `[+-]hh[:mm[:ss]]` in seconds, hours up to 167.
        mutating func offset() -> Int? {
            let sign = take("-") ? -1 : (take("+") ? 1 : 1)
            guard let hours = number(maxDigits: 3), hours <= 167 else { return nil }
            var seconds = hours * 3600
            if take(":") {
                guard let minutes = number(maxDigits: 2), minutes < 60 else { return nil }
                seconds += minutes * 60
                if take(":") {
                    guard let rest = number(maxDigits: 2), rest < 60 else { return nil }
                    seconds += rest
                }
            }
            return sign * seconds
        }

        mutating func transition() -> Transition? {
            let day: Transition.Day
            if take("M") {
                guard let month = number(maxDigits: 2), (1...12).contains(month), take("."),
                    let week = number(maxDigits: 1), (1...5).contains(week), take("."),
                    let weekday = number(maxDigits: 1), weekday <= 6
                else { return nil }
                day = .monthWeekDay(month: month, week: week, weekday: weekday)
            } else if take("J") {
                guard let n = number(maxDigits: 3), (1...365).contains(n) else { return nil }
                day = .julian(n)
            } else {
                guard let n = number(maxDigits: 3), n <= 365 else { return nil }
                day = .zeroBased(n)
            }
            var time = 7200
            if take("/") {
                guard let value = offset() else { return nil }
                time = value
            }
            return Transition(day: day, time: time)
        }
    }
}

extension LocalDay {
    /// Days since 1970-01-01 of `year`-`month`-`day`.
    static func days(year: Int, month: Int, day: Int) -> Int { LocalDay(year: year, month: month, day: day).daysSinceEpoch }

    static func isLeap(_ year: Int) -> Bool { year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) }

    static func daysInMonth(year: Int, month: Int) -> Int {
        month == 2 ? (isLeap(year) ? 29 : 28) : [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
    }
}

extension Int64 {
    /// Division rounded towards minus infinity.
    func floorDiv(_ divisor: Int64) -> Int64 {
        let quotient = self / divisor
        return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }
}
