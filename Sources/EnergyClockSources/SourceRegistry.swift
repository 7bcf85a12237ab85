import FoundationEssentials

/// Everything the program knows of one source or forecast provider, in one place: the command
/// line builds its `--<id>-url` option from it, the daemon and the tests their catalog, and a test
/// holds the docs and the add-on's options against it.
public struct RegistryEntry<Product: Sendable>: Sendable {
    /// The id users choose with the `source` or `forecast_provider` setting.
    public let id: String
    /// The name of the option that moves its API, e.g. `energyzero-url`; nil when it has none
    /// (`custom`, whose address is a setting).
    public let urlOption: String?
    /// What `--help` says of that option, its default included.
    public let urlHelp: String
    /// Builds it at `baseURL` (the option's value; nil for its default) with `http`'s limits and
    /// the tokens of those that need one.
    let make: @Sendable (_ baseURL: URL?, _ http: HTTPClient, _ tokens: SourceTokens) -> Product

    /// It at `baseURL`, or at its default address when nil.
    public func make(baseURL: URL?, http: HTTPClient, tokens: SourceTokens) -> Product {
        make(baseURL, http, tokens)
    }
}

/// A price source's entry.
public typealias SourceEntry = RegistryEntry<any PriceSource>
/// A forecast provider's entry.
public typealias ForecastEntry = RegistryEntry<any ForecastProvider>

extension RegistryEntry {
    /// One whose API moves with `--<id>-url`: `--help` calls it `api` and names `defaultURL`, which
    /// `make` is given when the option is not.
    init(
        id: String, api: String, defaultURL: URL,
        make: @escaping @Sendable (_ baseURL: URL, _ http: HTTPClient, _ tokens: SourceTokens) -> Product
    ) {
        self.init(
            id: id, urlOption: "\(id)-url", urlHelp: "\(api) (default: \(defaultURL.absoluteString))",
            make: { url, http, tokens in make(url ?? defaultURL, http, tokens) })
    }
}

/// The secrets some sources need; each is never logged, published or put in an error.
public struct SourceTokens: Sendable {
    /// ENTSO-E's security token.
    public var entsoe: String?
    /// Tibber's personal token.
    public var tibber: String?
    /// energyforecast.de's token.
    public var energyforecast: String?
    /// energypriceforecast.eu's key, for more than its public 48 hours.
    public var energypriceforecast: String?

    /// Tokens for the sources and providers that need them; nil where none is given.
    public init(entsoe: String? = nil, tibber: String? = nil, energyforecast: String? = nil, energypriceforecast: String? = nil) {
        self.entsoe = entsoe
        self.tibber = tibber
        self.energyforecast = energyforecast
        self.energypriceforecast = energypriceforecast
    }
}

/// The sources this build knows, in the order users see them.
public enum SourceRegistry {
    /// Every source.
    public static let entries: [SourceEntry] = [
        SourceEntry(
            id: "energyzero", api: "EnergyZero API base", defaultURL: EnergyZeroSource.defaultBaseURL,
            make: { url, http, _ in EnergyZeroSource(baseURL: url, http: http) }),
        SourceEntry(
            id: "entsoe", api: "ENTSO-E API base", defaultURL: EntsoeSource.defaultBaseURL,
            make: { url, http, tokens in EntsoeSource(baseURL: url, token: tokens.entsoe, http: http) }),
        SourceEntry(
            id: "awattar", urlOption: "awattar-url",
            urlHelp: "aWATTar API base for every zone (default: api.awattar.de for DE-LU, api.awattar.at for AT)",
            make: { url, http, _ in AwattarSource(override: url, http: http) }),
        SourceEntry(
            id: "energycharts", api: "Energy-Charts API base", defaultURL: EnergyChartsSource.defaultBaseURL,
            make: { url, http, _ in EnergyChartsSource(baseURL: url, http: http) }),
        SourceEntry(
            id: "nordpool", api: "Nord Pool data portal API base", defaultURL: NordPoolSource.defaultBaseURL,
            make: { url, http, _ in NordPoolSource(baseURL: url, http: http) }),
        SourceEntry(
            id: "octopus", api: "Octopus Energy API base", defaultURL: OctopusSource.defaultBaseURL,
            make: { url, http, _ in OctopusSource(baseURL: url, http: http) }),
        SourceEntry(
            id: "tibber", api: "Tibber GraphQL endpoint", defaultURL: TibberSource.defaultURL,
            make: { url, http, tokens in TibberSource(url: url, token: tokens.tibber, http: http) }),
        SourceEntry(
            id: "custom", urlOption: nil, urlHelp: "", make: { _, http, _ in CustomSource(http: http) }),
    ]

    /// The ids users may choose, in order.
    public static var ids: [String] { entries.map(\.id) }

    /// A catalog of every source, forecast provider and carbon source, each at `baseURLs[id]` or its default, with the ECB's rates at
    /// `ratesURL` (or the ECB's own address).
    public static func catalog(baseURLs: [String: URL], tokens: SourceTokens, http: HTTPClient, ratesURL: URL? = nil) -> SourceCatalog {
        SourceCatalog(
            entries.map { $0.make(baseURL: baseURLs[$0.id], http: http, tokens: tokens) },
            forecasts: ForecastRegistry.entries.map { $0.make(baseURL: baseURLs[$0.id], http: http, tokens: tokens) },
            carbon: CarbonRegistry.entries.map { $0.make(baseURL: baseURLs[$0.id], http: http, tokens: tokens) },
            rateFeed: ExchangeRateFeed(url: ratesURL ?? ExchangeRateFeed.defaultURL, http: http))
    }
}
