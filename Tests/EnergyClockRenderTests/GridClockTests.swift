import EnergyClockDomain
import EnergyClockFace
import EnergyClockTesting
import Foundation
import Testing

/// A grid clock: the operator's name for now in the centre with its step, and the operator's
/// states in its own colours as the legend.
@Suite struct GridClockTests {
    static func face(_ steps: [Double], now: String = "2026-01-14T10:00:00+01:00") -> ClockFace {
        let day = LocalDay(year: 2026, month: 1, day: 14)
        let light = slots(from: amsterdam.start(of: day), count: steps.count, minutes: 60) { steps[$0] }.map { slot in
            var slot = slot
            slot.quantity = .gridSignal(.stromGedacht)
            return slot
        }.stamped(.forecast("stromgedacht", issued: at("2026-01-14T06:00:00Z")))
        var settings = Settings.defaults
        settings.signal = .grid
        settings.carbonSource = "stromgedacht"
        return ClockFace(
            Snapshot.derive(
                now: at(now), calendar: amsterdam, settings: settings, slots: light, source: "stromgedacht", stale: false,
                updatedAt: nil))
    }

    /// Supergreen at night and midday, green in the morning, orange at 10:00, red from 17:00 to 20:00.
    static let day: [Double] = [0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 0, 0, 0, 0, 1, 1, 3, 3, 3, 1, 1, 0, 0]

    @Test func aGridClockNamesTheOperatorsStateAndDrawsItsColours() async throws {
        let face = Self.face(Self.day)
        #expect(face.scale == .stromGedacht && face.price == 2 && face.band == .orange)
        #expect(face.now?.value == "orange" && face.now?.caption == "step 2")
        #expect(face.legend.map(\.text) == ["supergreen", "green", "orange", "red"])
        #expect(face.legend.map(\.band) == [.green, .green, .orange, .red])
        #expect(face.sectors.map { $0.parts[0] } == Self.day.map { [Band.green, .green, .orange, .red][Int($0)] })
        #expect(face.sectors.allSatisfy { $0.forecast.isEmpty }, "the operator's announcement, drawn plain")
        #expect(face.noun == "signal" && face.nothingNow == "no signal now")
        #expect(ClockFace(json: Array(face.json.utf8)) == face, "the scale reaches the helper")
        let svg = String(decoding: try await ClockRenderer.besideThisProgram.draw(face).svg, as: UTF8.self)
        #expect(!svg.contains("fill-opacity:0.4"))
        let text = TerminalClock(face, colors: .letters).render()
        #expect(text.contains("orange step 2") && text.contains("supergreen") && text.contains("no signal"))
    }
}
