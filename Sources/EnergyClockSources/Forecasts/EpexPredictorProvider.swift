import EnergyClockDomain
import FoundationEssentials

/// EPEX Predictor: an open-source model of the day-ahead prices of several European zones, a week
/// ahead in quarter hours; it runs at its author's public address or on the user's own machine
/// (`--epex-predictor-url`).
///
/// Asked for EUR/kWh with no surcharge and no tax, its `total` is the bare market price. The
/// answer holds the prices already published up to `knownUntil`, then the forecast; only the
/// forecast is taken.
public struct EpexPredictorProvider: ForecastProvider {
    /// The name it is chosen by in the `forecast_provider` setting.
    public let id = "epex-predictor"
    /// The zones it models.
    public var zones: Set<String> { Set(Self.regions.keys) }
    /// Where its API lives.
    public var baseURL: URL
    /// The HTTP client with its limits.
    public var http: HTTPClient

    /// Its author's public instance.
    public static let defaultBaseURL = URL(string: "https://epexpredictor.batzill.com")!

    /// Its `region` for each zone.
    static let regions: [String: String] = [
        "DE-LU": "DE", "AT": "AT", "BE": "BE", "NL": "NL", "SE1": "SE1", "SE2": "SE2", "SE3": "SE3", "SE4": "SE4",
        "DK1": "DK1", "DK2": "DK2", "ES": "ES", "PT": "PT",
    ]

    /// A provider at `baseURL`.
    public init(baseURL: URL = Self.defaultBaseURL, http: HTTPClient = HTTPClient()) {
        self.baseURL = baseURL
        self.http = http
    }

    /// The request for the zone of `settings`.
    func url(for settings: Settings) -> URL {
        var components = URLComponents(url: baseURL.appendingPathComponent("prices"), resolvingAgainstBaseURL: false)!
        components.percentEncodedQuery = QueryString.encoded([
            ("region", Self.regions[settings.zone] ?? settings.zone), ("unit", "EUR_PER_KWH"), ("surcharge", "0"),
            ("taxPercent", "0"), ("timezone", "UTC"),
        ])
        return components.url!
    }

    /// Fetches the forecast.
    public func fetch(settings: Settings, now: Date) async throws(SourceError) -> [SeriesSlot] {
        let response = try await http.get(url(for: settings), for: id)
        guard response.status == 200 else {
            throw SourceError(source: id, problem: .httpStatus(response.status, detail: Self.detail(of: response.body)))
        }
        return try Self.parse(response.jsonBody(source: id), issued: now)
    }

    /// The `detail` of one of its error answers (`{"detail":"Invalid timezone …"}`), or nothing.
    static func detail(of body: [UInt8]) -> String {
        guard case let .object(root)? = JSONValue.parse(body), case let .string(text)? = root["detail"] else { return "" }
        return Quote.clip(text)
    }

    /// Reads `prices[].startsAt` and `.total` after `knownUntil`, each a quarter hour.
    public static func parse(_ body: [UInt8], issued: Date) throws(SourceError) -> [SeriesSlot] {
        let answer = SourceAnswer(source: "epex-predictor")
        guard case let .object(root) = try answer.json(body), case let .array(prices)? = root["prices"] else {
            throw answer.fail("no prices list")
        }
        let knownUntil = try root["knownUntil"].map { value throws(SourceError) in try answer.instant(value, "knownUntil") }
        var points: [PricePoint] = []
        for (index, entry) in prices.enumerated() {
            guard case let .object(fields) = entry else { throw answer.fail("prices[\(index)] is not an object") }
            let start = try answer.instant(fields["startsAt"], "prices[\(index)].startsAt")
            let total = try answer.number(fields["total"], "prices[\(index)].total", limit: Array.priceLimit)
            // Up to and including `knownUntil` the prices are the market's own.
            if let knownUntil, start <= knownUntil { continue }
            points.append(PricePoint(start: start, end: start.addingTimeInterval(900), price: total))
        }
        return try points.forecast(by: answer.source, issued: issued)
    }
}
