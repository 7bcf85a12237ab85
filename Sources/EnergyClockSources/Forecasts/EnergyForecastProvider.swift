import EnergyClockDomain
import FoundationEssentials

/// energyforecast.de: a forecast of the day-ahead prices of Germany and its neighbours, 48 hours
/// ahead in quarter hours with a free token (`ENERGYCLOCK_ENERGYFORECAST_TOKEN`), renewed at about
/// 03:10 and 15:10 UTC.
///
/// Asked with no fixed cost and no VAT, its `price` is the market price in EUR/kWh. Entries whose
/// `price_origin` is `market` are the published prices; only those marked `forecast` are taken.
public struct EnergyForecastProvider: ForecastProvider {
    /// The name it is chosen by in the `forecast_provider` setting.
    public let id = "energyforecast"
    /// The market zones it forecasts.
    public var zones: Set<String> { ["DE-LU", "AT", "FR", "NL", "BE", "PL", "DK1", "DK2"] }
    /// Where its API lives.
    public var baseURL: URL
    /// The token; without one the provider is not usable.
    public var token: String?
    /// The HTTP client with its limits.
    public var http: HTTPClient

    /// The public API.
    public static let defaultBaseURL = URL(string: "https://www.energyforecast.de")!

    /// A provider at `baseURL` with `token`.
    public init(baseURL: URL = Self.defaultBaseURL, token: String?, http: HTTPClient = HTTPClient()) {
        self.baseURL = baseURL
        self.token = token
        self.http = http
    }

    /// Needs a token, and one of its zones.
    public func unusableReason(for settings: Settings) -> String? {
        if (token ?? "").isEmpty {
            return "needs a token: start energyclock with ENERGYCLOCK_ENERGYFORECAST_TOKEN or --energyforecast-token-file"
        }
        return zoneProblem(for: settings)
    }

    /// The request for the zone of `settings`: quarter hours of the market price alone.
    func url(for settings: Settings) -> URL {
        var components = URLComponents(
            url: baseURL.appendingPathComponent("api/v1/predictions/next_48_hours"), resolvingAgainstBaseURL: false)!
        components.percentEncodedQuery = QueryString.encoded([
            ("token", token ?? ""), ("resolution", "QUARTER_HOURLY"), ("fixed_cost_cent", "0"), ("vat", "0"),
            ("market_zone", settings.zone),
        ])
        return components.url!
    }

    /// Fetches the forecast; a refused token says so, with the token kept out of every message.
    public func fetch(settings: Settings, now: Date) async throws(SourceError) -> [SeriesSlot] {
        do throws(SourceError) {
            let response = try await http.get(url(for: settings), for: id)
            switch response.status {
            case 200: return try Self.parse(response.jsonBody(source: id), issued: now)
            case 401, 403:
                throw SourceError(source: id, problem: .credentialsRefused(status: response.status, reason: "the token was refused"))
            default: throw SourceError(source: id, problem: .httpStatus(response.status, detail: ""))
            }
        } catch {
            throw error.redacting(token)
        }
    }

    /// Reads the entries marked `forecast`: `start`, `end` and `price`.
    public static func parse(_ body: [UInt8], issued: Date) throws(SourceError) -> [SeriesSlot] {
        let answer = SourceAnswer(source: "energyforecast")
        guard case let .array(entries) = try answer.json(body) else { throw answer.fail("not a JSON array") }
        return try answer.forecastPoints(entries, path: "", origin: "price_origin", published: "market", value: "price")
            .forecast(by: answer.source, issued: issued)
    }
}
