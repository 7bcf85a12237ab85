import EnergyClockDomain
import FoundationEssentials

/// Energinet's prognosis of the carbon intensity of Denmark's electricity, from Energi Data
/// Service (dataset `CO2EmisProg`): gCO₂/kWh per five minutes, at least nine hours ahead, renewed
/// every quarter hour.
///
/// An area is `DK1` or `DK2`; the values are the same for both, the whole country's. Every value
/// is the prognosis, stamped as a forecast issued at the fetch. The times (`Minutes5UTC`) are UTC
/// written without a zone, as the API writes them.
public struct EnerginetCO2Source: CarbonSource {
    /// The name it is chosen by.
    public let id = "energinet-co2"
    /// Where the API lives.
    public var baseURL: URL
    /// The HTTP client with its limits.
    public var http: HTTPClient

    /// The public API's address.
    public static let defaultBaseURL = URL(string: "https://api.energidataservice.dk")!

    /// A source at `baseURL`.
    public init(baseURL: URL = Self.defaultBaseURL, http: HTTPClient = HTTPClient()) {
        self.baseURL = baseURL
        self.http = http
    }

    /// Denmark's two price areas.
    public var areas: String { "DK1 or DK2" }

    /// Why `area` cannot be asked for, or nil.
    public func areaProblem(_ area: String) -> String? {
        ["DK1", "DK2"].contains(area) ? nil : "\(Quote.clip(area)) is not DK1 or DK2"
    }

    /// The request for `area`: ``CarbonSource/span`` from `start`, oldest first, every row.
    func url(area: String, from start: Date) -> URL {
        // Minutes in UTC, as the API reads a time without a zone: `2026-12-05T10:30`.
        func minute(_ instant: Date) -> String { String(ISO8601.utc(instant).prefix(16)) }
        var components = URLComponents(url: baseURL.appendingPathComponent("dataset/CO2EmisProg"), resolvingAgainstBaseURL: false)!
        components.percentEncodedQuery = QueryString.encoded([
            ("start", minute(start)), ("end", minute(start.addingTimeInterval(Self.span))), ("filter", #"{"PriceArea":["\#(area)"]}"#),
            ("sort", "Minutes5UTC asc"), ("limit", "0"),
        ])
        return components.url!
    }

    /// Fetches the prognosis for `area`.
    public func fetch(area: String, from start: Date, now: Date) async throws(SourceError) -> [SeriesSlot] {
        if let problem = areaProblem(area) { throw SourceError(source: id, problem: .malformed(problem)) }
        let response = try await http.get(url(area: area, from: start), for: id)
        guard response.status == 200 else { throw SourceError(source: id, problem: .httpStatus(response.status, detail: "")) }
        return try Self.parse(response.jsonBody(source: id), area: area, issued: now)
    }

    /// Reads `records[]`, each `Minutes5UTC`, `PriceArea` and `CO2Emission`, as five-minute slots;
    /// a record of another area is refused, not shown as this one's.
    public static func parse(_ body: [UInt8], area: String, issued: Date) throws(SourceError) -> [SeriesSlot] {
        let answer = SourceAnswer(source: "energinet-co2")
        guard case let .object(root) = try answer.json(body) else { throw answer.fail("not a JSON object") }
        guard case let .array(records)? = root["records"] else { throw answer.fail("no records") }
        var slots: [SeriesSlot] = []
        slots.reserveCapacity(records.count)
        for (index, record) in records.enumerated() {
            let name = "records[\(index)]"
            guard case let .object(fields) = record else { throw answer.fail("\(name) is not an object") }
            guard case let .string(named)? = fields["PriceArea"], named == area else {
                throw answer.fail("\(name).PriceArea is not \(area)")
            }
            let start = try answer.instant(fields["Minutes5UTC"], "\(name).Minutes5UTC", utc: true)
            if fields["CO2Emission"] == .null { continue }
            let value = try answer.intensity(fields["CO2Emission"], "\(name).CO2Emission")
            slots.append(
                SeriesSlot(
                    start: start, end: start.addingTimeInterval(300), value: value, quantity: .carbonIntensity,
                    provenance: .forecast("energinet-co2", issued: issued)))
        }
        return try slots.validated(from: answer.source)
    }
}
