import EnergyClockDomain
import FoundationEssentials

/// Tibber's GraphQL API: the `priceInfo` of the user's home, today and tomorrow.
///
/// Tibber's `total` is what the household pays, taxes included, in the home's currency: a retail
/// price (``PriceBasis/retail``) to which only a grid fee is added. Its `level` is published beside
/// our band. Prices are asked for in quarter-hours; an API that does not know that argument is
/// asked for hours.
public struct TibberSource: PriceSource {
    /// The name it is chosen by in the `source` setting.
    public let id = "tibber"
    /// Every answer holds tomorrow once it is published.
    public var answersIncludeNextDay: Bool { true }
    /// Only today and tomorrow are offered; past days are never asked for.
    public var answersPastDays: Bool { false }
    /// Where the API lives.
    public var url: URL
    /// The personal token; never logged, published or put in an error.
    public var token: String?
    /// The HTTP client with its limits.
    public var http: HTTPClient

    /// The public API's address.
    public static let defaultURL = URL(string: "https://api.tibber.com/v1-beta/gql")!

    /// A source at `url` using `token`.
    public init(url: URL = Self.defaultURL, token: String?, http: HTTPClient = HTTPClient()) {
        self.url = url
        self.token = token
        self.http = http
    }

    /// Unusable without a token.
    public func unusableReason(for settings: Settings) -> String? {
        (token ?? "").isEmpty ? "needs a personal token: start energyclock with ENERGYCLOCK_TIBBER_TOKEN or --tibber-token-file" : nil
    }

    /// The home's currency, which only an answer names.
    public func quotedCurrency(for settings: Settings) -> String? { nil }

    /// One cache: the token names the home, whatever the zone.
    public func cacheKey(for settings: Settings) -> String { id }

    /// The query: every home's today and tomorrow, at `resolution` or at Tibber's default (hours) when nil.
    static func query(resolution: String?) -> [UInt8] {
        let items = "{total startsAt currency level}"
        let argument = resolution.map { "(resolution: \($0))" } ?? ""
        let query = "{viewer{homes{currentSubscription{priceInfo\(argument){today\(items) tomorrow\(items)}}}}}"
        return Array("{\"query\":\(JSONWriter.quoted(query))}".utf8)
    }

    /// Fetches today and tomorrow (whatever `day` is: Tibber offers no other days).
    public func fetch(day: LocalDay, calendar: LocalCalendar, settings: Settings) async throws(SourceError) -> [SeriesSlot] {
        guard let token, !token.isEmpty else {
            throw SourceError(source: id, problem: .credentialsRefused(status: 0, reason: unusableReason(for: settings) ?? ""))
        }
        do {
            do {
                return try await ask(Self.query(resolution: "QUARTER_HOURLY"), token: token)
            } catch let error where error.isUnknownResolution {
                return try await ask(Self.query(resolution: nil), token: token)
            }
        } catch {
            throw error.redacting(token)
        }
    }

    private func ask(_ query: [UInt8], token: String) async throws(TibberError) -> [SeriesSlot] {
        let response: HTTPResponse
        do {
            response = try await http.post(
                url, body: query, headers: ["Authorization: Bearer \(token)", "Content-Type: application/json"], for: id)
        } catch {
            throw .source(error)
        }
        // GraphQL answers in JSON, errors included; a page of HTML is not an answer.
        guard response.contentType.isEmpty || response.contentType.hasSuffix("json") else {
            throw .source(SourceError(source: id, problem: .contentType(response.contentType)))
        }
        return try Self.parse(response.body, status: response.status)
    }

    /// Reads an answer with HTTP `status`: the first home's prices, or the error Tibber gave.
    public static func parse(_ body: [UInt8], status: Int = 200) throws(TibberError) -> [SeriesSlot] {
        func fail(_ problem: SourceError.Problem) -> TibberError { .source(SourceError(source: "tibber", problem: problem)) }
        guard !body.isEmpty else { throw status == 200 ? fail(.emptyBody) : fail(.httpStatus(status, detail: "")) }
        guard case let .object(root)? = JSONValue.parse(body) else {
            throw status == 200 ? fail(.malformed("not a JSON object")) : fail(.httpStatus(status, detail: ""))
        }
        if case let .array(errors)? = root["errors"], let first = errors.first {
            let message = first["message"]?.string.map { Quote.clip($0, limit: 200) } ?? "no message"
            let code = first["extensions"]?["code"]?.string
            if code == "UNAUTHENTICATED" || status == 401 || status == 403 {
                throw fail(.credentialsRefused(status: status, reason: "the token was refused (\(message))"))
            }
            if message.contains("resolution") { throw .unknownResolution(message) }
            throw fail(status == 200 ? .malformed("Tibber answered an error: \(message)") : .httpStatus(status, detail: message))
        }
        guard status == 200 else { throw fail(.httpStatus(status, detail: "")) }
        // The query asks for every home (`homes`); an answer for one home (`home`) is read alike.
        let viewer = root["data"]?["viewer"]
        let homes: [JSONValue]
        switch (viewer?["homes"], viewer?["home"]) {
        case let (.array(list)?, _): homes = list
        case let (_, home?) where home != .null: homes = [home]
        default: throw fail(.malformed("no data.viewer.homes"))
        }
        // The first home with a subscription that has prices; a home without one (moved out) is skipped.
        guard let info = homes.lazy.compactMap({ $0["currentSubscription"]?["priceInfo"] }).first(where: { $0 != .null }) else {
            throw fail(.malformed("no home has a current subscription with prices"))
        }
        var points: [PricePoint] = []
        var currency: Currency?
        for day in ["today", "tomorrow"] {
            guard case let .array(items)? = info[day] else {
                if info[day] == nil || info[day] == .null { continue }  // Not asked for, or not published.
                throw fail(.malformed("priceInfo.\(day) is \(info[day]!.typeName), not an array"))
            }
            for (index, item) in items.enumerated() {
                let place = "priceInfo.\(day)[\(index)]"
                guard case let .number(total)? = item["total"] else {
                    throw fail(.malformed("\(place).total is \(item["total"]?.typeName ?? "missing"), not a number"))
                }
                guard case let .string(startText)? = item["startsAt"], let start = ISO8601.parse(startText) else {
                    throw fail(.malformed("\(place).startsAt is not an ISO 8601 time"))
                }
                guard case let .string(code)? = item["currency"], let named = Currency(code) else {
                    throw fail(.malformed("\(place).currency is \(item["currency"]?.text ?? "missing"), not a known currency"))
                }
                guard currency == nil || currency == named else {
                    throw fail(.malformed("\(place) is in \(named), the others in \(currency!)"))
                }
                currency = named
                // A level energyclock does not know is left out, not guessed.
                let level = item["level"]?.string.flatMap(PriceLevel.init(name:))
                points.append(PricePoint(start: start, end: nil, price: total, level: level))
            }
        }
        guard let currency else { return [] }  // Nothing published.
        do {
            return try points.slots(source: "tibber", currency: currency, basis: .retail)
        } catch {
            throw .source(error)
        }
    }
}

/// Why a Tibber answer could not be used.
public enum TibberError: Error, Sendable {
    /// The source failed, as any source does.
    case source(SourceError)
    /// The API does not know the `resolution` argument; the query is sent again without it.
    case unknownResolution(String)

    /// Whether the query should be asked again at Tibber's default resolution.
    var isUnknownResolution: Bool {
        if case .unknownResolution = self { true } else { false }
    }

    /// The failure as a source error, its text cleaned of `secret`.
    func redacting(_ secret: String) -> SourceError {
        switch self {
        case let .source(error): error.redacting(secret)
        case let .unknownResolution(message):
            SourceError(source: "tibber", problem: .malformed("the API refused the query: \(message)")).redacting(secret)
        }
    }
}
