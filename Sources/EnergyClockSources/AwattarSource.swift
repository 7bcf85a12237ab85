import EnergyClockDomain
import FoundationEssentials

/// aWATTar's market data API for Germany-Luxembourg and Austria.
public struct AwattarSource: PriceSource {
    /// The name it is chosen by in the `source` setting.
    public let id = "awattar"
    /// Requests span the day and the next.
    public var answersIncludeNextDay: Bool { true }
    /// The API per zone; `--awattar-url` replaces both for testing or a proxy.
    public var baseURLs: [String: URL]
    /// The HTTP client with its limits.
    public var http: HTTPClient

    /// The public APIs: api.awattar.de for DE-LU and api.awattar.at for AT.
    public static let defaultBaseURLs: [String: URL] = [
        "DE-LU": URL(string: "https://api.awattar.de")!,
        "AT": URL(string: "https://api.awattar.at")!,
    ]

    /// A source with the public APIs, or `override` for every zone.
    public init(override: URL? = nil, http: HTTPClient = HTTPClient()) {
        baseURLs = override.map { url in Self.defaultBaseURLs.mapValues { _ in url } } ?? Self.defaultBaseURLs
        self.http = http
    }

    /// DE-LU and AT.
    public var zones: Set<String>? { Set(baseURLs.keys) }

    /// The request for `day` and the day after, in epoch milliseconds.
    func url(for day: LocalDay, zone: String, calendar: LocalCalendar) -> URL? {
        guard let base = baseURLs[zone] else { return nil }
        let start = Int64(calendar.start(of: day).timeIntervalSince1970 * 1000)
        let end = Int64(calendar.start(of: day.adding(days: 2)).timeIntervalSince1970 * 1000)
        var components = URLComponents(url: base.appendingPathComponent("v1/marketdata"), resolvingAgainstBaseURL: false)!
        components.percentEncodedQuery = QueryString.encoded([("start", "\(start)"), ("end", "\(end)")])
        return components.url
    }

    /// Fetches `day` and, when published, the day after.
    public func fetch(day: LocalDay, calendar: LocalCalendar, settings: Settings) async throws(SourceError) -> [SeriesSlot] {
        guard let url = url(for: day, zone: settings.zone, calendar: calendar) else {
            throw SourceError(source: id, problem: .malformed("no aWATTar API for zone \(settings.zone)"))
        }
        let response = try await http.get(url, for: id)
        guard response.status == 200 else {
            throw SourceError(source: id, problem: .httpStatus(response.status, detail: ""))
        }
        return try Self.parse(response.jsonBody(source: id))
    }

    /// Reads `data[]` of `start_timestamp`, `end_timestamp` (ms) and `marketprice` (Eur/MWh).
    public static func parse(_ body: [UInt8]) throws(SourceError) -> [SeriesSlot] {
        func fail(_ problem: SourceError.Problem) -> SourceError { SourceError(source: "awattar", problem: problem) }
        guard !body.isEmpty else { throw fail(.emptyBody) }
        guard case let .object(root)? = JSONValue.parse(body) else { throw fail(.malformed("not a JSON object")) }
        guard case let .array(items)? = root["data"] else { throw fail(.malformed("missing data")) }
        var points: [PricePoint] = []
        for (index, item) in items.enumerated() {
            guard case let .object(fields) = item,
                case let .number(start)? = fields["start_timestamp"], case let .number(end)? = fields["end_timestamp"],
                case let .number(price)? = fields["marketprice"]
            else { throw fail(.malformed("data[\(index)] lacks start_timestamp, end_timestamp or marketprice")) }
            var unit = PriceUnit.perMWh
            if case let .string(text)? = fields["unit"] {
                guard let named = PriceUnit(text) else { throw fail(.malformed("data[\(index)] has unknown unit \(text)")) }
                unit = named
            }
            points.append(
                PricePoint(
                    start: Date(timeIntervalSince1970: start / 1000), end: Date(timeIntervalSince1970: end / 1000),
                    price: unit.perKWh(price)))
        }
        return try points.slots(source: "awattar")
    }
}
