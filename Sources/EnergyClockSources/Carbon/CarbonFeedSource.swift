import EnergyClockDomain
import FoundationEssentials

/// A carbon source seen as the feed of a `co2` profile: fetched, cached, refreshed and failed over
/// by the manager as a price source is, under the key `carbon/<id>/<area>`.
///
/// Unlike a day-ahead auction, a carbon source renews its forecast all day, so the feed asks it
/// again every ``refreshInterval``; one answer holds the day asked for and the two after it.
public struct CarbonFeedSource: PriceSource {
    /// The carbon source.
    public let carbon: any CarbonSource

    /// A feed of `carbon`.
    public init(_ carbon: any CarbonSource) { self.carbon = carbon }

    /// The carbon source's id.
    public var id: String { carbon.id }

    /// One answer covers three days.
    public var answersIncludeNextDay: Bool { true }

    /// No currency: the values are intensities.
    public func quotedCurrency(for settings: Settings) -> String? { nil }

    /// Half an hour: the GB forecast is renewed each half hour, Energinet's each quarter.
    public var refreshInterval: TimeInterval? { 1800 }

    /// Why `carbon_area` cannot be asked for, or nil.
    public func unusableReason(for settings: Settings) -> String? {
        carbon.areaProblem(settings.carbonArea).map { "cannot answer for carbon_area: \($0); it takes \(carbon.areas)" }
    }

    /// `carbon/<id>/<area>`.
    public func cacheKey(for settings: Settings) -> String { carbon.cacheKey(area: settings.carbonArea) }

    /// The source's values from the start of `day` for three days. What lies ahead of the
    /// source's answer time is its forecast; the manager stamps when it was issued.
    public func fetch(day: LocalDay, calendar: LocalCalendar, settings: Settings) async throws(SourceError) -> [SeriesSlot] {
        let start = calendar.start(of: day)
        return try await carbon.fetch(area: settings.carbonArea, from: start, now: start)
    }
}
