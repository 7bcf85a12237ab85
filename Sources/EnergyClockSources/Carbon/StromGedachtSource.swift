import EnergyClockDomain
import FoundationEssentials

/// TransnetBW's StromGedacht: the state of the grid in Baden-Württemberg by postcode, announced
/// up to two days ahead in periods of whole hours: supergreen (use power now), green (normal),
/// orange and red (reduce), read onto ``GridScale/stromGedacht``.
///
/// One request asks `/v1/states` for three days from the start asked for. Each period is one slot
/// (a day at most), trimmed to the whole quarter hours it covers inside those days: a period's
/// ragged edge (the API starts and ends its answer at the moment asked) is left out. Every state is
/// the operator's announcement, stamped as a forecast issued at the fetch.
public struct StromGedachtSource: CarbonSource {
    /// The name it is chosen by.
    public let id = "stromgedacht"
    /// Where the API lives.
    public var baseURL: URL
    /// The HTTP client with its limits.
    public var http: HTTPClient

    /// The public API's address.
    public static let defaultBaseURL = URL(string: "https://api.stromgedacht.de")!

    /// A source at `baseURL`.
    public init(baseURL: URL = Self.defaultBaseURL, http: HTTPClient = HTTPClient()) {
        self.baseURL = baseURL
        self.http = http
    }

    /// StromGedacht's light.
    public var scale: GridScale? { .stromGedacht }

    /// A postcode.
    public var areas: String { "a postcode in Baden-Württemberg, such as 70173" }

    /// Why `area` cannot be asked for, or nil: a postcode is five digits.
    public func areaProblem(_ area: String) -> String? {
        if Self.isPostcode(area) { return nil }
        return area.isEmpty ? "no postcode is set" : "\(Quote.clip(area)) is not a five-digit postcode"
    }

    /// Whether `text` is a German postcode: five digits.
    static func isPostcode(_ text: String) -> Bool {
        text.utf8.count == 5 && text.utf8.allSatisfy { $0 >= 48 && $0 <= 57 }
    }

    /// The request for `area` from `start` for ``CarbonSource/span``.
    func url(area: String, from start: Date) -> URL {
        var components = URLComponents(url: baseURL.appendingPathComponent("v1/states"), resolvingAgainstBaseURL: false)!
        components.percentEncodedQuery = QueryString.encoded([
            ("zip", area), ("from", ISO8601.utc(start)), ("to", ISO8601.utc(start.addingTimeInterval(Self.span))),
        ])
        return components.url!
    }

    /// Fetches the states for `area` over ``CarbonSource/span`` from `start`.
    public func fetch(area: String, from start: Date, now: Date) async throws(SourceError) -> [SeriesSlot] {
        if let problem = areaProblem(area) { throw SourceError(source: id, problem: .malformed(problem)) }
        let response = try await http.get(url(area: area, from: start), for: id)
        guard response.status == 200 else { throw SourceError(source: id, problem: .httpStatus(response.status, detail: "")) }
        let window = DateInterval(start: start, duration: Self.span)
        return try Self.parse(response.jsonBody(source: id), within: window, issued: now)
    }

    /// The most periods one answer may hold: three days of whole hours, with room to spare.
    static let maxPeriods = 1_000

    /// Reads `states[]`, each `from`, `to` and `state`, as a slot per period (a day at most),
    /// trimmed to the whole quarter hours it covers inside `window`.
    public static func parse(_ body: [UInt8], within window: DateInterval, issued: Date) throws(SourceError) -> [SeriesSlot] {
        let answer = SourceAnswer(source: "stromgedacht")
        guard case let .object(root) = try answer.json(body) else { throw answer.fail("not a JSON object") }
        guard case let .array(periods)? = root["states"] else { throw answer.fail("no states") }
        guard periods.count <= maxPeriods else { throw answer.fail("\(periods.count) states, more than \(maxPeriods)") }
        let quarter = 900.0
        var slots: [SeriesSlot] = []
        slots.reserveCapacity(periods.count)
        for (index, period) in periods.enumerated() {
            let name = "states[\(index)]"
            guard case let .object(fields) = period else { throw answer.fail("\(name) is not an object") }
            let from = try answer.instant(fields["from"], "\(name).from")
            let to = try answer.instant(fields["to"], "\(name).to")
            guard to > from else { throw answer.fail("\(name) ends at or before it starts") }
            let step = try answer.step(fields["state"], "\(name).state", on: .stromGedacht)
            // Whole quarter hours inside both the period and the window asked for, a day at most
            // per slot: the window's three days bound what one period can give.
            var start = (max(from, window.start).timeIntervalSince1970 / quarter).rounded(.up) * quarter
            let last = (min(to, window.end).timeIntervalSince1970 / quarter).rounded(.down) * quarter
            while start < last {
                let end = min(last, start + 86_400)
                slots.append(
                    answer.slot(
                        from: Date(timeIntervalSince1970: start), to: Date(timeIntervalSince1970: end), step: step, on: .stromGedacht,
                        issued: issued))
                start = end
            }
        }
        return try slots.validated(from: answer.source)
    }
}
