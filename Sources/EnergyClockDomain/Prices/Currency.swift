/// The currency a price is quoted or shown in: the euro or one of the currencies the ECB publishes
/// reference rates for, and nothing else, so that every price can be converted to every other.
///
/// It is an index into that list, so a slot carries it in one byte.
public struct Currency: Sendable, Hashable, CustomStringConvertible {
    /// Its position in ``codes``.
    let index: UInt8

    /// Every currency a price may be in: the euro first, then the ECB's list.
    public static let codes: [String] = ["EUR"] + ExchangeRates.ecbCurrencies

    /// The euro.
    public static let eur = Currency(index: 0)

    private init(index: UInt8) { self.index = index }

    /// The currency with ISO 4217 code `code` (upper case, as the ECB writes it); nil for one that
    /// is not in ``codes``.
    public init?(_ code: String) {
        guard code.utf8.count == 3, let index = Self.indices[code] else { return nil }
        self.index = index
    }

    /// Each code's index, for reading thousands of stored rows at start without a search each.
    private static let indices: [String: UInt8] = Dictionary(uniqueKeysWithValues: codes.enumerated().map { ($1, UInt8($0)) })

    /// The ISO 4217 code, e.g. `SEK`.
    public var code: String { Self.codes[Int(index)] }

    /// The code.
    public var description: String { code }

    /// The largest absolute price per kWh believed from a source in this currency: 10 EUR/kWh at
    /// the currency's 2025 rate, so that a spike in SEK is judged as one in EUR would be.
    public var priceLimit: Double { Self.priceLimits[Int(index)] }

    /// ``priceLimit`` of each currency, by index: validation asks for it once per slot.
    private static let priceLimits: [Double] = codes.map { code in
        [SeriesSlot].priceLimit * (ExchangeRates.ecbReferenceRates.first { $0.currency == code }?.rate ?? 1)
    }
}

/// What a source's price already holds, and so which parts of the formula still apply to it.
public enum PriceBasis: UInt8, Sendable, Hashable, CaseIterable {
    /// A wholesale market price without VAT: markup, surcharge, grid fee and VAT are all added.
    case market = 0
    /// A supplier's tariff without VAT (Octopus Agile's `value_exc_vat`): the supplier's margin is in
    /// it, so no markup or surcharge is added; the grid fee and VAT are.
    case tariff = 1
    /// What the household pays, taxes included (Tibber's `total`): only the grid fee is added.
    case retail = 2

    /// The name used in payloads and docs.
    public var name: String {
        switch self {
        case .market: "market"
        case .tariff: "tariff"
        case .retail: "retail"
        }
    }
}

/// A supplier's own rating of a slot's price, published beside our band (Tibber's `level`).
public enum PriceLevel: UInt8, Sendable, Hashable, CaseIterable {
    /// Far below the usual price.
    case veryCheap
    /// Below the usual price.
    case cheap
    /// About the usual price.
    case normal
    /// Above the usual price.
    case expensive
    /// Far above the usual price.
    case veryExpensive

    /// The level as the supplier writes it, e.g. `VERY_CHEAP`.
    public var name: String {
        switch self {
        case .veryCheap: "VERY_CHEAP"
        case .cheap: "CHEAP"
        case .normal: "NORMAL"
        case .expensive: "EXPENSIVE"
        case .veryExpensive: "VERY_EXPENSIVE"
        }
    }

    /// The level as a carbon intensity's, in the words of Great Britain's grid operator, e.g. `very low`.
    public var intensityName: String {
        switch self {
        case .veryCheap: "very low"
        case .cheap: "low"
        case .normal: "moderate"
        case .expensive: "high"
        case .veryExpensive: "very high"
        }
    }

    /// The level's name for a value of `quantity`: ``name`` for a price, ``intensityName`` for
    /// an intensity.
    public func name(for quantity: Quantity) -> String { quantity == .carbonIntensity ? intensityName : name }

    /// The level written `name`; nil for any other text.
    public init?(name: String) {
        guard let level = Self.allCases.first(where: { $0.name == name }) else { return nil }
        self = level
    }
}
