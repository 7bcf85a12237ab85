import EnergyClockDomain
import FoundationEssentials

/// The GB Carbon Intensity API (National Energy System Operator): the carbon intensity of Great
/// Britain's grid in gCO₂/kWh per half hour, nationally or for a region, estimated for the past
/// and forecast up to 48 hours ahead, with its own `index` from `very low` to `very high`.
///
/// An area is empty (or `GB`) for the nation, a region id from 1 to 17, or an outward postcode
/// (`RG41`, `SW1`). One request asks for three days (`/intensity/{from}/{to}` and its regional
/// forms); a half hour with an `actual` is the operator's estimate of what was
/// emitted (official), any other its forecast, issued at the fetch.
public struct GBCarbonIntensitySource: CarbonSource {
    /// The name it is chosen by.
    public let id = "gb-carbon-intensity"
    /// Where the API lives.
    public var baseURL: URL
    /// The HTTP client with its limits.
    public var http: HTTPClient

    /// The public API's address.
    public static let defaultBaseURL = URL(string: "https://api.carbonintensity.org.uk")!

    /// A source at `baseURL`.
    public init(baseURL: URL = Self.defaultBaseURL, http: HTTPClient = HTTPClient()) {
        self.baseURL = baseURL
        self.http = http
    }

    /// The nation, a region or an outward postcode.
    public var areas: String { "GB (or empty) for Great Britain, a region id from 1 to 17, or an outward postcode such as RG41" }

    /// How the operator's `index` is read: its five words, in order, as the five levels.
    public static let levels: [(index: String, level: PriceLevel)] = PriceLevel.allCases.map { ($0.intensityName, $0) }

    /// What `area` names in a request path: `""` for the nation, `regionid/<id>` or `postcode/<outcode>`.
    enum Area: Equatable {
        case nation
        case region(Int)
        case postcode(String)

        /// Why a text names no area.
        struct Refusal: Error {
            let reason: String
        }

        /// `text` read, or the reason it cannot be.
        static func read(_ text: String) -> Result<Area, Refusal> {
            let upper = text.uppercased()
            if upper.isEmpty || upper == "GB" { return .success(.nation) }
            let bytes = Array(upper.utf8)
            if bytes.count <= 2, bytes.allSatisfy({ $0 >= 48 && $0 <= 57 }), let id = Int(upper) {
                return (1...17).contains(id) ? .success(.region(id)) : .failure(Refusal(reason: "region \(id) is not one of 1 to 17"))
            }
            // An outward code: one or two letters, a digit, and at most one more letter or digit.
            let letters = bytes.prefix { $0 >= 65 && $0 <= 90 }.count
            let rest = bytes.dropFirst(letters)
            guard (1...2).contains(letters), (1...2).contains(rest.count), let first = rest.first, first >= 48, first <= 57,
                rest.dropFirst().allSatisfy({ ($0 >= 48 && $0 <= 57) || ($0 >= 65 && $0 <= 90) })
            else { return .failure(Refusal(reason: "\(Quote.clip(text)) is no outward postcode (such as RG41 or SW1) nor a region id")) }
            let outside = ["BT": "Northern Ireland", "GY": "Guernsey", "JE": "Jersey", "IM": "the Isle of Man"]
            if let place = outside[String(upper.prefix(letters))] {
                return .failure(Refusal(reason: "\(upper) is in \(place), outside Great Britain's grid"))
            }
            return .success(.postcode(upper))
        }
    }

    /// Why `area` cannot be asked for, or nil.
    public func areaProblem(_ area: String) -> String? {
        if case let .failure(refusal) = Area.read(area) { refusal.reason } else { nil }
    }

    /// The request for `area` from `start` for ``CarbonSource/span``.
    func url(area: Area, from start: Date) -> URL {
        // Minutes, as the API writes times: `2026-12-05T10:30Z`.
        func minute(_ instant: Date) -> String { String(ISO8601.utc(instant).prefix(16)) + "Z" }
        let from = minute(start)
        let to = minute(start.addingTimeInterval(Self.span))
        let path =
            switch area {
            case .nation: "intensity/\(from)/\(to)"
            case let .region(id): "regional/intensity/\(from)/\(to)/regionid/\(id)"
            case let .postcode(code): "regional/intensity/\(from)/\(to)/postcode/\(code)"
            }
        return baseURL.appendingPathComponent(path)
    }

    /// Fetches ``CarbonSource/span`` from `start` for `area`.
    public func fetch(area: String, from start: Date, now: Date) async throws(SourceError) -> [SeriesSlot] {
        let read: Area
        switch Area.read(area) {
        case let .success(area): read = area
        case let .failure(refusal): throw SourceError(source: id, problem: .malformed(refusal.reason))
        }
        let response = try await http.get(url(area: read, from: start), for: id)
        guard response.status == 200 else {
            throw SourceError(source: id, problem: .httpStatus(response.status, detail: Self.errorMessage(response.body)))
        }
        return try Self.parse(response.jsonBody(source: id), issued: now)
    }

    /// The `error.message` of an error answer, clipped; empty without one.
    static func errorMessage(_ body: [UInt8]) -> String {
        guard body.count <= 4096, case let .object(root)? = JSONValue.parse(body), case let .object(error)? = root["error"],
            case let .string(message)? = error["message"]
        else { return "" }
        return Quote.clip(message)
    }

    /// Reads a national answer (`data` a list of half hours) or a regional one (`data` an object,
    /// or a list of one, holding the region and its own `data` list).
    public static func parse(_ body: [UInt8], issued: Date) throws(SourceError) -> [SeriesSlot] {
        let answer = SourceAnswer(source: "gb-carbon-intensity")
        guard case let .object(root) = try answer.json(body) else { throw answer.fail("not a JSON object") }
        var rows: [JSONValue]
        switch root["data"] {
        case let .array(list)?:
            rows = list
            // The regional forms hold the region's rows one level down.
            if case let .object(first)? = list.first, first["regionid"] != nil {
                guard list.count == 1, case let .array(inner)? = first["data"] else { throw answer.fail("data holds no single region") }
                rows = inner
            }
        case let .object(region)?:
            guard case let .array(inner)? = region["data"] else { throw answer.fail("data.data is not a list") }
            rows = inner
        default:
            throw answer.fail("no data")
        }
        var slots: [SeriesSlot] = []
        slots.reserveCapacity(rows.count)
        for (index, row) in rows.enumerated() {
            let name = "data[\(index)]"
            guard case let .object(fields) = row, case let .object(intensity)? = fields["intensity"] else {
                throw answer.fail("\(name) has no intensity")
            }
            let start = try answer.instant(fields["from"], "\(name).from")
            let end = try answer.instant(fields["to"], "\(name).to")
            let measured = intensity["actual"].flatMap { $0 == .null ? nil : $0 }
            let value: Double
            let provenance: Provenance
            if let measured {
                value = try answer.intensity(measured, "\(name).intensity.actual")
                provenance = .official("gb-carbon-intensity")
            } else if let forecast = intensity["forecast"], forecast != .null {
                value = try answer.intensity(forecast, "\(name).intensity.forecast")
                provenance = .forecast("gb-carbon-intensity", issued: issued)
            } else {
                continue
            }
            var level: PriceLevel?
            if case let .string(text)? = intensity["index"] {
                guard let known = levels.first(where: { $0.index == text }) else {
                    throw answer.fail(
                        "\(name).intensity.index \(Quote.clip(text)) is none of \(levels.map(\.index).joined(separator: ", "))")
                }
                level = known.level
            }
            slots.append(
                SeriesSlot(start: start, end: end, value: value, quantity: .carbonIntensity, level: level, provenance: provenance))
        }
        return try slots.validated(from: answer.source)
    }
}
