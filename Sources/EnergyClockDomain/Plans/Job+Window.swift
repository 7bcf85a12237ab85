import FoundationEssentials

extension Job {
    /// The window the job plans for at `now`: the first of its daily windows that ends after
    /// `now`, or for a `once` job the first that ends after it was set (which may be over).
    /// Any time (no window) runs from when it was set to `knownUntil`, the end of the known prices.
    package func occurrence(at now: Date, calendar: LocalCalendar, knownUntil: Date?) -> DateInterval {
        let anchor = repeats == .once ? (since ?? now) : now
        guard let window else {
            return DateInterval(start: anchor, end: max(anchor, knownUntil ?? anchor))
        }
        let day = calendar.day(containing: anchor)
        for offset in -1...1 {
            let first = day.adding(days: offset)
            let start = calendar.instant(minute: window.earliest, on: first)
            let end = calendar.instant(minute: window.deadline, on: window.deadline > window.earliest ? first : first.adding(days: 1))
            if end > anchor, end > start { return DateInterval(start: start, end: end) }
        }
        // Not reached: the window two days on always ends after the anchor.
        let start = calendar.instant(minute: window.earliest, on: day.adding(days: 1))
        return DateInterval(start: start, end: max(start, calendar.instant(minute: window.deadline, on: day.adding(days: 2))))
    }
}
