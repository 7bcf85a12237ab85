import Foundation

/// EnergyZero's public REST API (Dutch market prices, quarter-hour and hourly).
public struct EnergyZeroSource: PriceSource {
    /// `energyzero`.
    public let id = "energyzero"
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
        components.queryItems = [
            URLQueryItem(name: "energyType", value: "ENERGY_TYPE_ELECTRICITY"),
            URLQueryItem(name: "date", value: date),
            URLQueryItem(name: "interval", value: "INTERVAL_QUARTER"),
        ]
        return components.url!
    }

    /// Fetches the three local days the API returns around `day`.
    public func fetch(day: LocalDay, calendar: LocalCalendar, settings: Settings) async throws(SourceError) -> [PriceSlot] {
        let response = try await http.get(url(for: day), source: id)
        switch response.status {
        case 200:
            break
        case 404:
            return [] // Not published yet.
        default:
            throw SourceError(source: id, problem: .httpStatus(response.status, detail: Self.errorMessage(response.body)))
        }
        guard response.contentType.isEmpty || response.contentType.hasSuffix("json") else {
            throw SourceError(source: id, problem: .contentType(response.contentType))
        }
        return try Self.parse(response.body)
    }

    /// The `message` of an error body such as `{"code":3,"message":"…"}`, shortened.
    static func errorMessage(_ body: [UInt8]) -> String {
        guard case let .object(members)? = JSONValue.parse(body), case let .string(message)? = members["message"] else {
            return ""
        }
        return String(message.prefix(200))
    }

    /// Reads the `base` series (market price, no VAT) of a response into validated slots.
    public static func parse(_ body: [UInt8]) throws(SourceError) -> [PriceSlot] {
        let source = "energyzero"
        guard !body.isEmpty else { throw SourceError(source: source, problem: .emptyBody) }
        let document: Document
        do {
            document = try JSONDecoder().decode(Document.self, from: Data(body))
        } catch {
            throw SourceError(source: source, problem: .malformed(Self.reason(error)))
        }
        var slots: [PriceSlot] = []
        slots.reserveCapacity(document.base.count)
        for (index, item) in document.base.enumerated() {
            guard let start = ISO8601.parse(item.start), let end = ISO8601.parse(item.end) else {
                throw SourceError(source: source, problem: .malformed("base[\(index)] has an unreadable time"))
            }
            guard let price = item.price.value else {
                throw SourceError(source: source, problem: .malformed("base[\(index)].price.value is not a number"))
            }
            slots.append(PriceSlot(start: start, end: end, market: price))
        }
        slots.sort { $0.start < $1.start }
        do {
            return try slots.validated()
        } catch {
            throw SourceError(source: source, problem: .invalidSlots(error))
        }
    }

    private static func reason(_ error: any Error) -> String {
        switch error {
        case DecodingError.keyNotFound(let key, let context):
            "missing \(path(context.codingPath + [key]))"
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            "wrong type at \(path(context.codingPath))"
        case DecodingError.dataCorrupted:
            "not valid JSON"
        default:
            "not valid JSON"
        }
    }

    private static func path(_ keys: [any CodingKey]) -> String {
        keys.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined().trimmingPrefix(".").description
    }

    struct Document: Decodable {
        var base: [Item]
    }

    struct Item: Decodable {
        var start: String
        var end: String
        var price: Price
    }

    struct Price: Decodable {
        /// The price, sent as a decimal string (or, leniently, a number).
        var value: Double?

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            if let text = try? container.decode(String.self, forKey: .value) {
                value = Double(text.trimmingCharacters(in: .whitespaces))
            } else {
                value = try container.decode(Double.self, forKey: .value)
            }
        }

        enum CodingKeys: String, CodingKey { case value }
    }
}
