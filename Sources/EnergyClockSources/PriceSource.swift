import EnergyClockDomain
import FoundationEssentials

/// A day-ahead price feed; each source normalises to EUR/kWh market prices without VAT.
public protocol PriceSource: Sendable {
    /// The id users choose with the `source` setting, e.g. `energyzero`.
    var id: String { get }

    /// The zones the source serves, or nil when it serves every known zone.
    var zones: Set<String>? { get }

    /// Whether an answer for a day also holds the next day once that is published, so that
    /// asking for tomorrow separately would only repeat the request.
    var answersIncludeNextDay: Bool { get }

    /// Whether the source answers for past days, so that missing history is worth asking it for.
    var answersPastDays: Bool { get }

    /// Why the source cannot serve `settings` (a missing token, another zone), or nil when it can.
    func unusableReason(for settings: Settings) -> String?

    /// The slots the source has for `day` in the zone and with the options of `settings`.
    ///
    /// It may return neighbouring days too. Returns an empty list when the day is not
    /// published yet; throws when the source fails or answers something that cannot be trusted.
    func fetch(day: LocalDay, calendar: LocalCalendar, settings: Settings) async throws(SourceError) -> [SeriesSlot]

    /// The store key of this source's cache under `settings`: one cache per market the source can serve.
    func cacheKey(for settings: Settings) -> String

    /// The currency the source quotes under `settings`, where it is known before an answer: EUR for
    /// the European markets; nil where only the answer says (Tibber: the home's currency).
    func quotedCurrency(for settings: Settings) -> String?

    /// When the source publishes the next day, where it says so; nil for the daemon's default
    /// (13:00 local, `--tomorrow-hour`).
    var nextDayPublication: Publication? { get }

    /// How long an answer holds before the source is asked again, for a source that renews its
    /// values all day (a carbon forecast); nil for a day-ahead market, asked when a day is due.
    var refreshInterval: TimeInterval? { get }
}

/// When a source publishes the next day's prices: from an hour of the day in a calendar of its own.
public struct Publication: Sendable {
    /// The hour, 0…23.
    public var hour: Int
    /// The calendar the hour is read in, e.g. Europe/London for Octopus.
    public var calendar: LocalCalendar

    /// A publication at `hour` in `calendar`.
    public init(hour: Int, calendar: LocalCalendar) {
        self.hour = hour
        self.calendar = calendar
    }

    /// The instant of the publication on the date of `day`.
    public func instant(on day: LocalDay) -> Date { calendar.instant(hour: hour, on: day) }
}

extension PriceSource {
    /// Serves every zone.
    public var zones: Set<String>? { nil }

    /// The European markets' euro.
    public func quotedCurrency(for settings: Settings) -> String? { "EUR" }

    /// Past days can be asked for.
    public var answersPastDays: Bool { true }

    /// The daemon's default.
    public var nextDayPublication: Publication? { nil }

    /// Asked when a day is due.
    public var refreshInterval: TimeInterval? { nil }

    /// Assumes answers hold only the day asked for.
    public var answersIncludeNextDay: Bool { false }

    /// Usable in the zones it serves.
    public func unusableReason(for settings: Settings) -> String? {
        guard let zones, !zones.contains(settings.zone) else { return nil }
        return "serves zone \(zones.sorted().joined(separator: ", ")) only, not \(settings.zone)"
    }

    /// The id alone for a single-market source, else the id with the zone, e.g. `entsoe/BE`.
    public func cacheKey(for settings: Settings) -> String {
        zones?.count == 1 ? id : "\(id)/\(settings.zone)"
    }
}
