/// What the values of a series measure, and in which unit.
///
/// Bands, statistics, windows, the clock and plans work on the values whatever they measure; what
/// names a unit (a payload, an entity, a picture's legend) asks the quantity.
public enum Quantity: Sendable, Hashable {
    /// A price per kWh in a currency, as the source quoted it.
    case price(Currency)
    /// Grams of CO₂ emitted per kWh consumed from the grid.
    case carbonIntensity
    /// A grid operator's traffic light as a step of ``GridScale`` (0 use power now … 3 reduce, the
    /// grid is strained); the operator's name for the state follows from the scale.
    case gridSignal(GridScale)

    /// The scale of a grid signal, nil for any other quantity.
    public var gridScale: GridScale? {
        if case let .gridSignal(scale) = self { scale } else { nil }
    }

    /// The currency of a price, nil for a quantity that is no price.
    public var currency: Currency? {
        if case let .price(currency) = self { currency } else { nil }
    }

    /// The quantity a stored code names: a currency code for a price (`EUR`), `gCO2/kWh` for an
    /// intensity, `signal:<scale>` for a grid signal; nil for a code this build does not know.
    public init?(code: String) {
        if code == "gCO2/kWh" {
            self = .carbonIntensity
        } else if code.hasPrefix("signal:"), let scale = GridScale(rawValue: String(code.dropFirst(7))) {
            self = .gridSignal(scale)
        } else if let currency = Currency(code) {
            self = .price(currency)
        } else {
            return nil
        }
    }

    /// The code the store keeps: the currency's for a price, `signal:<scale>` for a grid signal,
    /// the unit otherwise.
    public var code: String {
        switch self {
        case let .price(currency): currency.code
        case .carbonIntensity: unit
        case let .gridSignal(scale): "signal:\(scale.rawValue)"
        }
    }

    /// The unit values are written in: `EUR/kWh`, `gCO2/kWh`, `step`.
    public var unit: String {
        switch self {
        case let .price(currency): "\(currency)/kWh"
        case .carbonIntensity: "gCO2/kWh"
        case .gridSignal: Self.stepUnit
        }
    }

    /// The unit of a grid signal's value, a step of ``GridScale``.
    public static let stepUnit = "step"

    /// The decimals an intensity is published with: a tenth of a gram.
    public static let intensityDecimals = 1

    /// What one value is called in a message: `price`, `intensity`.
    public var noun: String {
        switch self {
        case .price: "price"
        case .carbonIntensity: "intensity"
        case .gridSignal: "signal"
        }
    }

    /// The largest absolute value believed from a source: 10 EUR/kWh at the currency's rate for a
    /// price (``Currency/priceLimit``), 5,000 gCO₂/kWh for an intensity (lignite emits about 1,100),
    /// the top step for a grid signal.
    public var limit: Double {
        switch self {
        case let .price(currency): currency.priceLimit
        case .carbonIntensity: 5_000
        case .gridSignal: Double(GridScale.topStep)
        }
    }
}
