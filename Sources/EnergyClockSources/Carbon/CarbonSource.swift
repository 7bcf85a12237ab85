import EnergyClockDomain
import FoundationEssentials

/// A source of the grid's carbon intensity in gCO₂/kWh for a place, with its own rating of each
/// value where it gives one (``SeriesSlot/level``).
///
/// What such a source publishes for the hours ahead is its own forecast of the intensity: those
/// slots are stamped as forecasts issued at the fetch, and the values it gives as measured (an
/// estimated actual for a past half hour) as its official figures.
public protocol CarbonSource: Sendable {
    /// The id it is chosen by, e.g. `gb-carbon-intensity`.
    var id: String { get }

    /// The scale of the grid signal it gives, for a source of a traffic light (a `grid`
    /// profile's); nil for a source of the intensity (a `co2` profile's), the default.
    var scale: GridScale? { get }

    /// The places it answers for, as a user names them: for errors and `--help`.
    var areas: String { get }

    /// Why it cannot answer for `area`, or nil when it can.
    func areaProblem(_ area: String) -> String?

    /// Its values for `area` from `start` on, for at most ``span`` and as far ahead as it
    /// publishes; what lies ahead of `now` is its forecast, issued at `now`.
    ///
    /// Throws when the source fails or answers something that cannot be trusted.
    func fetch(area: String, from start: Date, now: Date) async throws(SourceError) -> [SeriesSlot]
}

extension CarbonSource {
    /// A source of the intensity, unless it says otherwise.
    public var scale: GridScale? { nil }

    /// How much one request asks for: three days, a day past and two ahead when it starts a day
    /// before now.
    public static var span: TimeInterval { 3 * 86_400 }

    /// The store key of its values for `area`, e.g. `carbon/gb-carbon-intensity/RG41`.
    public func cacheKey(area: String) -> String { "carbon/\(id)/\(area.isEmpty ? "-" : area)" }
}

extension SourceAnswer {
    /// The intensity `value`: a finite number from 0 to ``Quantity/limit`` gCO₂/kWh.
    func intensity(_ value: JSONValue?, _ name: String) throws(SourceError) -> Double {
        let limit = Quantity.carbonIntensity.limit
        guard case let .number(number)? = value, let bounded = Bounded.number(number, in: 0...limit) else {
            throw fail("\(name) \(value?.text ?? "is missing"), not an intensity from 0 to \(DecimalFormat.string(limit)) gCO2/kWh")
        }
        return bounded
    }

    /// The step of `scale` that the state code `value` names: a whole number the scale declares.
    func step(_ value: JSONValue?, _ name: String, on scale: GridScale) throws(SourceError) -> Double {
        guard case let .number(number)? = value, let code = Bounded.integer(number, in: -9...9),
            let step = scale.step(code: code)
        else {
            let codes = scale.states.map { String($0.code) }.joined(separator: ", ")
            throw fail("\(name) \(value?.text ?? "is missing"), not a state of \(codes)")
        }
        return Double(step)
    }

    /// A slot of `scale` at `step` from `start` to `end`, the operator's announcement issued at `issued`.
    func slot(from start: Date, to end: Date, step: Double, on scale: GridScale, issued: Date) -> SeriesSlot {
        SeriesSlot(start: start, end: end, value: step, quantity: .gridSignal(scale), provenance: .forecast(source, issued: issued))
    }
}
