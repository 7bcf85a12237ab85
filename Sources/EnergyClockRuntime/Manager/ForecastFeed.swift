import EnergyClockDomain
import FoundationEssentials

/// One provider's forecast for one zone (one cache key), shared by every profile that names the
/// provider: asked for every few hours, cached once.
struct ForecastFeed {
    /// The store key, e.g. `forecast/epex-predictor/NL`.
    let key: String
    /// The provider's id.
    let provider: String
    /// The settings of a profile on this feed: what a fetch passes to the provider (the zone).
    var settings: Settings
    /// The last forecast, sorted, each slot marked with when it was issued.
    var slots = CompactSeries()
    /// The last fetch failed, or none has worked yet.
    var failing = true
    /// When to ask next; nil for at once.
    var nextFetch: Date?
    /// Fetches that failed in a row.
    var failures = 0

    /// How long a forecast is kept before the provider is asked again: its figures change a few
    /// times a day (EPEX Predictor with each weather update, energyforecast.de twice).
    static let interval: TimeInterval = 3 * 3600
    /// The pause after the first failure, doubled after each further one up to ``interval``.
    static let retryBase: TimeInterval = 300
    /// The pause after a refused token or key: it is not right by itself.
    static let refusedPause: TimeInterval = 6 * 3600
    /// How many scored slots make a provider's mean error count in a failover: two days of hours.
    static let scoredEnough = 48
    /// How old a forecast may be and still be shown: a day and a half.
    static let shownFor: TimeInterval = 36 * 3600

    /// The fetch worked at `now`: the next in ``interval``, moved by `jitter` (−1…1) times five minutes.
    mutating func succeeded(at now: Date, jitter: Double) {
        failing = false
        failures = 0
        nextFetch = now.addingTimeInterval(Self.interval + 300 * jitter)
    }

    /// The fetch failed at `now`: tried again after a pause that doubles with each failure, or
    /// after ``refusedPause`` when the provider refused the credentials.
    mutating func failed(at now: Date, refused: Bool) {
        failing = true
        failures += 1
        let pause = refused ? Self.refusedPause : min(Self.retryBase * Double(1 << min(failures - 1, 10)), Self.interval)
        nextFetch = now.addingTimeInterval(pause)
    }

    /// What of a forecast is kept at `now`: from two days ago (the hours it may still be scored
    /// on) to a week ahead.
    static func heldWindow(at now: Date) -> DateInterval {
        DateInterval(start: now.addingTimeInterval(-2 * 86_400), end: now.addingTimeInterval(SlotWindow.daysAhead * 86_400))
    }

    /// When its forecast was issued; nil without one.
    var issued: Date? {
        if case let .forecast(issued)? = slots.provenance?.kind { issued } else { nil }
    }

    /// Whether its forecast may be shown at `now`: issued within ``shownFor``.
    func isCurrent(at now: Date) -> Bool { issued.map { now.timeIntervalSince($0) <= Self.shownFor } ?? false }
}
