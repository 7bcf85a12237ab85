import EnergyClockDomain
import FoundationEssentials
import Glibc
import Platform

/// A price list of the user's own, from an `http(s)://` or `file://` URL (the `custom_url` setting).
///
/// The document is an array, or an object with a `prices` array (and optionally a `unit`), of
/// `{"start", "end"?, "price"}`. Times are ISO 8601 with an offset, or epoch seconds (or
/// milliseconds, for numbers above 10^11). A missing `end` is the next `start`; the last slot
/// lasts as long as the one before it. Slots may be 1 second to 1 day long.
public struct CustomSource: PriceSource {
    /// The name it is chosen by in the `source` setting.
    public let id = "custom"
    /// The whole list comes every time.
    public var answersIncludeNextDay: Bool { true }
    /// The HTTP client with its limits (the size limit applies to files too).
    public var http: HTTPClient

    /// A custom source with `http`'s limits.
    public init(http: HTTPClient = HTTPClient()) {
        self.http = http
    }

    /// Unusable until `custom_url` is set.
    public func unusableReason(for settings: Settings) -> String? {
        settings.customURL.isEmpty ? "needs custom_url: an http(s):// or file:// address of a price list" : nil
    }

    /// One cache per URL.
    public func cacheKey(for settings: Settings) -> String { "\(id)/\(settings.customURL)" }

    /// Reads the whole document; `day` does not narrow it.
    public func fetch(day: LocalDay, calendar: LocalCalendar, settings: Settings) async throws(SourceError) -> [SeriesSlot] {
        guard let url = URL(string: settings.customURL), let scheme = url.scheme?.lowercased() else {
            let problem =
                settings.customURL.isEmpty
                ? "custom_url is not set" : "custom_url \(Quote.json(URLRedaction.redacted(settings.customURL), limit: 80)) is no URL"
            throw SourceError(source: id, problem: .malformed(problem))
        }
        let body: [UInt8]
        if scheme == "file" {
            // Only a regular file, read within the fetch time-out: a FIFO or a hung mount must not
            // hold up every fetch, or a shutdown.
            switch await RegularFile.read(url.path, limit: http.maxBodyBytes, timeout: http.timeout) {
            case let .success(bytes): body = bytes
            case .failure(.tooLarge): throw SourceError(source: id, problem: .tooLarge(limit: http.maxBodyBytes))
            case .failure(.timedOut): throw SourceError(source: id, problem: .timeout(seconds: http.timeout))
            case let .failure(failure): throw SourceError(source: id, problem: .transport("\(failure)"))
            }
        } else {
            let response = try await http.get(url, for: id)
            guard response.status == 200 else { throw SourceError(source: id, problem: .httpStatus(response.status, detail: "")) }
            body = try response.body(ifTypeIs: { $0.hasSuffix("json") || $0 == "text/plain" }, source: id)
        }
        return try Self.parse(body, defaultUnit: settings.customUnit)
    }

    /// Reads the documented shape into validated slots in EUR/kWh.
    public static func parse(_ body: [UInt8], defaultUnit: String = "EUR/kWh") throws(SourceError) -> [SeriesSlot] {
        func fail(_ problem: SourceError.Problem) -> SourceError { SourceError(source: "custom", problem: problem) }
        guard !body.isEmpty else { throw fail(.emptyBody) }
        guard let json = JSONValue.parse(body) else { throw fail(.malformed("not valid JSON")) }
        var unitText = defaultUnit
        let items: [JSONValue]
        switch json {
        case let .array(list):
            items = list
        case let .object(root):
            guard case let .array(list)? = root["prices"] else { throw fail(.malformed("an object needs a prices array")) }
            items = list
            if case let .string(text)? = root["unit"] { unitText = text }
        default:
            throw fail(.malformed("expected an array or {\"prices\": [...]}"))
        }
        guard let unit = PriceUnit(unitText) else { throw fail(.malformed("unit must be EUR/kWh or EUR/MWh, not \(unitText)")) }
        var points: [PricePoint] = []
        points.reserveCapacity(items.count)
        for (index, item) in items.enumerated() {
            guard case let .object(fields) = item else { throw fail(.malformed("prices[\(index)] is not an object")) }
            guard let start = fields["start"].flatMap(instant) else { throw fail(.malformed("prices[\(index)].start is not a time")) }
            var end: Date?
            if let value = fields["end"], value != .null {
                guard let parsed = instant(value) else { throw fail(.malformed("prices[\(index)].end is not a time")) }
                end = parsed
            }
            let price: Double
            switch fields["price"] {
            case let .number(value)?: price = value
            case let .string(text)?:
                guard let value = Bounded.decimal(text) else { throw fail(.malformed("prices[\(index)].price is not a number")) }
                price = value
            default: throw fail(.malformed("prices[\(index)].price is missing"))
            }
            points.append(PricePoint(start: start, end: end, price: unit.perKWh(price)))
        }
        return try points.slots(source: "custom")
    }

    /// An ISO 8601 string, or epoch seconds (milliseconds above 10^11).
    private static func instant(_ value: JSONValue) -> Date? {
        switch value {
        case let .string(text): ISO8601.parse(text)
        case let .number(n) where n.isFinite: Date(timeIntervalSince1970: abs(n) >= 1e11 ? n / 1000 : n)
        default: nil
        }
    }
}
