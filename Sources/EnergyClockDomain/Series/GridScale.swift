/// A grid operator's traffic light, read onto one scale of steps so that plans, statistics and the
/// ring treat every operator alike.
///
/// A `grid` profile's value is the step: 0 use power now, 1 normal, 2 reduce, 3 reduce, the grid
/// is strained. Each operator's states are declared once here: the code it sends, the name it
/// gives the state (published as the slot's `level`) and the band its own light shows.
public enum GridScale: String, Sendable, Hashable, CaseIterable {
    /// Energy-Charts' "Stromampel" (Fraunhofer ISE) for Germany: green, yellow, red by the
    /// renewable share, and congestion.
    case energyCharts = "energy-charts"
    /// TransnetBW's StromGedacht for Baden-Württemberg: supergreen, green, orange, red.
    case stromGedacht = "stromgedacht"

    /// One state of an operator's light.
    public struct State: Sendable, Hashable {
        /// The number the operator sends for it.
        public let code: Int
        /// The operator's name for it, as published: `supergreen`, `congestion`.
        public let name: String
        /// The band its light shows.
        public let band: Band
    }

    /// The meaning of each step, for docs and help.
    public static let meanings = ["use power now", "normal", "reduce", "reduce, the grid is strained"]

    /// The highest step.
    public static let topStep = 3

    /// The states by step, 0 first.
    public var states: [State] {
        switch self {
        case .energyCharts:
            [
                State(code: 2, name: "green", band: .green), State(code: 1, name: "yellow", band: .yellow),
                State(code: 0, name: "red", band: .red), State(code: -1, name: "congestion", band: .red),
            ]
        case .stromGedacht:
            [
                State(code: -1, name: "supergreen", band: .green), State(code: 1, name: "green", band: .green),
                State(code: 3, name: "orange", band: .orange), State(code: 4, name: "red", band: .red),
            ]
        }
    }

    /// The step of the state the operator sends as `code`; nil for a code it does not declare.
    /// StromGedacht's retired `2` (yellow: bring consumption forward) is read as supergreen, the
    /// state that replaced it.
    public func step(code: Int) -> Int? {
        if self == .stromGedacht, code == 2 { return 0 }
        return states.firstIndex { $0.code == code }
    }

    /// The state at `value`, a step; nil for a value that is no step.
    public func state(at value: Double) -> State? {
        guard value.isFinite, value >= 0, value <= Double(Self.topStep), value == value.rounded() else { return nil }
        return states[Int(value)]
    }

    /// Every state name the operators use, in step order, each once: the options of an entity
    /// that shows a state.
    public static var names: [String] {
        var names: [String] = []
        for scale in allCases {
            for state in scale.states where !names.contains(state.name) { names.append(state.name) }
        }
        return names
    }
}
