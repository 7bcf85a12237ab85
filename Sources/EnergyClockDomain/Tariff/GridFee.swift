import FoundationEssentials

/// A time-of-use grid fee per kWh before VAT, in local time: a default and periods that override it.
///
/// `{"default": 0.05, "periods": [{"from": "17:00", "to": "21:00", "fee": 0.32, "days": ["mon"], "months": [1, 2]}]}`.
/// The first period that matches wins. A period whose `to` is earlier than its `from` wraps
/// midnight; its part after midnight belongs to the day it started on, so `days: ["fri"]` with
/// 22:00–06:00 covers Friday night until Saturday 06:00.
public struct GridFee: Sendable, Hashable {
    /// The fee outside every period.
    public var defaultFee: Double
    /// Periods in order of precedence.
    public var periods: [Period]

    /// One window of the day with its own fee.
    public struct Period: Sendable, Hashable {
        /// Start, in minutes after local midnight (0…1439).
        public var from: Int
        /// End, in minutes after local midnight (1…1440); earlier than `from` when the period wraps midnight.
        public var to: Int
        /// The fee inside the window.
        public var fee: Double
        /// Weekdays it applies on, 0 for Monday to 6 for Sunday; nil for every day.
        public var days: Set<Int>?
        /// Months it applies in, 1…12; nil for every month.
        public var months: Set<Int>?

        /// A period from its parts.
        public init(from: Int, to: Int, fee: Double, days: Set<Int>? = nil, months: Set<Int>? = nil) {
            self.from = from
            self.to = to
            self.fee = fee
            self.days = days
            self.months = months
        }

        /// Whether the period covers `minute` of `day` (the local day of the moment).
        func covers(minute: Int, of day: LocalDay) -> Bool {
            let wraps = to <= from
            let inside = wraps ? (minute >= from || minute < to) : (minute >= from && minute < to)
            guard inside else { return false }
            // After midnight, a wrapping period still belongs to the day it started on.
            let owner = wraps && minute < to ? day.adding(days: -1) : day
            if let days, !days.contains(owner.weekday) { return false }
            if let months, !months.contains(owner.month) { return false }
            return true
        }
    }

    /// No fee at all.
    public static let none = GridFee(defaultFee: 0, periods: [])

    /// A schedule from its parts.
    public init(defaultFee: Double, periods: [Period]) {
        self.defaultFee = defaultFee
        self.periods = periods
    }

    /// The fee at `minute` after local midnight of `day`.
    public func fee(minute: Int, of day: LocalDay) -> Double {
        periods.first { $0.covers(minute: minute, of: day) }?.fee ?? defaultFee
    }

    /// The fee over `[start, end)`, each part of the span weighted by its length.
    ///
    /// The span is cut wherever a period starts or ends in local time, and wherever the clocks
    /// change, so an hour whose fee changes at :30 pays half of each.
    public func fee(from start: Date, to end: Date, in calendar: LocalCalendar) -> Double {
        guard !periods.isEmpty else { return defaultFee }
        let total = end.timeIntervalSince(start)
        guard total > 0 else { return fee(at: start, in: calendar) }
        let edges = Set(periods.flatMap { [$0.from, $0.to % 1440] }).sorted()
        var weighted = 0.0
        var t = start
        while t < end {
            let offset = calendar.offset(at: t)
            let (day, second) = calendar.wallClock(at: t)
            let minute = second / 60
            // The next edge after this minute, or midnight.
            let nextEdge = edges.first { $0 * 60 > second } ?? 1440
            var stop = min(end, t.addingTimeInterval(Double(nextEdge * 60 - second)))
            if calendar.offset(at: stop) != offset { stop = Self.clockChange(after: t, before: stop, in: calendar) }
            weighted += fee(minute: minute, of: day) * stop.timeIntervalSince(t)
            t = stop
        }
        return weighted / total
    }

    /// The fee at one instant.
    public func fee(at instant: Date, in calendar: LocalCalendar) -> Double {
        let (day, second) = calendar.wallClock(at: instant)
        return fee(minute: second / 60, of: day)
    }

    /// The first whole second in `(after, before]` with the offset in force at `before`.
    private static func clockChange(after: Date, before: Date, in calendar: LocalCalendar) -> Date {
        let target = calendar.offset(at: before)
        var low = Int64(after.timeIntervalSince1970.rounded(.down)) + 1
        var high = Int64(before.timeIntervalSince1970.rounded(.up))
        while low < high {
            let middle = low + (high - low) / 2
            if calendar.offset(at: Date(timeIntervalSince1970: Double(middle))) == target { high = middle } else { low = middle + 1 }
        }
        return min(max(Date(timeIntervalSince1970: Double(low)), after.addingTimeInterval(1)), before)
    }
}

extension LocalDay {
    /// 0 for Monday to 6 for Sunday.
    public var weekday: Int {
        // 1970-01-01 was a Thursday.
        ((daysSinceEpoch + 3) % 7 + 7) % 7
    }
}
