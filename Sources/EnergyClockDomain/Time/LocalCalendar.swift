import FoundationEssentials

/// Local days and hours in one time zone: where "today" starts and ends.
///
/// Days are never assumed to last 24 hours: a daylight-saving day has 23 or 25.
public struct LocalCalendar: Sendable {
    /// The zone that defines local days.
    public let timeZone: TimeZoneRules

    /// A calendar for `timeZone`.
    public init(timeZone: TimeZoneRules) {
        self.timeZone = timeZone
    }

    /// Seconds east of UTC at `instant`.
    public func offset(at instant: Date) -> Int { timeZone.secondsFromUTC(for: instant) }

    /// The local day holding `instant`, and the whole seconds since that day's local midnight as
    /// the clock on the wall shows them (so 02:30 is 9,000 on both copies of a repeated hour).
    public func wallClock(at instant: Date) -> (day: LocalDay, second: Int) {
        let local = Int64((instant.timeIntervalSince1970 + Double(offset(at: instant))).rounded(.down))
        let days = local.floorDiv(86_400)
        return (LocalDay(daysSinceEpoch: Int(days)), Int(local - days * 86_400))
    }

    /// The local day that contains `instant`.
    public func day(containing instant: Date) -> LocalDay {
        let local = Int((instant.timeIntervalSince1970 + Double(offset(at: instant))).rounded(.down))
        return LocalDay(daysSinceEpoch: Int((Double(local) / 86_400).rounded(.down)))
    }

    /// The first instant of `day`; where local midnight does not exist, the first instant that does.
    public func start(of day: LocalDay) -> Date {
        let midnight = Double(day.daysSinceEpoch) * 86_400
        // Two passes settle the offset in force at local midnight.
        var guess = Date(timeIntervalSince1970: midnight - Double(offset(at: Date(timeIntervalSince1970: midnight))))
        guess = Date(timeIntervalSince1970: midnight - Double(offset(at: guess)))
        if self.day(containing: guess) != day {
            // Midnight fell in a gap; the day begins when the clocks jump, found to the second.
            var low = Int64(midnight) - 86_400
            var high = Int64(midnight) + 86_400
            while low < high {
                let middle = low + (high - low) / 2
                if self.day(containing: Date(timeIntervalSince1970: Double(middle))) >= day { high = middle } else { low = middle + 1 }
            }
            return Date(timeIntervalSince1970: Double(low))
        }
        return guess
    }

    /// `[start, end)` of `day` in absolute time.
    public func interval(of day: LocalDay) -> DateInterval {
        DateInterval(start: start(of: day), end: start(of: day.adding(days: 1)))
    }

    /// Start of the local hour containing `instant`, correct on both copies of a repeated hour.
    public func hourStart(containing instant: Date) -> Date {
        let offset = Double(offset(at: instant))
        let local = instant.timeIntervalSince1970 + offset
        return Date(timeIntervalSince1970: (local / 3600).rounded(.down) * 3600 - offset)
    }

    /// The instant at `hour`:00 local time on `day`, counted in elapsed hours from the day's start
    /// when the day is irregular; used for the 13:00 publication time.
    public func instant(hour: Int, on day: LocalDay) -> Date { instant(minute: hour * 60, on: day) }

    /// The instant at `minute` minutes after local midnight on `day`, as the clock on the wall
    /// shows it; a time the clocks skip falls after the jump. Used for job windows.
    public func instant(minute: Int, on day: LocalDay) -> Date {
        let start = start(of: day)
        let elapsed = start.addingTimeInterval(Double(minute) * 60)
        // Correct for a clock change between midnight and `minute`.
        let guess = elapsed.addingTimeInterval(Double(offset(at: start) - offset(at: elapsed)))
        let wanted = minute * 60
        guard guess < elapsed, wallClock(at: guess) != (day, wanted) else { return guess }
        // The clocks skip this time: the first instant after the jump, found to the second.
        var low = Int64(guess.timeIntervalSince1970)
        var high = Int64(elapsed.timeIntervalSince1970)
        while low < high {
            let middle = low + (high - low) / 2
            let wall = wallClock(at: Date(timeIntervalSince1970: Double(middle)))
            if wall.day > day || wall.second >= wanted { high = middle } else { low = middle + 1 }
        }
        return Date(timeIntervalSince1970: Double(low))
    }
}
