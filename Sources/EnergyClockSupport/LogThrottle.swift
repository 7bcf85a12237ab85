/// Lets one log line per kind through per interval and counts the ones held back, so a flood of
/// refused payloads costs a few lines instead of megabytes.
package struct LogThrottle: Sendable {
    /// Seconds between two lines of the same kind.
    package var interval: Double
    private var kinds: [String: (last: ContinuousClock.Instant, suppressed: Int)] = [:]

    /// A throttle that lets one line of each kind through every `interval` seconds.
    package init(interval: Double = 10) {
        self.interval = interval
    }

    /// Whether a line of `kind` may be written at `now`; when it may, also how many lines of that
    /// kind were held back since the last one.
    package mutating func admit(_ kind: String, now: ContinuousClock.Instant = .now) -> (allowed: Bool, suppressed: Int) {
        if let entry = kinds[kind], now - entry.last < .milliseconds(Int64(interval * 1000)) {
            kinds[kind] = (entry.last, entry.suppressed + 1)
            return (false, 0)
        }
        let suppressed = kinds[kind]?.suppressed ?? 0
        kinds[kind] = (now, 0)
        return (true, suppressed)
    }
}
