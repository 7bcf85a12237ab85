import EnergyClockDomain
import FoundationEssentials

/// energypriceforecast.eu: a forecast of the day-ahead prices of most European zones, 48 hours
/// ahead without a key and up to 120 hours with one (`ENERGYCLOCK_ENERGYPRICEFORECAST_KEY`).
///
/// Its Home Assistant endpoint, asked for the base price, gives EUR/kWh without VAT or fees, each
/// entry marked `day_ahead` (published) or `forecast`; only the forecast is taken. A key it does
/// not accept is no HTTP error there: the answer says so in `meta.api_key_state`, and that is
/// refused as a refused key, not shown as the public 48 hours.
public struct EnergyPriceForecastProvider: ForecastProvider {
    /// The name it is chosen by in the `forecast_provider` setting.
    public let id = "energypriceforecast"
    /// The market zones it forecasts.
    public var zones: Set<String> { Set(Self.countries.keys) }
    /// Where its API lives.
    public var baseURL: URL
    /// The key for the longer horizon, if any.
    public var key: String?
    /// The HTTP client with its limits.
    public var http: HTTPClient

    /// The public API.
    public static let defaultBaseURL = URL(string: "https://api.energypriceforecast.eu")!

    /// Its `country` for each zone.
    static let countries: [String: String] = Dictionary(
        uniqueKeysWithValues: [
            "AT", "BE", "CZ", "DK1", "DK2", "FI", "FR", "NL", "NO1", "NO2", "NO3", "NO4", "NO5", "PL", "SE1", "SE2", "SE3", "SE4",
        ]
        .map { ($0, $0) } + [("DE-LU", "DE")])

    /// The states of a key the provider refuses.
    static let refusedKeys: Set<String> = ["invalid", "invalid_format", "revoked", "inactive", "expired"]

    /// A provider at `baseURL`, with `key` when one is given.
    public init(baseURL: URL = Self.defaultBaseURL, key: String?, http: HTTPClient = HTTPClient()) {
        self.baseURL = baseURL
        self.key = key
        self.http = http
    }

    /// The request for the zone of `settings`: 120 hours with a key, 48 without.
    func url(for settings: Settings) -> URL {
        var components = URLComponents(
            url: baseURL.appendingPathComponent("api/v1/home-assistant/prices"), resolvingAgainstBaseURL: false)!
        components.percentEncodedQuery = QueryString.encoded([
            ("country", Self.countries[settings.zone] ?? settings.zone), ("hours", (key ?? "").isEmpty ? "48" : "120"),
            ("price_mode", "base"),
        ])
        return components.url!
    }

    /// Fetches the forecast, with the key as a bearer token; the key is kept out of every message.
    public func fetch(settings: Settings, now: Date) async throws(SourceError) -> [SeriesSlot] {
        do throws(SourceError) {
            let headers = (key ?? "").isEmpty ? [] : ["Authorization: Bearer \(key ?? "")"]
            let response = try await http.get(url(for: settings), headers: headers, for: id)
            switch response.status {
            case 200: return try Self.parse(response.jsonBody(source: id), issued: now, keyGiven: !(key ?? "").isEmpty)
            case 401, 403:
                throw SourceError(source: id, problem: .credentialsRefused(status: response.status, reason: "the key was refused"))
            default:
                throw SourceError(
                    source: id, problem: .httpStatus(response.status, detail: EpexPredictorProvider.detail(of: response.body)))
            }
        } catch {
            throw error.redacting(key)
        }
    }

    /// Reads `entries[]` marked `forecast`: `start`, `end` and `value`, in EUR/kWh.
    public static func parse(_ body: [UInt8], issued: Date, keyGiven: Bool = false) throws(SourceError) -> [SeriesSlot] {
        let answer = SourceAnswer(source: "energypriceforecast")
        guard case let .object(root) = try answer.json(body), case let .array(entries)? = root["entries"] else {
            throw answer.fail("no entries list")
        }
        if let currency = root["currency"], currency != .string("EUR") { throw answer.fail("prices not in EUR") }
        if keyGiven, case let .object(meta)? = root["meta"], case let .string(state)? = meta["api_key_state"], refusedKeys.contains(state) {
            throw SourceError(
                source: answer.source, problem: .credentialsRefused(status: 200, reason: "the key was refused (\(Quote.clip(state)))"))
        }
        return try answer.forecastPoints(entries, path: "entries", origin: "source", published: "day_ahead", value: "value")
            .forecast(by: answer.source, issued: issued)
    }
}
