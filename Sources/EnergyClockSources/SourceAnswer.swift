import EnergyClockDomain
import FoundationEssentials

/// The pieces of a source's or provider's JSON answer, each read or refused with its name.
struct SourceAnswer {
    /// The source or provider, for its errors.
    let source: String

    /// A failure of the answer.
    func fail(_ reason: String) -> SourceError { SourceError(source: source, problem: .malformed(reason)) }

    /// The JSON of `body`, which must not be empty.
    func json(_ body: [UInt8]) throws(SourceError) -> JSONValue {
        guard !body.isEmpty else { throw SourceError(source: source, problem: .emptyBody) }
        guard let json = JSONValue.parse(body) else { throw fail("not JSON") }
        return json
    }

    /// The instant `value` names: an ISO 8601 time with an offset, or with none when `utc` says
    /// the source writes UTC without saying so.
    func instant(_ value: JSONValue?, _ name: String, utc: Bool = false) throws(SourceError) -> Date {
        guard case let .string(text)? = value, text.utf8.count <= 40,
            let instant = ISO8601.parse(text) ?? (utc ? ISO8601.parse(text + "Z") : nil)
        else { throw fail("\(name) is not a time") }
        return instant
    }

    /// The finite number `value`, at most `limit` in size.
    func number(_ value: JSONValue?, _ name: String, limit: Double) throws(SourceError) -> Double {
        guard case let .number(number)? = value, let bounded = Bounded.number(number, in: -limit...limit) else {
            throw fail("\(name) is not a number within ±\(DecimalFormat.string(limit))")
        }
        return bounded
    }
}
