import EnergyClockDomain
import FoundationEssentials

/// The sources and forecast providers a daemon knows, by id.
public struct SourceCatalog: SourceRules {
    /// Every source in registration order.
    public let sources: [any PriceSource]
    /// Every forecast provider in registration order.
    public let forecasts: [any ForecastProvider]
    /// Every carbon source in registration order.
    public let carbon: [any CarbonSource]
    /// Where euro exchange rates come from, for prices in another currency; nil when nowhere.
    public let rateFeed: ExchangeRateFeed?

    /// A catalog of `sources`, `forecasts` and `carbon` sources; ids must be unique.
    public init(
        _ sources: [any PriceSource], forecasts: [any ForecastProvider] = [], carbon: [any CarbonSource] = [],
        rateFeed: ExchangeRateFeed? = nil
    ) {
        self.sources = sources
        self.forecasts = forecasts
        self.carbon = carbon
        self.rateFeed = rateFeed
    }

    /// The ids users may choose as `source`.
    public var ids: [String] { sources.map(\.id) }

    /// The ids users may choose as `forecast_provider`.
    public var forecastIDs: [String] { forecasts.map(\.id) }

    /// The source with `id`.
    public subscript(id: String) -> (any PriceSource)? { sources.first { $0.id == id } }

    /// The ids users may choose as `carbon_source`.
    public var carbonIDs: [String] { carbon.map(\.id) }

    /// The source of what `settings` show: the chosen price source, or for a `co2` or `grid`
    /// profile its carbon source as a feed (``CarbonFeedSource``).
    public func shown(_ settings: Settings) -> (any PriceSource)? {
        settings.signal == .price ? self[settings.source] : carbonFeed(settings)
    }

    /// The feed of the `carbon_source` of `settings`, whatever their signal; nil for none.
    public func carbonFeed(_ settings: Settings) -> CarbonFeedSource? {
        let id = settings.carbonSource
        return carbon.first { $0.id == id }.map(CarbonFeedSource.init)
    }

    /// The forecast provider with `id`.
    public func forecast(_ id: String) -> (any ForecastProvider)? { forecasts.first { $0.id == id } }

    /// Checks the rules that tie settings to sources: the chosen source, every fallback, the
    /// forecast provider and its fallbacks must exist, be usable and serve the chosen zone.
    public func check(_ settings: Settings) throws(SettingsError) {
        for (field, id) in [("source", settings.source)] + settings.fallbackSources.map({ ("fallback_sources", $0) }) {
            guard let source = self[id] else { throw .invalidChoice(field: field, value: id, allowed: ids) }
            if let reason = source.unusableReason(for: settings) { throw .notAllowed(field: field, reason: "\(id) \(reason)") }
        }
        let providers =
            (settings.forecastProvider.isEmpty ? [] : [("forecast_provider", settings.forecastProvider)])
            + settings.forecastFallbacks.map { ("forecast_fallbacks", $0) }
        if settings.forecastProvider.isEmpty, !settings.forecastFallbacks.isEmpty {
            throw .notAllowed(field: "forecast_fallbacks", reason: "fallbacks need a forecast_provider to fall back from")
        }
        for (field, id) in providers {
            guard let provider = forecast(id) else { throw .invalidChoice(field: field, value: id, allowed: forecastIDs) }
            if let reason = provider.unusableReason(for: settings) { throw .notAllowed(field: field, reason: "\(id) \(reason)") }
        }
        if settings.forecastFallbacks.contains(settings.forecastProvider) {
            throw .notAllowed(field: "forecast_fallbacks", reason: "\(settings.forecastProvider) is the forecast_provider itself")
        }
        if !settings.carbonSourceName.isEmpty {
            guard let feed = carbonFeed(settings) else {
                throw .invalidChoice(field: "carbon_source", value: settings.carbonSource, allowed: carbonIDs)
            }
            if let reason = feed.unusableReason(for: settings) { throw .notAllowed(field: "carbon_area", reason: "\(feed.id) \(reason)") }
            if let reason = kindProblem(of: feed.carbon, for: settings) { throw .notAllowed(field: "carbon_source", reason: reason) }
        }
    }

    /// Why `carbon` measures the wrong thing for `settings`, or nil: a `grid` profile shows a
    /// traffic light, while a `co2` profile and a job that weighs carbon need an intensity.
    func kindProblem(of carbon: any CarbonSource, for settings: Settings) -> String? {
        let wanted: String
        switch (settings.signal, carbon.scale) {
        case (.grid, nil): wanted = "a grid profile shows a traffic light"
        case (.co2, _?): wanted = "a co2 profile shows an intensity"
        case (.price, _?) where settings.jobs.values.contains(where: \.weighsCarbon):
            wanted = "its jobs that minimise co2 or co2_price weigh an intensity"
        default: return nil
        }
        let fitting = self.carbon.filter { ($0.scale == nil) == (carbon.scale != nil) }.map(\.id)
        let kind = carbon.scale == nil ? "an intensity" : "a grid signal"
        return "\(carbon.id) gives \(kind), but \(wanted): choose \(fitting.joined(separator: " or "))"
    }
}
