import EnergyClockDomain
import FoundationEssentials

/// nordpool-predict-fi: an open model's forecast of Finland's day-ahead prices, several days
/// ahead, published as one static file that is renewed every six hours.
///
/// The file is a list of `[epoch milliseconds, c/kWh with VAT]` pairs, hourly, from the start of
/// yesterday; every hour is the model's, published or not. Its prices include Finland's VAT, which
/// is taken out again at the rate of the hour (``vatRate(at:)``), so they enter the consumer
/// formula as a market price.
public struct NordPoolPredictProvider: ForecastProvider {
    /// The name it is chosen by in the `forecast_provider` setting.
    public let id = "nordpool-predict-fi"
    /// Finland only.
    public var zones: Set<String> { ["FI"] }
    /// Where the file lives.
    public var url: URL
    /// The HTTP client with its limits.
    public var http: HTTPClient

    /// The file as its project publishes it.
    public static let defaultURL = URL(
        string: "https://raw.githubusercontent.com/vividfog/nordpool-predict-fi/main/deploy/prediction.json")!

    /// A provider reading the file at `url`.
    public init(url: URL = Self.defaultURL, http: HTTPClient = HTTPClient()) {
        self.url = url
        self.http = http
    }

    /// Fetches the file.
    public func fetch(settings: Settings, now: Date) async throws(SourceError) -> [SeriesSlot] {
        let response = try await http.get(url, for: id)
        guard response.status == 200 else { throw SourceError(source: id, problem: .httpStatus(response.status, detail: "")) }
        // GitHub serves the raw file as text/plain.
        return try Self.parse(response.body(ifTypeIs: { $0.hasSuffix("json") || $0.hasPrefix("text/plain") }, source: id), issued: now)
    }

    /// Finland's VAT on electricity at `instant`: 24 %, 10 % from December 2022 to April 2023,
    /// 25.5 % from September 2024 (each change at midnight in Helsinki).
    public static func vatRate(at instant: Date) -> Double {
        for (from, rate) in vatChanges.reversed() where instant >= from { return rate }
        return 0.24
    }

    /// The changes of the rate, in order: the instant each took effect and the rate from then.
    static let vatChanges: [(Date, Double)] = [
        (Date(timeIntervalSince1970: 1_669_845_600), 0.10),  // 2022-12-01T00:00+02:00
        (Date(timeIntervalSince1970: 1_682_888_400), 0.24),  // 2023-05-01T00:00+03:00
        (Date(timeIntervalSince1970: 1_725_138_000), 0.255),  // 2024-09-01T00:00+03:00
    ]

    /// Reads the pairs; a `null` price leaves its hour out.
    public static func parse(_ body: [UInt8], issued: Date) throws(SourceError) -> [SeriesSlot] {
        let answer = SourceAnswer(source: "nordpool-predict-fi")
        guard case let .array(rows) = try answer.json(body) else { throw answer.fail("not a JSON array") }
        var points: [PricePoint] = []
        points.reserveCapacity(rows.count)
        for (index, row) in rows.enumerated() {
            guard case let .array(pair) = row, pair.count == 2 else { throw answer.fail("row \(index) is not a [time, price] pair") }
            guard case let .number(milliseconds) = pair[0], let start = Bounded.instant(secondsSince1970: milliseconds / 1000) else {
                throw answer.fail("row \(index) has no time in milliseconds since 1970")
            }
            if pair[1] == .null { continue }
            // c/kWh with VAT; the limit is that of a price, in cents.
            let cents = try answer.number(pair[1], "the price of row \(index)", limit: Array.priceLimit * 100)
            points.append(PricePoint(start: start, end: nil, price: cents / 100 / (1 + vatRate(at: start))))
        }
        return try points.forecast(by: answer.source, issued: issued)
    }
}
