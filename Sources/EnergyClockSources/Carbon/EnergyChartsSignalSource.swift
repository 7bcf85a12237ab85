import EnergyClockDomain
import FoundationEssentials

/// Energy-Charts' "Stromampel" (Fraunhofer ISE): a traffic light for Germany, or for a postcode's
/// region, per quarter hour for today and, once known, tomorrow: green, yellow and red by the
/// forecast share of renewables in the load, and a congestion state; read onto
/// ``GridScale/energyCharts``.
///
/// `/signal` takes no time span: it answers for the days it knows. The answer's renewable `share`
/// is not read. Every state is stamped as a forecast issued at the fetch.
public struct EnergyChartsSignalSource: CarbonSource {
    /// The name it is chosen by.
    public let id = "energy-charts-signal"
    /// Where the API lives.
    public var baseURL: URL
    /// The HTTP client with its limits.
    public var http: HTTPClient

    /// The public API's address: the one the `energycharts` price source asks.
    public static var defaultBaseURL: URL { EnergyChartsSource.defaultBaseURL }

    /// A source at `baseURL`.
    public init(baseURL: URL = Self.defaultBaseURL, http: HTTPClient = HTTPClient()) {
        self.baseURL = baseURL
        self.http = http
    }

    /// The Stromampel.
    public var scale: GridScale? { .energyCharts }

    /// Germany, or a postcode.
    public var areas: String { "DE for Germany, or a German postcode such as 79110" }

    /// Why `area` cannot be asked for, or nil.
    public func areaProblem(_ area: String) -> String? {
        if area == "DE" || StromGedachtSource.isPostcode(area) { return nil }
        return area.isEmpty ? "no area is set" : "\(Quote.clip(area)) is neither DE nor a five-digit postcode"
    }

    /// The request for `area`: `signal?country=de`, with the postcode when one is set.
    func url(area: String) -> URL {
        var components = URLComponents(url: baseURL.appendingPathComponent("signal"), resolvingAgainstBaseURL: false)!
        components.percentEncodedQuery = QueryString.encoded([("country", "de")] + (area == "DE" ? [] : [("postal_code", area)]))
        return components.url!
    }

    /// Fetches the light for `area`; `start` is not asked for, the API answers for the days it knows.
    public func fetch(area: String, from start: Date, now: Date) async throws(SourceError) -> [SeriesSlot] {
        if let problem = areaProblem(area) { throw SourceError(source: id, problem: .malformed(problem)) }
        let response = try await http.get(url(area: area), for: id)
        guard response.status == 200 else { throw SourceError(source: id, problem: .httpStatus(response.status, detail: "")) }
        return try Self.parse(response.jsonBody(source: id), issued: now)
    }

    /// The most rows one answer may hold: a week of quarter hours.
    static let maxRows = 672

    /// Reads `unix_seconds[]` and `signal[]`, one row each, a quarter hour or an hour apart; a row
    /// whose signal is null is left out.
    public static func parse(_ body: [UInt8], issued: Date) throws(SourceError) -> [SeriesSlot] {
        let answer = SourceAnswer(source: "energy-charts-signal")
        guard case let .object(root) = try answer.json(body) else { throw answer.fail("not a JSON object") }
        guard case let .array(times)? = root["unix_seconds"] else { throw answer.fail("no unix_seconds") }
        guard case let .array(signals)? = root["signal"] else { throw answer.fail("no signal") }
        guard signals.count == times.count else {
            throw answer.fail("\(signals.count) signals for \(times.count) unix_seconds")
        }
        guard times.count <= maxRows else { throw answer.fail("\(times.count) rows, more than \(maxRows)") }
        var starts: [Date] = []
        starts.reserveCapacity(times.count)
        for (index, time) in times.enumerated() {
            guard case let .number(seconds) = time, seconds == seconds.rounded(), let start = Bounded.instant(secondsSince1970: seconds)
            else { throw answer.fail("unix_seconds[\(index)] \(time.text) is not a whole second from 2000 to 2100") }
            starts.append(start)
        }
        // The rows' length: the first gap, a quarter hour or an hour; a lone row a quarter hour.
        let length = starts.count > 1 ? starts[1].timeIntervalSince(starts[0]) : 900
        guard length == 900 || length == 3600 else {
            throw answer.fail("unix_seconds[1] is \(DecimalFormat.string(length)) s after unix_seconds[0], not 900 or 3600")
        }
        var slots: [SeriesSlot] = []
        slots.reserveCapacity(times.count)
        for (index, start) in starts.enumerated() {
            if index > 0, start.timeIntervalSince(starts[index - 1]) != length {
                throw answer.fail("unix_seconds[\(index)] is not \(DecimalFormat.string(length)) s after the one before")
            }
            if signals[index] == .null { continue }
            let step = try answer.step(signals[index], "signal[\(index)]", on: .energyCharts)
            slots.append(answer.slot(from: start, to: start.addingTimeInterval(length), step: step, on: .energyCharts, issued: issued))
        }
        return try slots.validated(from: answer.source)
    }
}
