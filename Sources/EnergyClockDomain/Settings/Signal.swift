/// What a profile shows on its topics, lights and clock: prices, the grid's carbon intensity, or
/// a grid operator's traffic light.
public enum Signal: String, Sendable, CaseIterable {
    /// What a kWh costs, from the `source` setting (the default).
    case price
    /// The grid's carbon intensity in gCO₂/kWh, from the `carbon_source` setting for `carbon_area`.
    case co2
    /// A grid operator's traffic light, from a signal `carbon_source` for `carbon_area`, as a step
    /// of ``GridScale``, banded by the operator's own colours.
    case grid

    /// What its values are called in a sentence: `prices`, `intensities`, `signals`.
    public var plural: String {
        switch self {
        case .price: "prices"
        case .co2: "intensities"
        case .grid: "signals"
        }
    }
}
