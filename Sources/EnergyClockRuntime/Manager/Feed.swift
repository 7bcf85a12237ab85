import EnergyClockDomain
import FoundationEssentials

/// The prices of one source for one zone (one cache key), shared by every profile that shows them:
/// fetched once per poll, cached once, however many profiles read it.
struct Feed {
    /// The store key, e.g. `entsoe/NL`.
    let key: String
    /// The source's id.
    let source: String
    /// The settings of a profile on this feed: what a fetch passes to the source (zone, URL,
    /// unit). What decides the bands may be older than the profile's, since a change of bands
    /// alone leaves the feeds as they are.
    var settings: Settings
    /// The longest `history_days` of the profiles on it: how far back it is held and backfilled.
    var historyDays: Int
    /// Native slots, sorted, for the days its profiles show.
    var slots: [SeriesSlot] = []
    /// The last successful fetch.
    var updatedAt: Date?
    /// The last fetch failed.
    var stale = false
    /// When to fetch next.
    var schedule: RefreshSchedule
    /// Past days whose backfill was tried today.
    var backfillTried: Set<LocalDay> = []
    /// How long an answer holds for a source that renews its values all day (``PriceSource/refreshInterval``);
    /// nil for a day-ahead market.
    var refreshInterval: TimeInterval?
}

/// The prices a profile shows from one of its `fallback_sources` while its own source fails.
struct Fallback {
    /// The fallback's id.
    var source: String
    /// Its store key.
    var key: String
    /// The key of the feed that failed, whose recovery ends this.
    var primaryKey: String
    /// Its slots.
    var slots: [SeriesSlot]
    /// Its last successful fetch.
    var updatedAt: Date?
}
