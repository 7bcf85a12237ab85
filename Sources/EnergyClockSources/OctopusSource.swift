import EnergyClockDomain
import EnergyClockSupport
import FoundationEssentials

/// Octopus Energy's public unit rates of one product in one Great Britain region
/// (`standard-unit-rates`): Agile's half-hourly prices for buying, Agile Outgoing's for selling.
///
/// Prices are the supplier's tariff, its margin included, in pence per kWh; they are kept as the
/// price without VAT in GBP, so that `vat_percent` (5 in Great Britain) adds the VAT and no markup
/// is added (``PriceBasis/tariff``). Answers are newest first and paged with `next`.
public struct OctopusSource: PriceSource {
    /// The name it is chosen by in the `source` setting.
    public let id = "octopus"
    /// Great Britain only.
    public var zones: Set<String>? { Self.zones }
    /// Where the API lives, e.g. `https://api.octopus.energy`.
    public var baseURL: URL
    /// The HTTP client with its limits.
    public var http: HTTPClient

    /// The public API's address.
    public static let defaultBaseURL = URL(string: "https://api.octopus.energy")!
    /// The zone it serves: Great Britain, a market of its own outside the European coupling.
    public static let zones: Set<String> = ["GB"]
    /// Pages followed at most: a day is 50 slots and one page holds up to 1,500, so more means a
    /// broken answer.
    static let pageLimit = 8
    /// Agile's next day appears at about 16:00 UK time.
    static let london = LocalCalendar(identifier: "Europe/London")

    /// A source at `baseURL`.
    public init(baseURL: URL = Self.defaultBaseURL, http: HTTPClient = HTTPClient()) {
        self.baseURL = baseURL
        self.http = http
    }

    /// Pounds.
    public func quotedCurrency(for settings: Settings) -> String? { "GBP" }

    /// Tomorrow is published around 16:00 in London.
    public var nextDayPublication: Publication? { Self.london.map { Publication(hour: 16, calendar: $0) } }

    /// Usable in Great Britain once the region is set.
    public func unusableReason(for settings: Settings) -> String? {
        guard Self.zones.contains(settings.zone) else { return "serves zone GB only, not \(settings.zone)" }
        return settings.octopusRegion.isEmpty ? "needs octopus_region: the letter of your region, A to P (C is London)" : nil
    }

    /// One cache per product and region, e.g. `octopus/AGILE-24-10-01/C`.
    public func cacheKey(for settings: Settings) -> String { "\(id)/\(settings.octopusProduct)/\(settings.octopusRegion)" }

    /// The first page of the rates that apply in `interval`.
    func url(product: String, region: String, interval: DateInterval) -> URL {
        let tariff = "E-1R-\(product)-\(region)"
        let path = "v1/products/\(product)/electricity-tariffs/\(tariff)/standard-unit-rates/"
        var components = URLComponents(url: baseURL.appendingPathComponent(path), resolvingAgainstBaseURL: false)!
        components.percentEncodedQuery = QueryString.encoded([
            ("period_from", ISO8601.utc(interval.start)), ("period_to", ISO8601.utc(interval.end)), ("page_size", "1500"),
        ])
        return components.url!
    }

    /// Fetches every page of `day`'s rates; an answer without results means not published yet.
    public func fetch(day: LocalDay, calendar: LocalCalendar, settings: Settings) async throws(SourceError) -> [SeriesSlot] {
        if let reason = unusableReason(for: settings) { throw SourceError(source: id, problem: .malformed(reason)) }
        var next: URL? = url(product: settings.octopusProduct, region: settings.octopusRegion, interval: calendar.interval(of: day))
        var seen: Set<String> = []
        var newestFirst: [PricePoint] = []
        while let page = next {
            guard seen.insert(page.absoluteString).inserted else {
                throw SourceError(source: id, problem: .malformed("next leads back to a page already read"))
            }
            guard seen.count <= Self.pageLimit else {
                throw SourceError(source: id, problem: .malformed("more than \(Self.pageLimit) pages for one day"))
            }
            let response = try await http.get(page, for: id)
            switch response.status {
            case 200: break
            case 404 where seen.count == 1: return []  // A product or region without rates (yet); a later page must exist.
            default: throw SourceError(source: id, problem: .httpStatus(response.status, detail: Self.errorMessage(response.body)))
            }
            let parsed = try Self.parsePage(response.jsonBody(source: id))
            newestFirst += parsed.points
            next = try parsed.next.map { text throws(SourceError) in try follow(text) }
        }
        return try Self.slots(newestFirst: newestFirst)
    }

    /// The `next` link, if it stays on the API's own host: a link elsewhere is not followed.
    func follow(_ text: String) throws(SourceError) -> URL {
        guard let link = URL(string: text), link.scheme == baseURL.scheme, link.host == baseURL.host, link.port == baseURL.port
        else { throw SourceError(source: id, problem: .malformed("next points away from \(baseURL.host ?? "the API")")) }
        return link
    }

    /// The `detail` of an error body such as `{"detail":"Not found."}`, shortened.
    static func errorMessage(_ body: [UInt8]) -> String {
        guard case let .object(members)? = JSONValue.parse(body), case let .string(detail)? = members["detail"] else { return "" }
        return Quote.clip(detail, limit: 200)
    }

    /// Reads one page: its results, newest first as sent, and its `next` link.
    ///
    /// A result with `payment_method` `NON_DIRECT_DEBIT` is left out where a product prices the two
    /// ways of paying apart; Agile's results have none (no key, or `null`).
    static func parsePage(_ body: [UInt8]) throws(SourceError) -> (points: [PricePoint], next: String?) {
        func fail(_ reason: String) -> SourceError { SourceError(source: "octopus", problem: .malformed(reason)) }
        guard !body.isEmpty else { throw SourceError(source: "octopus", problem: .emptyBody) }
        guard case let .object(root)? = JSONValue.parse(body) else { throw fail("not a JSON object") }
        guard case let .array(results)? = root["results"] else { throw fail("no results array") }
        let next: String?
        switch root["next"] {
        case nil, .null?: next = nil
        case let .string(link)?: next = link
        case let other?: throw fail("next is \(other.typeName)")
        }
        var points: [PricePoint] = []
        points.reserveCapacity(results.count)
        for (index, result) in results.enumerated() {
            guard case let .object(item) = result else { throw fail("results[\(index)] is not an object") }
            if case .string("NON_DIRECT_DEBIT")? = item["payment_method"] { continue }
            guard case let .number(pence)? = item["value_exc_vat"] else {
                throw fail("results[\(index)].value_exc_vat is \(item["value_exc_vat"]?.typeName ?? "missing"), not a number")
            }
            guard case let .string(fromText)? = item["valid_from"], let start = ISO8601.parse(fromText) else {
                throw fail("results[\(index)].valid_from is not an ISO 8601 time")
            }
            var end: Date?
            switch item["valid_to"] {
            case nil, .null?: end = nil
            case let .string(toText)?:
                guard let to = ISO8601.parse(toText) else { throw fail("results[\(index)].valid_to is not an ISO 8601 time") }
                end = to
            case let other?: throw fail("results[\(index)].valid_to is \(other.typeName)")
            }
            points.append(PricePoint(start: start, end: end, price: pence / 100))
        }
        return (points, next)
    }

    /// Validated slots in GBP/kWh from results newest first, as the API sends them.
    static func slots(newestFirst: [PricePoint]) throws(SourceError) -> [SeriesSlot] {
        try Array(newestFirst.reversed()).slots(source: "octopus", currency: Currency("GBP")!, basis: .tariff)
    }

    /// The slots of one page, oldest first; its `next` link is not followed.
    public static func parse(_ body: [UInt8]) throws(SourceError) -> [SeriesSlot] {
        try slots(newestFirst: parsePage(body).points)
    }
}
