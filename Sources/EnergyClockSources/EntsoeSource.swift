import EnergyClockDomain
import FoundationEssentials

/// ENTSO-E Transparency Platform day-ahead prices (document type A44), for every European zone.
public struct EntsoeSource: PriceSource {
    /// The name it is chosen by in the `source` setting.
    public let id = "entsoe"
    /// Requests span the day and the next.
    public var answersIncludeNextDay: Bool { true }
    /// Where the API lives, e.g. `https://web-api.tp.entsoe.eu`.
    public var baseURL: URL
    /// The security token; never logged, published or put in an error.
    public var token: String?
    /// The HTTP client with its limits.
    public var http: HTTPClient

    /// The public API's address.
    public static let defaultBaseURL = URL(string: "https://web-api.tp.entsoe.eu")!

    /// A source at `baseURL` using `token`.
    public init(baseURL: URL = Self.defaultBaseURL, token: String?, http: HTTPClient = HTTPClient()) {
        self.baseURL = baseURL
        self.token = token
        self.http = http
    }

    /// Every zone with an EIC code.
    public var zones: Set<String>? { Set(BiddingZone.all.map(\.code)) }

    /// Unusable without a token.
    public func unusableReason(for settings: Settings) -> String? {
        (token ?? "").isEmpty ? "needs a security token: start energyclock with ENERGYCLOCK_ENTSOE_TOKEN or --entsoe-token-file" : nil
    }

    /// One cache per zone.
    public func cacheKey(for settings: Settings) -> String { "\(id)/\(settings.zone)" }

    /// The request for `day` and the day after, in UTC as the API wants.
    func url(for day: LocalDay, zone: BiddingZone, calendar: LocalCalendar) -> URL {
        func stamp(_ date: Date) -> String {
            let text = ISO8601.utc(date)  // YYYY-MM-DDTHH:MM:SSZ
            return text.prefix(16).filter(\.isNumber)
        }
        var components = URLComponents(url: baseURL.appendingPathComponent("api"), resolvingAgainstBaseURL: false)!
        components.percentEncodedQuery = QueryString.encoded([
            ("securityToken", token ?? ""), ("documentType", "A44"), ("in_Domain", zone.eic), ("out_Domain", zone.eic),
            ("periodStart", stamp(calendar.start(of: day))), ("periodEnd", stamp(calendar.start(of: day.adding(days: 2)))),
        ])
        return components.url!
    }

    /// Fetches `day` and, when published, the day after.
    public func fetch(day: LocalDay, calendar: LocalCalendar, settings: Settings) async throws(SourceError) -> [SeriesSlot] {
        do {
            return try await fetchAnswer(day: day, calendar: calendar, settings: settings)
        } catch {
            // An acknowledgement's text comes from the server, which may quote the request.
            throw error.redacting(token)
        }
    }

    private func fetchAnswer(day: LocalDay, calendar: LocalCalendar, settings: Settings) async throws(SourceError) -> [SeriesSlot] {
        guard let zone = BiddingZone.named(settings.zone) else {
            throw SourceError(source: id, problem: .malformed("unknown zone \(settings.zone)"))
        }
        if let reason = unusableReason(for: settings) { throw SourceError(source: id, problem: .transport(reason)) }
        let response = try await http.get(url(for: day, zone: zone, calendar: calendar), for: id)
        switch response.status {
        case 200, 400, 404:
            // "No data yet" comes as an Acknowledgement document, with 200 or 400 depending on the day.
            break
        case 401, 403:
            throw SourceError(
                source: id, problem: .credentialsRefused(status: response.status, reason: "the security token was refused"))
        default:
            throw SourceError(source: id, problem: .httpStatus(response.status, detail: ""))
        }
        return try Self.parse(response.body(ifTypeIs: { $0.contains("xml") }, source: id), httpStatus: response.status)
    }

    /// Reads a `Publication_MarketDocument` into validated slots, or an acknowledgement into none.
    public static func parse(_ body: [UInt8], httpStatus: Int = 200) throws(SourceError) -> [SeriesSlot] {
        func fail(_ problem: SourceError.Problem) -> SourceError { SourceError(source: "entsoe", problem: problem) }
        guard !body.isEmpty else { throw fail(.emptyBody) }
        let document: EntsoeDocument
        do {
            document = try EntsoeDocument.read(Data(body))
        } catch {
            throw fail(.malformed(error.reason))
        }
        if let acknowledgement = document.acknowledgement {
            // Reason 999: no matching data (yet). Anything else is a refusal worth reporting.
            if acknowledgement.code == "999" { return [] }
            // Cut with a mark, so that a token the server quoted and the cut split is still found.
            throw fail(
                .httpStatus(httpStatus, detail: "acknowledgement \(acknowledgement.code): \(Quote.clip(acknowledgement.text, limit: 200))"))
        }
        guard httpStatus == 200 else { throw fail(.httpStatus(httpStatus, detail: "")) }
        var slots: [SeriesSlot] = []
        for series in document.series where series.classificationPosition == nil || series.classificationPosition == 1 {
            guard series.currency == "EUR", series.measureUnit == "MWH" else {
                throw fail(.malformed("prices in \(series.currency)/\(series.measureUnit), expected EUR/MWH"))
            }
            for period in series.periods {
                slots += try period.slots(filling: series.curveType == "A03")
            }
        }
        slots.sort { $0.start < $1.start }
        return try slots.validated(from: "entsoe")
    }
}

extension EntsoeDocument.Period {
    /// The most slots one period may hold: a week of quarter-hours.
    static let maxSlots = 7 * 96

    /// The period's slots; with curve type A03 an omitted position repeats the price before it.
    ///
    /// The slot count is the period's length over its resolution; positions beyond it are ignored,
    /// and positions before the first price are left empty rather than guessed.
    func slots(filling: Bool) throws(SourceError) -> [SeriesSlot] {
        func fail(_ reason: String) -> SourceError { SourceError(source: "entsoe", problem: .malformed(reason)) }
        guard let start = ISO8601.parse(start), let end = ISO8601.parse(end), end > start else {
            throw fail("a Period has an unreadable timeInterval")
        }
        guard let step = ISODuration.seconds(resolution), step > 0 else { throw fail("unknown resolution \(resolution)") }
        let span = end.timeIntervalSince(start)
        // A day-ahead period holds a day or two of slots; far more is a broken or hostile answer.
        guard span / step <= Double(Self.maxSlots) else {
            throw fail("a Period of \(Int(min(span, 1e15))) s in \(resolution) steps is longer than any day-ahead answer")
        }
        let count = Int((span / step).rounded(.down))
        guard count >= 1, Double(count) * step == span else {
            throw fail("a Period of \(Int(span)) s is not a whole number of \(resolution) steps")
        }
        var prices = [Double?](repeating: nil, count: count)
        for point in points where (1...count).contains(point.position) {
            prices[point.position - 1] = point.amount / 1000  // EUR/MWh → EUR/kWh
        }
        var slots: [SeriesSlot] = []
        slots.reserveCapacity(count)
        var last: Double?
        for (index, price) in prices.enumerated() {
            if let price { last = price } else if !filling { last = nil }
            guard let value = last else { continue }
            let from = start.addingTimeInterval(Double(index) * step)
            slots.append(SeriesSlot(start: from, end: from.addingTimeInterval(step), value: value))
        }
        return slots
    }
}

/// ISO 8601 durations of the form `P[nD][T[nH][nM][nS]]`, as ENTSO-E writes resolutions.
enum ISODuration {
    /// Seconds in `text`, or nil when it is not such a duration.
    static func seconds(_ text: String) -> Double? {
        var total = 0.0
        var number = ""
        var inTime = false
        var chars = text.uppercased().makeIterator()
        guard chars.next() == "P" else { return nil }
        var sawUnit = false
        while let c = chars.next() {
            switch c {
            case "T": inTime = true
            case "0"..."9", ".": number.append(c)
            case "D", "H", "M", "S":
                guard let value = Double(number) else { return nil }
                number = ""
                sawUnit = true
                switch (c, inTime) {
                case ("D", false): total += value * 86_400
                case ("H", true): total += value * 3600
                case ("M", true): total += value * 60
                case ("S", true): total += value
                default: return nil
                }
            default: return nil
            }
        }
        return sawUnit && number.isEmpty ? total : nil
    }
}
