import FoundationEssentials

/// Everything the outside world sees at one instant; derived purely from prices, settings and time.
public struct Snapshot: Sendable, Equatable {
    /// The profile this shows.
    public var profile = Profiles.firstName
    /// The instant this describes.
    public var now: Date
    /// The zone that local times are written in.
    public var timeZone: TimeZoneRules
    /// The effective settings.
    public var settings: Settings
    /// The thresholds in force; computed in relative mode.
    public var thresholds: Thresholds?
    /// How many prices relative thresholds came from; nil in absolute mode.
    public var samples: Int?
    /// Today's slots.
    public var today: [PricedSlot]
    /// Tomorrow's slots; empty until published.
    public var tomorrow: [PricedSlot]
    /// The forecast from the start of today where no official price is, priced and banded as the
    /// official slots are; empty without a `forecast_provider`. Each slot's provenance names the
    /// provider and when its forecast was issued.
    public var forecast = ForecastTail()
    /// The slot holding `now`, if any is known.
    public var current: PricedSlot?
    /// The slot after the current one, if known.
    public var next: PricedSlot?
    /// The source that served the prices.
    public var source: String
    /// The last fetch failed; the prices shown come from the cache.
    public var stale: Bool
    /// The last successful fetch.
    public var updatedAt: Date?
    /// Tomorrow's prices are completely known.
    public var tomorrowValid: Bool
    /// Prices are converted to another currency, and the day of some known slot has no rate yet:
    /// those slots are left out rather than shown at a made-up rate.
    public var missingRate: Bool
    /// Some slot's price worked out to NaN or infinity, from settings and rates that each passed
    /// their checks: those slots are left out too, and the manager logs it, rather than publish `nan`.
    public var nonFinitePrice = false
    /// How the profile's forecast providers have fared against the official prices; nil without a
    /// `forecast_provider`.
    public var forecastAccuracy: ForecastAccuracy?
    /// The plans of the profile's jobs, by name; made by the manager, which keeps what a started
    /// job has run (see ``PlanBook``).
    public var plans: [Plan] = []

    /// The local calendar of ``timeZone``.
    public var calendar: LocalCalendar { LocalCalendar(timeZone: timeZone) }

    /// Derives what to show at `now` from the native slots of one source, and a provider's
    /// `forecast` where that source has no price.
    public static func derive(
        now: Date, calendar: LocalCalendar, settings: Settings, slots: [SeriesSlot], forecast: [SeriesSlot] = [],
        source: String, stale: Bool, updatedAt: Date?, rates: ExchangeRates = ExchangeRates()
    ) -> Snapshot {
        Basis(day: calendar.day(containing: now), calendar: calendar, settings: settings, slots: slots, forecast: forecast, rates: rates)
            .snapshot(at: now, source: source, stale: stale, updatedAt: updatedAt)
    }
}
