import EnergyClockDomain
import EnergyClockFace
import EnergyClockTesting
import Foundation
import Testing

/// A day the market has not priced yet, drawn from the forecast: paler, and the legend says so.
@Suite struct ForecastClockTests {
    /// 14 January 2026 at 10:00 with today official and a forecast of the next two days, cheap at
    /// night and dear in the evening.
    var snapshot: Snapshot {
        let day = LocalDay(year: 2026, month: 1, day: 14)
        let today = slots(from: amsterdam.start(of: day), count: 24, minutes: 60) { 0.05 + Double($0) * 0.01 }
            .stamped(.official("energyzero"))
        let forecast = slots(from: amsterdam.start(of: day.adding(days: 1)), count: 48, minutes: 60) { i in
            [0.04, 0.12, 0.22, 0.35][min(3, (i % 24) / 6)]
        }.stamped(.forecast("epex-predictor", issued: at("2026-01-14T06:00:00Z")))
        var settings = Settings.defaults
        settings.vatPercent = 0
        return Snapshot.derive(
            now: at("2026-01-14T10:00:00+01:00"), calendar: amsterdam, settings: settings, slots: today, forecast: forecast,
            source: "energyzero", stale: false, updatedAt: nil)
    }

    @Test func tomorrowBeforeItsPricesIsTheForecastMarkedAsSuch() async throws {
        let face = ClockFace(snapshot, tomorrow: true)
        #expect(face.sectors.count == 24)
        #expect(face.sectors.allSatisfy { $0.forecast == [true] })
        #expect(face.sectors[0].parts == [.green] && face.sectors[18].parts == [.red])
        #expect(face.forecastProvider == "epex-predictor")
        #expect(face.caption == "tomorrow (forecast)")
        #expect(face.forecastNote == "pale: forecast (epex-predictor)")
        #expect(ClockFace(json: Array(face.json.utf8)) == face, "the forecast reaches the helper")
        // Today is all official: nothing pale, no note, and its JSON as before.
        let today = ClockFace(snapshot)
        #expect(today.sectors.allSatisfy { $0.forecast.isEmpty } && today.forecastNote == nil)
        #expect(!today.json.contains("forecast"))

        // Drawn by the helper, as the daemon draws it: cairo numbers what it has drawn in a process
        // before, and the golden pictures are drawn in this one.
        let renderer = ClockRenderer.besideThisProgram
        let svg = String(decoding: try await renderer.draw(face).svg, as: UTF8.self)
        #expect(svg.components(separatedBy: "fill-opacity:0.4").count - 1 == 24, "every forecast wedge is paler")
        let plain = String(decoding: try await renderer.draw(today).svg, as: UTF8.self)
        #expect(!plain.contains("fill-opacity:0.4"))
        let text = TerminalClock(face, colors: .letters).render()
        #expect(text.contains("gggg") && text.contains("rrrr"), "forecast parts in lower case")
        #expect(text.contains("forecast by epex-predictor") && text.contains("\u{2592} forecast"))
    }
}

/// A carbon clock: the intensity and its unit in the centre and the legend, and the carbon
/// source's own forecast drawn as it is, since it is all a carbon clock has.
@Suite struct CarbonClockTests {
    @Test func aCarbonClockNamesItsUnitAndDrawsItsSourcesForecastPlain() async throws {
        let day = LocalDay(year: 2026, month: 1, day: 14)
        let grams = slots(from: amsterdam.start(of: day), count: 24, minutes: 60) { 80 + Double($0) * 10 }.map { slot in
            var slot = slot
            slot.quantity = .carbonIntensity
            return slot
        }.stamped(.forecast("gb-carbon-intensity", issued: at("2026-01-14T06:00:00Z")))
        var settings = Settings.defaults
        settings.signal = .co2
        settings.carbonSource = "gb-carbon-intensity"
        let snapshot = Snapshot.derive(
            now: at("2026-01-14T10:00:00+01:00"), calendar: amsterdam, settings: settings, slots: grams, source: "gb-carbon-intensity",
            stale: false, updatedAt: nil)
        let face = ClockFace(snapshot)
        #expect(face.price == 180 && face.band == .yellow && face.unit == "gCO2/kWh")
        #expect(face.legend.map(\.text) == ["≤ 100", "≤ 200", "≤ 300", "> 300"])
        #expect(face.sectors.allSatisfy { $0.forecast.isEmpty }, "not pale")
        #expect(face.noun == "intensity" && face.nothingNow == "no intensity now")
        let svg = String(decoding: try await ClockRenderer.besideThisProgram.draw(face).svg, as: UTF8.self)
        #expect(!svg.contains("fill-opacity:0.4"))
        let text = TerminalClock(face, colors: .letters).render()
        #expect(text.contains("180 gCO2/kWh") && text.contains("no intensity"))
    }
}
