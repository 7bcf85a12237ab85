import FoundationEssentials

/// Euro reference rates by day: how many units of a currency one euro buys.
///
/// A day without a rate (a weekend, a holiday, today before 16:00 CET) takes the latest rate
/// before it; a day before the first known rate has none, and its prices are not converted.
public struct ExchangeRates: Sendable, Hashable {
    /// Per currency, `(day, rate)` in day order.
    private var table: [String: [(day: LocalDay, rate: Double)]] = [:]

    /// No rates.
    public init() {}

    /// The currencies the ECB publishes reference rates for, besides the euro itself, with a rate
    /// of 2025 for each: units of the currency one euro bought, rounded.
    static let ecbReferenceRates: [(currency: String, rate: Double)] = [
        ("USD", 1.1), ("JPY", 160), ("BGN", 1.96), ("CZK", 25), ("DKK", 7.46), ("GBP", 0.85), ("HUF", 400), ("PLN", 4.3),
        ("RON", 5), ("SEK", 11.2), ("CHF", 0.94), ("ISK", 145), ("NOK", 11.7), ("TRY", 45), ("AUD", 1.7), ("BRL", 6.2),
        ("CAD", 1.55), ("CNY", 8), ("HKD", 8.6), ("IDR", 18_000), ("ILS", 4), ("INR", 95), ("KRW", 1550), ("MXN", 21),
        ("MYR", 4.9), ("NZD", 1.9), ("PHP", 63), ("SGD", 1.45), ("THB", 37), ("ZAR", 20),
    ]

    /// The currencies the ECB publishes reference rates for, besides the euro itself.
    public static let ecbCurrencies = ecbReferenceRates.map(\.currency)

    /// How far a rate may stray from its 2025 reference, either way, before it is refused as broken.
    static let plausibleFactor = 50.0

    /// The rates of `currency` worth believing: within a factor of 50 of its 2025 rate, or for a
    /// currency without one, between 0.0001 and 1,000,000. A rate of `1e308` or `1e-320` would
    /// turn every price into NaN or 0, so it never gets this far.
    public static func plausibleRates(of currency: String) -> ClosedRange<Double> {
        guard let reference = ecbReferenceRates.first(where: { $0.currency == currency })?.rate else { return 1e-4...1e6 }
        return (reference / plausibleFactor)...(reference * plausibleFactor)
    }

    /// Why `rate` of `currency` cannot be believed, or nil when it can.
    public static func implausibility(of rate: Double, currency: String) -> String? {
        let range = plausibleRates(of: currency)
        guard Bounded.number(rate, in: range) == nil else { return nil }
        return "the rate of \(currency), \(Quote.number(rate)), is outside \(DecimalFormat.string(range.lowerBound)) to "
            + "\(DecimalFormat.string(range.upperBound)) units per euro"
    }

    /// Records `rate` for `currency` on `day`, replacing one already known for that day.
    public mutating func set(_ currency: String, _ rate: Double, on day: LocalDay) {
        var list = table[currency, default: []]
        if let index = list.firstIndex(where: { $0.day >= day }) {
            if list[index].day == day { list[index].rate = rate } else { list.insert((day, rate), at: index) }
        } else {
            list.append((day, rate))
        }
        table[currency] = list
    }

    /// The rate in force on `day`: that day's, or the latest before it; 1 for the euro.
    public func rate(_ currency: String, on day: LocalDay) -> Double? {
        if currency == "EUR" { return 1 }
        guard let list = table[currency], let index = list.lastIndex(where: { $0.day <= day }) else { return nil }
        return list[index].rate
    }

    /// What one unit of `from` is worth in `to` on `day`: exactly 1 when they are the same, so a
    /// price shown in the currency it was quoted in is never touched; else through the euro.
    ///
    /// `day` is worked out only when the two differ: a snapshot asks once per slot, and for the
    /// usual single currency each slot's local day was a time-zone lookup for nothing.
    public func conversion(from: Currency, to: String, on day: @autoclosure () -> LocalDay) -> Double? {
        guard from.code != to else { return 1 }
        let day = day()
        guard let target = rate(to, on: day), let source = rate(from.code, on: day) else { return nil }
        return target / source
    }

    /// The newest day with any rate.
    public var latestDay: LocalDay? { table.values.compactMap { $0.last?.day }.max() }

    /// Every `(currency, day, rate)`, for the store.
    public var entries: [(currency: String, day: LocalDay, rate: Double)] {
        table.sorted { $0.key < $1.key }.flatMap { currency, list in list.map { (currency, $0.day, $0.rate) } }
    }

    /// Equal when every currency has the same rates on the same days.
    public static func == (lhs: ExchangeRates, rhs: ExchangeRates) -> Bool {
        lhs.entries.elementsEqual(rhs.entries) { $0.currency == $1.currency && $0.day == $1.day && $0.rate == $1.rate }
    }

    /// Hashes every entry.
    public func hash(into hasher: inout Hasher) {
        for entry in entries {
            hasher.combine(entry.currency)
            hasher.combine(entry.day)
            hasher.combine(entry.rate)
        }
    }
}
