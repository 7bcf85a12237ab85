import EnergyClockDomain
import EnergyClockTesting
import FoundationEssentials
import Testing

/// The settings of a `grid` profile, and how a grid operator's light is shown and banded: pure values.
@Suite struct GridSignalSettingsTests {
    func merged(_ json: String, over settings: Settings = .defaults) throws(SettingsError) -> Settings {
        try settings.merged(try SettingsPatch.parse(object: Array(json.utf8), sources: ["energyzero"]))
    }

    @Test func aGridProfileNeedsASourceAndItsJobsFollowTheSteps() throws {
        #expect {
            try merged(#"{"signal":"grid"}"#)
        } throws: {
            "\($0)".contains("a grid profile shows the traffic light of a carbon_source; set one in the same update")
        }
        let grid = try merged(#"{"signal":"grid","carbon_source":"stromgedacht","carbon_area":"70173"}"#)
        #expect(grid.unit == "step" && grid.bandMode == .levels && grid.colorMode == .absolute)
        // A job on it takes the lowest steps; naming anything to minimise is refused.
        #expect(try merged(#"{"jobs":{"wash":{"duration":60,"repeat":"once"}}}"#, over: grid).jobs.count == 1)
        for minimise in [#""minimise":"price""#, #""minimise":"co2""#, #""minimise":"co2_price","co2_price":50"#] {
            #expect {
                try merged(#"{"jobs":{"wash":{"duration":60,"repeat":"once",\#(minimise)}}}"#, over: grid)
            } throws: {
                "\($0)".contains("a grid profile shows a traffic light: its jobs choose the lowest steps (leave minimise out)")
            }
        }
        // A stored grid profile without its source is repaired to a price profile.
        var stored = grid
        stored.carbonSource = ""
        #expect(Settings.restore(json: stored.json, sources: ["energyzero"]).settings.signal == .price)
    }

    /// Quarter hours of StromGedacht from 12:00 on 5 December 2026 in Amsterdam (11:00Z): steps.
    static func steps(_ values: [Double], scale: GridScale = .stromGedacht) -> [SeriesSlot] {
        let start = at("2026-12-05T11:00:00Z")
        return values.enumerated().map { i, value in
            SeriesSlot(
                start: start.addingTimeInterval(Double(i) * 900), end: start.addingTimeInterval(Double(i + 1) * 900), value: value,
                quantity: .gridSignal(scale), provenance: .forecast(scale.rawValue, issued: start))
        }
    }

    func snapshot(_ settings: Settings, _ slots: [SeriesSlot]) -> Snapshot {
        Snapshot.derive(
            now: at("2026-12-05T11:20:00Z"), calendar: amsterdam, settings: settings, slots: slots, source: "stromgedacht",
            stale: false, updatedAt: nil)
    }

    @Test func eachStepIsBandedByTheOperatorsOwnLightWhateverTheColourMode() {
        var settings = Settings.defaults
        settings.signal = .grid
        settings.carbonSource = "stromgedacht"
        settings.resolution = .native
        let slots = Self.steps([0, 1, 2, 3, 0, 0, 0, 0])
        for mode in ColorMode.allCases {
            settings.colorMode = mode
            let shown = snapshot(settings, slots)
            // Supergreen and green are both green on StromGedacht's light; orange orange, red red.
            #expect(shown.today.map(\.band) == [.green, .green, .orange, .red, .green, .green, .green, .green], "\(mode)")
            #expect(shown.today.map(\.price) == [0, 1, 2, 3, 0, 0, 0, 0])
            #expect(
                shown.today.map(\.slot.levelName) == [
                    "supergreen", "green", "orange", "red", "supergreen", "supergreen", "supergreen", "supergreen",
                ])
            #expect(shown.thresholds == nil && shown.current?.slot.levelName == "green")
        }
        // The Stromampel's red is red, not orange: each operator's colours are its own.
        let ampel = snapshot(settings, Self.steps([0, 1, 2, 3], scale: .energyCharts))
        #expect(ampel.today.map(\.band) == [.green, .yellow, .red, .red])
        #expect(ampel.today.map(\.slot.levelName) == ["green", "yellow", "red", "congestion"])
        // An hour takes its worst quarter: 12:00 has red in it, 13:00 is supergreen throughout.
        settings.resolution = .hour
        let hourly = snapshot(settings, slots)
        #expect(hourly.today.map(\.price) == [3, 0] && hourly.today.map(\.band) == [.red, .green])
    }

    @Test func theScalesAreTheOperatorsStatesInOrder() {
        #expect(GridScale.energyCharts.states.map(\.code) == [2, 1, 0, -1])
        #expect(GridScale.stromGedacht.states.map(\.code) == [-1, 1, 3, 4])
        #expect(GridScale.stromGedacht.step(code: 2) == 0, "the retired yellow is supergreen")
        #expect(GridScale.energyCharts.step(code: 3) == nil && GridScale.stromGedacht.step(code: 0) == nil)
        for value in [-1, 0.5, 4, .nan, .infinity] { #expect(GridScale.energyCharts.state(at: value) == nil, "\(value)") }
        #expect(GridScale.names == ["green", "yellow", "red", "congestion", "supergreen", "orange"])
        for scale in GridScale.allCases {
            #expect(scale.states.count == GridScale.meanings.count && scale.states.count == GridScale.topStep + 1)
            #expect(Quantity(code: Quantity.gridSignal(scale).code) == .gridSignal(scale), "the store reads back what it wrote")
        }
        #expect(Quantity(code: "signal:other") == nil)
    }
}
