import FoundationEssentials

/// How each provider's forecasts compared with the prices the market then published, per
/// horizon, over the last ``days`` local days: the report card of `forecast/accuracy`.
///
/// A forecast slot is scored once, when an official price first covers it: the absolute error
/// and the error of the consumer price it forecast (both priced under the profile's settings of
/// that moment), and whether its band was the official price's band.
public struct ForecastAccuracy: Sendable, Equatable {
    /// How far ahead of the slot the forecast was issued.
    public enum Horizon: Int, Sendable, CaseIterable, Comparable {
        /// Up to a day ahead.
        case day = 0
        /// One to two days ahead.
        case twoDays = 1
        /// Two to four days ahead.
        case fourDays = 2

        /// The horizon of a slot starting `seconds` after its forecast was issued, nil outside 0…96 h.
        public init?(seconds: Double) {
            guard seconds.isFinite, seconds >= 0, seconds < 96 * 3600 else { return nil }
            self = seconds < 24 * 3600 ? .day : seconds < 48 * 3600 ? .twoDays : .fourDays
        }

        /// Its name in payloads: `0-24h`, `24-48h`, `48-96h`.
        public var name: String {
            switch self {
            case .day: "0-24h"
            case .twoDays: "24-48h"
            case .fourDays: "48-96h"
            }
        }

        public static func < (a: Horizon, b: Horizon) -> Bool { a.rawValue < b.rawValue }
    }

    /// The sums of some scored slots.
    public struct Tally: Sendable, Equatable {
        /// Slots scored.
        public var slots = 0
        /// The sum of |forecast − official|, per kWh.
        public var absoluteError = 0.0
        /// The sum of forecast − official: above zero, the forecast was too high.
        public var error = 0.0
        /// Slots whose forecast band was the official band.
        public var bandsAgreed = 0

        /// No slots.
        public init() {}

        /// The mean absolute error; nil without slots.
        public var meanAbsoluteError: Double? { slots > 0 ? absoluteError / Double(slots) : nil }
        /// The mean error; nil without slots.
        public var bias: Double? { slots > 0 ? error / Double(slots) : nil }
        /// The share of slots whose bands agreed; nil without slots.
        public var bandAgreement: Double? { slots > 0 ? Double(bandsAgreed) / Double(slots) : nil }

        /// Adds `other`'s slots.
        public mutating func add(_ other: Tally) {
            slots += other.slots
            absoluteError += other.absoluteError
            error += other.error
            bandsAgreed += other.bandsAgreed
        }
    }

    /// The local days a report card covers.
    public static let days = 30

    /// The tallies by provider, official slot's local day and horizon.
    public private(set) var tallies: [Key: Tally] = [:]

    /// What a tally is kept by.
    public struct Key: Sendable, Hashable {
        /// The provider.
        public var provider: String
        /// The local day of the scored slots.
        public var day: LocalDay
        /// How far ahead they were forecast.
        public var horizon: Horizon
    }

    /// No scores.
    public init() {}

    /// Adds `tally` to those of `provider` on `day` at `horizon`.
    public mutating func add(_ tally: Tally, provider: String, day: LocalDay, horizon: Horizon) {
        tallies[Key(provider: provider, day: day, horizon: horizon), default: Tally()].add(tally)
    }

    /// Forgets the days before `first`.
    public mutating func keep(from first: LocalDay) {
        tallies = tallies.filter { $0.key.day >= first }
    }

    /// The providers scored, sorted.
    public var providers: [String] { Set(tallies.keys.map(\.provider)).sorted() }

    /// The tally of `provider` at `horizon` (all horizons when nil) over every day kept.
    public func tally(of provider: String, at horizon: Horizon? = nil) -> Tally {
        var total = Tally()
        for (key, tally) in tallies where key.provider == provider && (horizon == nil || key.horizon == horizon) { total.add(tally) }
        return total
    }
}
