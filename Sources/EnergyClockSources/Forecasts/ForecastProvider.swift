import EnergyClockDomain
import FoundationEssentials

/// A provider of price forecasts for the hours the day-ahead auction has not priced yet, chosen
/// per profile with the `forecast_provider` setting.
///
/// What it gives is a forecast of the market price, in EUR/kWh without VAT, whatever the provider
/// quotes (docs/sources.md says how each one's figures are read): the consumer price is then
/// worked out as for an official price. Values the provider marks as the market's own are left
/// out; the profile's source gives those.
public protocol ForecastProvider: Sendable {
    /// The id users choose with the `forecast_provider` setting, e.g. `epex-predictor`.
    var id: String { get }

    /// The zones it forecasts.
    var zones: Set<String> { get }

    /// Why it cannot serve `settings` (a missing token, another zone), or nil when it can.
    func unusableReason(for settings: Settings) -> String?

    /// Its forecast for the zone of `settings`, each slot marked as a forecast issued at `now`.
    ///
    /// Throws when the provider fails or answers something that cannot be trusted.
    func fetch(settings: Settings, now: Date) async throws(SourceError) -> [SeriesSlot]
}

extension ForecastProvider {
    /// Usable in the zones it forecasts.
    public func unusableReason(for settings: Settings) -> String? { zoneProblem(for: settings) }

    /// Why it cannot forecast the zone of `settings`, or nil when it can.
    public func zoneProblem(for settings: Settings) -> String? {
        zones.contains(settings.zone) ? nil : "forecasts zone \(zones.sorted().joined(separator: ", ")) only, not \(settings.zone)"
    }

    /// The store key of its forecast for the zone of `settings`, e.g. `forecast/epex-predictor/NL`.
    public func cacheKey(for settings: Settings) -> String { "forecast/\(id)/\(settings.zone)" }
}

extension Array where Element == PricePoint {
    /// The forecast slots of `provider` from these points, in EUR/kWh, issued at `issued`; the
    /// checks of ``slots(source:currency:basis:)`` apply.
    func forecast(by provider: String, issued: Date) throws(SourceError) -> [SeriesSlot] {
        try slots(source: provider).stamped(.forecast(provider, issued: issued))
    }
}

extension SourceAnswer {
    /// The forecast among `entries`: objects with `start` and `end` times and a price in EUR/kWh
    /// under `value`, each marked under `origin` as `published` (left out: the source has it) or
    /// `forecast`. `path` names the list in errors: `entries[3].start is not a time`.
    func forecastPoints(
        _ entries: [JSONValue], path: String, origin: String, published: String, value: String
    ) throws(SourceError) -> [PricePoint] {
        var points: [PricePoint] = []
        for (index, entry) in entries.enumerated() {
            let name = "\(path)[\(index)]"
            guard case let .object(fields) = entry else { throw fail("\(name) is not an object") }
            switch fields[origin] {
            case .string(published): continue
            case .string("forecast"): break
            default: throw fail("\(name).\(origin) is neither \(published) nor forecast")
            }
            let start = try instant(fields["start"], "\(name).start")
            let end = try instant(fields["end"], "\(name).end")
            let price = try number(fields[value], "\(name).\(value)", limit: Array.priceLimit)
            points.append(PricePoint(start: start, end: end, price: price))
        }
        return points
    }
}
