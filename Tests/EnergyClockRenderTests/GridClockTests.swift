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
        #expect(face.nowName == "orange" && face.price == 2 && face.band == .orange)
        #expect(face.now?.value == "orange" && face.now?.caption == "step 2")
        #expect(face.legend.map(\.text) == ["supergreen", "green", "orange", "red"])
        #expect(face.legend.map(\.band) == [.green, .green, .orange, .red])
        #expect(face.sectors.map { $0.parts[0] } == Self.day.map { [Band.green, .green, .orange, .red][Int($0)] })
        #expect(face.sectors.allSatisfy { $0.forecast.isEmpty }, "the operator's announcement, drawn plain")
        #expect(face.noun == "signal" && face.nothingNow == "no signal now")
        #expect(ClockFace(json: Array(face.json.utf8)) == face, "the names reach the helper")
        let svg = String(decoding: try await ClockRenderer.besideThisProgram.draw(face).svg, as: UTF8.self)
        #expect(!svg.contains("fill-opacity:0.4"))
        let text = TerminalClock(face, colors: .letters).render()
        #expect(text.contains("orange step 2") && text.contains("supergreen") && text.contains("no signal"))
    }

    @Test func aClockBandedByTheSourcesRatingsListsTheirWordsInItsLegend() throws {
        let day = LocalDay(year: 2026, month: 1, day: 14)
        let rated = slots(from: amsterdam.start(of: day), count: 24, minutes: 60) { 0.1 + Double($0) / 100 }
        var settings = Settings.defaults
        settings.colorMode = .levels
        func face(_ settings: Settings, _ slots: [SeriesSlot]) -> ClockFace {
            ClockFace(
                Snapshot.derive(
                    now: at("2026-01-14T10:00:00+01:00"), calendar: amsterdam, settings: settings, slots: slots, source: "tibber",
                    stale: false, updatedAt: nil))
        }
        // The declared table (Band.byLevel) in the source's words: a price's, read the other way
        // round for selling, and the GB index's for an intensity.
        let price = face(settings, rated)
        #expect(price.legend.map(\.text) == ["very cheap, cheap", "normal", "expensive", "very expensive"])
        #expect(price.legend.map(\.band) == [.green, .yellow, .orange, .red] && price.nowName == nil)
        #expect(ClockFace(json: Array(price.json.utf8)) == price, "the legend reaches the helper")
        settings.direction = .export
        #expect(face(settings, rated).legend.map(\.text) == ["very expensive, expensive", "normal", "cheap", "very cheap"])
        settings.direction = .import
        settings.signal = .co2
        settings.carbonSource = "gb-carbon-intensity"
        let grams = rated.map { slot in
            var slot = slot
            slot.quantity = .carbonIntensity
            return slot
        }
        #expect(face(settings, grams).legend.map(\.text) == ["very low, low", "moderate", "high", "very high"])
        let text = TerminalClock(face(settings, grams), colors: .letters).render()
        #expect(text.contains("very low, low") && text.contains("very high"))
        // Banded by thresholds, the legend is theirs.
        settings.colorMode = .absolute
        #expect(face(settings, grams).legend.map(\.text) == ["≤ 100", "≤ 200", "≤ 300", "> 300"])
    }
}
