import EnergyClockDomain
import FoundationEssentials

/// EnergyZero's public REST API (Dutch market prices, quarter-hour and hourly).
public struct EnergyZeroSource: PriceSource {
    /// The name it is chosen by in the `source` setting.
    public let id = "energyzero"
    /// Answers have held the day before and after too, but that is not promised; tomorrow is asked for itself.
    public var answersIncludeNextDay: Bool { false }
    /// The Dutch market only.
    public let zones: Set<String>? = ["NL"]
    /// Where the API lives, e.g. `https://public.api.energyzero.nl`.
    public var baseURL: URL
    /// The HTTP client with its limits.
    public var http: HTTPClient

    /// The public API's address.
    public static let defaultBaseURL = URL(string: "https://public.api.energyzero.nl")!

    /// A source at `baseURL`.
    public init(baseURL: URL = Self.defaultBaseURL, http: HTTPClient = HTTPClient()) {
        self.baseURL = baseURL
        self.http = http
    }

    /// The request for `day`, always at the finest interval the API offers.
    public func url(for day: LocalDay) -> URL {
        let date = "\(pad(day.day, 2))-\(pad(day.month, 2))-\(pad(day.year, 4))"
        var components = URLComponents(url: baseURL.appendingPathComponent("public/v1/prices"), resolvingAgainstBaseURL: false)!
        components.percentEncodedQuery = QueryString.encoded([
            ("energyType", "ENERGY_TYPE_ELECTRICITY"), ("date", date), ("interval", "INTERVAL_QUARTER"),
        ])
        return components.url!
    }

    /// Fetches the three local days the API returns around `day`.
    public func fetch(day: LocalDay, calendar: LocalCalendar, settings: Settings) async throws(SourceError) -> [SeriesSlot] {
        let response = try await http.get(url(for: day), for: id)
        switch response.status {
        case 200:
            break
        case 404:
            return []  // Not published yet.
        default:
            throw SourceError(source: id, problem: .httpStatus(response.status, detail: Self.errorMessage(response.body)))
        }
        return try Self.parse(response.jsonBody(source: id))
    }

    /// The `message` of an error body such as `{"code":3,"message":"…"}`, shortened.
    static func errorMessage(_ body: [UInt8]) -> String {
        guard case let .object(members)? = JSONValue.parse(body), case let .string(message)? = members["message"] else {
            return ""
        }
        return Quote.clip(message, limit: 200)
    }

    /// Reads the `base` series (market price, no VAT) of a response into validated slots.
    public static func parse(_ body: [UInt8]) throws(SourceError) -> [SeriesSlot] {
        func fail(_ problem: SourceError.Problem) -> SourceError { SourceError(source: "energyzero", problem: problem) }
        guard !body.isEmpty else { throw fail(.emptyBody) }
        guard let json = JSONValue.parse(body) else { throw fail(.malformed("not valid JSON")) }
        guard case let .object(root) = json else { throw fail(.malformed("not a JSON object")) }
        guard case let .array(items)? = root["base"] else { throw fail(.malformed("missing base")) }
        var slots: [SeriesSlot] = []
        slots.reserveCapacity(items.count)
        for (index, item) in items.enumerated() {
            guard case let .object(fields) = item,
                case let .string(startText)? = fields["start"], case let .string(endText)? = fields["end"],
                let start = ISO8601.parse(startText), let end = ISO8601.parse(endText)
            else { throw fail(.malformed("base[\(index)] has an unreadable time")) }
            // Prices come as decimal strings; a plain number is accepted too.
            let price: Double?
            switch fields["price"] {
            case let .object(value)?:
                switch value["value"] {
                case let .string(text)?: price = Bounded.decimal(text.trimmed)
                case let .number(number)?: price = number
                default: price = nil
                }
            default: price = nil
            }
            guard let price else { throw fail(.malformed("base[\(index)].price.value is not a number")) }
            slots.append(SeriesSlot(start: start, end: end, value: price))
        }
        return try slots.validated(from: "energyzero")
    }
}
