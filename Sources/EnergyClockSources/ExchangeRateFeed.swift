import EnergyClockDomain
import FoundationEssentials

/// The ECB's daily euro reference rates file, fetched over HTTP from an address that is an option.
public struct ExchangeRateFeed: Sendable {
    /// The file itself, e.g. `https://www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml`.
    public var url: URL
    /// The HTTP client with its limits.
    public var http: HTTPClient

    /// The ECB's own address for the file.
    public static let defaultURL = URL(string: "https://www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml")!

    /// A feed at `url`.
    public init(url: URL = Self.defaultURL, http: HTTPClient = HTTPClient()) {
        self.url = url
        self.http = http
    }

    /// The day and rates the file holds now.
    public func fetch() async throws(SourceError) -> (day: LocalDay, rates: [String: Double]) {
        let response = try await http.get(url, for: "ecb")
        guard response.status == 200 else { throw SourceError(source: "ecb", problem: .httpStatus(response.status, detail: "")) }
        let body = try response.body(ifTypeIs: { $0.hasSuffix("xml") || $0 == "text/plain" }, source: "ecb")
        return try ExchangeRates.parseECB(body)
    }
}
