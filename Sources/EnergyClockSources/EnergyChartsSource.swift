import EnergyClockDomain
import FoundationEssentials

/// Energy-Charts (Fraunhofer ISE) day-ahead prices per bidding zone.
public struct EnergyChartsSource: PriceSource {
    /// The name it is chosen by in the `source` setting.
    public let id = "energycharts"
    /// Requests span the day and the next.
    public var answersIncludeNextDay: Bool { true }
    /// Where the API lives, e.g. `https://api.energy-charts.info`.
    public var baseURL: URL
    /// The HTTP client with its limits.
    public var http: HTTPClient

    /// The public API's address.
    public static let defaultBaseURL = URL(string: "https://api.energy-charts.info")!

    /// A source at `baseURL`.
    public init(baseURL: URL = Self.defaultBaseURL, http: HTTPClient = HTTPClient()) {
        self.baseURL = baseURL
        self.http = http
    }

    /// The request for `day` and the day after.
    func url(for day: LocalDay, zone: String) -> URL {
        var components = URLComponents(url: baseURL.appendingPathComponent("price"), resolvingAgainstBaseURL: false)!
        components.percentEncodedQuery = QueryString.encoded([
            ("bzn", zone), ("start", day.description), ("end", day.adding(days: 1).description),
        ])
        return components.url!
    }

    /// Fetches `day` and, when published, the day after; 404 means not published yet.
    public func fetch(day: LocalDay, calendar: LocalCalendar, settings: Settings) async throws(SourceError) -> [SeriesSlot] {
        let response = try await http.get(url(for: day, zone: settings.zone), for: id)
        switch response.status {
        case 200: break
        case 404: return []
        default: throw SourceError(source: id, problem: .httpStatus(response.status, detail: ""))
        }
        return try Self.parse(response.jsonBody(source: id))
    }

    /// Reads the parallel `unix_seconds[]` and `price[]` arrays; `null` prices are left out.
    public static func parse(_ body: [UInt8]) throws(SourceError) -> [SeriesSlot] {
        func fail(_ problem: SourceError.Problem) -> SourceError { SourceError(source: "energycharts", problem: problem) }
        guard !body.isEmpty else { throw fail(.emptyBody) }
        guard case let .object(root)? = JSONValue.parse(body) else { throw fail(.malformed("not a JSON object")) }
        guard case let .array(times)? = root["unix_seconds"], case let .array(prices)? = root["price"] else {
            // An empty answer is an object without the arrays, or with empty ones.
            if root["unix_seconds"] == nil, root["price"] == nil, root["message"] == nil { return [] }
            throw fail(.malformed("missing unix_seconds or price"))
        }
        guard times.count == prices.count else {
            throw fail(.malformed("\(times.count) times but \(prices.count) prices"))
        }
        var unit = PriceUnit.perMWh
        if case let .string(text)? = root["unit"] {
            guard let named = PriceUnit(text) else { throw fail(.malformed("unknown unit \(text)")) }
            unit = named
        }
        var starts: [Date] = []
        for (index, time) in times.enumerated() {
            guard case let .number(seconds) = time else { throw fail(.malformed("unix_seconds[\(index)] is not a number")) }
            starts.append(Date(timeIntervalSince1970: seconds))
        }
        var points: [PricePoint] = []
        for (index, price) in prices.enumerated() {
            let value: Double
            switch price {
            case let .number(number): value = number
            case .null: continue  // No price for this slot; leave it out.
            default: throw fail(.malformed("price[\(index)] is not a number"))
            }
            // A slot ends where the next time begins, even when that next price is missing; the
            // last one lasts as long as the slot before it.
            let end: Date? = index + 1 < starts.count ? starts[index + 1] : nil
            points.append(PricePoint(start: starts[index], end: end, price: unit.perKWh(value)))
        }
        return try points.slots(source: "energycharts")
    }
}
