/// A price unit a source may send, normalised to EUR/kWh.
enum PriceUnit {
    /// EUR/kWh.
    case perKWh
    /// EUR/MWh.
    case perMWh

    /// Reads `Eur/MWh`, `EUR / MWh`, `EUR/kWh` and the like; nil for anything else.
    init?(_ text: String) {
        switch text.lowercased().filter({ !$0.isWhitespace }) {
        case "eur/kwh", "€/kwh": self = .perKWh
        case "eur/mwh", "€/mwh": self = .perMWh
        default: return nil
        }
    }

    /// `value` in EUR/kWh.
    func perKWh(_ value: Double) -> Double { self == .perMWh ? value / 1000 : value }
}
