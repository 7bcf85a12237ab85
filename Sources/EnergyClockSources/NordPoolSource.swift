import EnergyClockDomain
import EnergyClockSupport
import FoundationEssentials

/// Nord Pool's day-ahead prices from its public data portal (`api/DayAheadPrices`).
///
/// Nord Pool's delivery day is a day in CET/CEST. A local day elsewhere (Finland and the Baltics
/// are an hour ahead) spans two of them, so both are asked for.
public struct NordPoolSource: PriceSource {
    /// The name it is chosen by in the `source` setting.
    public let id = "nordpool"
    /// Where the API lives, e.g. `https://dataportal-api.nordpoolgroup.com/api`.
    public var baseURL: URL
    /// The HTTP client with its limits.
    public var http: HTTPClient

    /// The public API's address.
    public static let defaultBaseURL = URL(string: "https://dataportal-api.nordpoolgroup.com/api")!
    /// Our zone codes and Nord Pool's delivery areas where they differ.
    static let areaNames = ["DE-LU": "GER"]
    /// The currencies Nord Pool answers in; a profile in any other is served EUR prices, converted.
    public static let currencies: Set<String> = ["EUR", "SEK", "NOK", "DKK", "PLN"]

    /// The currency asked for under `settings`: the profile's own where Nord Pool quotes it.
    static func quoted(for settings: Settings) -> String { currencies.contains(settings.currency) ? settings.currency : "EUR" }

    /// The profile's currency where Nord Pool quotes it, else EUR.
    public func quotedCurrency(for settings: Settings) -> String? { Self.quoted(for: settings) }

    /// One cache per zone and quoted currency (`nordpool/SE3`, `nordpool/SE3/SEK`): Nord Pool's SEK
    /// figure is its own, worked out with its rate of the day, and kept as it is.
    public func cacheKey(for settings: Settings) -> String {
        let currency = Self.quoted(for: settings)
        return currency == "EUR" ? "\(id)/\(settings.zone)" : "\(id)/\(settings.zone)/\(currency)"
    }

    /// The zones Nord Pool publishes.
    public var zones: Set<String>? {
        [
            "NO1", "NO2", "NO3", "NO4", "NO5", "SE1", "SE2", "SE3", "SE4", "DK1", "DK2", "FI", "EE", "LV", "LT", "NL", "BE", "FR",
            "AT", "PL", "DE-LU",
        ]
    }

    /// A source at `baseURL`.
    public init(baseURL: URL = Self.defaultBaseURL, http: HTTPClient = HTTPClient()) {
        self.baseURL = baseURL
        self.http = http
    }

    /// Nord Pool's name for `zone`.
    static func area(for zone: String) -> String { areaNames[zone] ?? zone }

    /// The request for Nord Pool's delivery day `day` (in CET) in `currency`.
    func url(for day: LocalDay, zone: String, currency: String) -> URL {
        var components = URLComponents(url: baseURL.appendingPathComponent("DayAheadPrices"), resolvingAgainstBaseURL: false)!
        components.percentEncodedQuery = QueryString.encoded([
            ("date", day.description), ("market", "DayAhead"), ("deliveryArea", Self.area(for: zone)), ("currency", currency),
        ])
        return components.url!
    }

    /// Fetches the CET delivery days that overlap local `day`; 204 No Content (or an answer without entries) means not published yet.
    public func fetch(day: LocalDay, calendar: LocalCalendar, settings: Settings) async throws(SourceError) -> [SeriesSlot] {
        let cet = LocalCalendar(identifier: "CET") ?? calendar
        let span = calendar.interval(of: day)
        let first = cet.day(containing: span.start)
        let last = cet.day(containing: span.end.addingTimeInterval(-1))
        var slots: [SeriesSlot] = []
        var deliveryDay = first
        while deliveryDay <= last {
            let response = try await http.get(url(for: deliveryDay, zone: settings.zone, currency: Self.quoted(for: settings)), for: id)
            switch response.status {
            case 200: slots += try Self.parse(response.jsonBody(source: id), area: Self.area(for: settings.zone))
            case 204: break
            default: throw SourceError(source: id, problem: .httpStatus(response.status, detail: ""))
            }
            deliveryDay = deliveryDay.adding(days: 1)
        }
        return slots
    }

    /// Reads `multiAreaEntries` for `area` into slots per kWh in the answer's `currency`.
    ///
    /// Prices come per MWh in the answer's currency and are kept in it: Nord Pool's SEK price is
    /// published as it is, not converted to EUR and back at another rate.
    public static func parse(_ body: [UInt8], area: String) throws(SourceError) -> [SeriesSlot] {
        func fail(_ reason: String) -> SourceError { SourceError(source: "nordpool", problem: .malformed(reason)) }
        guard !body.isEmpty else { throw SourceError(source: "nordpool", problem: .emptyBody) }
        guard case let .object(root)? = JSONValue.parse(body) else { throw fail("not a JSON object") }
        guard case let .array(entries)? = root["multiAreaEntries"] else {
            if root["multiAreaEntries"] == nil || root["multiAreaEntries"] == .null { return [] }
            throw fail("multiAreaEntries is not an array")
        }
        let currency: Currency
        switch root["currency"] {
        case nil: currency = .eur
        case let .string(code)?:
            guard let known = Currency(code) else {
                throw fail("prices in \(Quote.json(code, limit: 10)), a currency energyclock does not know")
            }
            currency = known
        case let other?:
            throw fail("currency is \(other.typeName)")
        }
        if case let .array(areas)? = root["deliveryAreas"], !areas.contains(.string(area)) {
            throw fail("the answer is for \(areas.map(\.text).joined(separator: ", ")), not \(area)")
        }
        var points: [PricePoint] = []
        var previousEnd: Date?
        for (index, entry) in entries.enumerated() {
            guard case let .object(item) = entry, case let .string(startText)? = item["deliveryStart"],
                case let .string(endText)? = item["deliveryEnd"], case let .object(prices)? = item["entryPerArea"]
            else { throw fail("multiAreaEntries[\(index)] lacks deliveryStart, deliveryEnd or entryPerArea") }
            guard let start = ISO8601.parse(startText), let end = ISO8601.parse(endText) else {
                throw fail("multiAreaEntries[\(index)] has a time that is not ISO 8601")
            }
            // A delivery day's entries follow each other without a gap: an end that is not the next
            // start says the answer does not mean what it seems to, and it is refused, not mended.
            if let previousEnd, previousEnd != start {
                throw fail(
                    "multiAreaEntries[\(index - 1)] ends at \(ISO8601.utc(previousEnd)), but multiAreaEntries[\(index)] starts at \(ISO8601.utc(start))"
                )
            }
            previousEnd = end
            switch prices[area] {
            case let .number(price)?:
                points.append(PricePoint(start: start, end: end, price: price / 1000))
            case .null?:
                continue  // No price for this slot; leave it out.
            case nil:
                throw fail("multiAreaEntries[\(index)] has no price for \(area)")
            case let other?:
                throw fail("multiAreaEntries[\(index)] has \(other.typeName) for \(area)")
            }
        }
        return try points.slots(source: "nordpool", currency: currency)
    }
}
