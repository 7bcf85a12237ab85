import FoundationEssentials

/// Everything the program knows of one price source, in one place: the command line builds its
/// `--<id>-url` option from it, the daemon and the tests their catalog, and a test holds the docs
/// and the add-on's options against it.
public struct SourceEntry: Sendable {
    /// The id users choose with the `source` setting.
    public let id: String
    /// The name of the option that moves its API, e.g. `energyzero-url`; nil when it has none
    /// (`custom`, whose address is a setting).
    public let urlOption: String?
    /// What `--help` says of that option, its default included.
    public let urlHelp: String
    /// Builds the source at `baseURL` (the option's value; nil for its default) with `http`'s
    /// limits and, for ENTSO-E and Tibber, their tokens.
    let make: @Sendable (_ baseURL: URL?, _ http: HTTPClient, _ tokens: SourceTokens) -> any PriceSource

    /// The source at `baseURL`, or at its default address when nil.
    public func source(baseURL: URL?, http: HTTPClient, tokens: SourceTokens) -> any PriceSource {
        make(baseURL, http, tokens)
    }
}

extension SourceEntry {
    /// A source whose API moves with `--<id>-url`: `--help` calls it `api` and names
    /// `defaultURL`, which `make` is given when the option is not.
    init(
        id: String, api: String, defaultURL: URL,
        make: @escaping @Sendable (_ baseURL: URL, _ http: HTTPClient, _ tokens: SourceTokens) -> any PriceSource
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

    /// Tokens for the sources that need them; nil where none is given.
    public init(entsoe: String? = nil, tibber: String? = nil) {
        self.entsoe = entsoe
        self.tibber = tibber
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

    /// A catalog of every source, each at `baseURLs[id]` or its default, with the ECB's rates at
    /// `ratesURL` (or the ECB's own address).
    public static func catalog(baseURLs: [String: URL], tokens: SourceTokens, http: HTTPClient, ratesURL: URL? = nil) -> SourceCatalog {
        SourceCatalog(
            entries.map { $0.source(baseURL: baseURLs[$0.id], http: http, tokens: tokens) },
            rateFeed: ExchangeRateFeed(url: ratesURL ?? ExchangeRateFeed.defaultURL, http: http))
    }
}
