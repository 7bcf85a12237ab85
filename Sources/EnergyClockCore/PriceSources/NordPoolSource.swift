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
    /// The currencies Nord Pool answers in; prices in any other are converted from EUR.
    public static let currencies: Set<String> = ["EUR", "SEK", "NOK", "DKK", "PLN"]

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
        components.queryItems = [
            URLQueryItem(name: "date", value: day.description),
            URLQueryItem(name: "market", value: "DayAhead"),
            URLQueryItem(name: "deliveryArea", value: Self.area(for: zone)),
            URLQueryItem(name: "currency", value: Self.currencies.contains(currency) ? currency : "EUR"),
        ]
        return components.url!
    }

    /// Fetches the CET delivery days that overlap local `day`; 204 No Content (or an answer without entries) means not published yet.
    public func fetch(day: LocalDay, calendar: LocalCalendar, settings: Settings) async throws(SourceError) -> [PriceSlot] {
        let cet = LocalCalendar(identifier: "CET") ?? calendar
        let span = calendar.interval(of: day)
        let first = cet.day(containing: span.start)
        let last = cet.day(containing: span.end.addingTimeInterval(-1))
        var slots: [PriceSlot] = []
        var deliveryDay = first
        while deliveryDay <= last {
            let response = try await http.get(url(for: deliveryDay, zone: settings.zone, currency: settings.currency), for: id)
            switch response.status {
            case 200: slots += try Self.parse(response.jsonBody(source: id), area: Self.area(for: settings.zone))
            case 204: break
            default: throw SourceError(source: id, problem: .httpStatus(response.status, detail: ""))
            }
            deliveryDay = deliveryDay.adding(days: 1)
        }
        return slots
    }

    /// Reads `multiAreaEntries` for `area` into EUR/kWh slots.
    ///
    /// Prices come per MWh in the answer's `currency`; one not in EUR is converted back with the
    /// answer's own `exchangeRate`, so every source's cache holds EUR.
    public static func parse(_ body: [UInt8], area: String) throws(SourceError) -> [PriceSlot] {
        func fail(_ reason: String) -> SourceError { SourceError(source: "nordpool", problem: .malformed(reason)) }
        guard !body.isEmpty else { throw SourceError(source: "nordpool", problem: .emptyBody) }
        guard case let .object(root)? = JSONValue.parse(body) else { throw fail("not a JSON object") }
        guard case let .array(entries)? = root["multiAreaEntries"] else {
            if root["multiAreaEntries"] == nil || root["multiAreaEntries"] == .null { return [] }
            throw fail("multiAreaEntries is not an array")
        }
        var perEuro = 1.0
        switch root["currency"] {
        case .string("EUR")?, nil: break
        case let .string(currency)?:
            guard case let .number(rate)? = root["exchangeRate"], rate.isFinite, rate > 0 else {
                throw fail("prices in \(Quote.clip(currency, limit: 10)) without a usable exchangeRate")
            }
            if let reason = ExchangeRates.implausibility(of: rate, currency: Quote.clip(currency, limit: 10)) {
                throw fail("exchangeRate: \(reason)")
            }
            perEuro = rate
        case let other?:
            throw fail("currency is \(other.typeName)")
        }
        if case let .array(areas)? = root["deliveryAreas"], !areas.contains(.string(area)) {
            throw fail("the answer is for \(areas.map(\.text).joined(separator: ", ")), not \(area)")
        }
        var points: [PricePoint] = []
        for (index, entry) in entries.enumerated() {
            guard case let .object(item) = entry, case let .string(startText)? = item["deliveryStart"],
                case let .string(endText)? = item["deliveryEnd"], case let .object(prices)? = item["entryPerArea"]
            else { throw fail("multiAreaEntries[\(index)] lacks deliveryStart, deliveryEnd or entryPerArea") }
            guard let start = ISO8601.parse(startText), let end = ISO8601.parse(endText) else {
                throw fail("multiAreaEntries[\(index)] has a time that is not ISO 8601")
            }
            switch prices[area] {
            case let .number(price)?:
                points.append(PricePoint(start: start, end: end, price: price / perEuro / 1000))
            case .null?:
                continue  // No price for this slot; leave it out.
            case nil:
                throw fail("multiAreaEntries[\(index)] has no price for \(area)")
            case let other?:
                throw fail("multiAreaEntries[\(index)] has \(other.typeName) for \(area)")
            }
        }
        return try points.slots(source: "nordpool")
    }
}
