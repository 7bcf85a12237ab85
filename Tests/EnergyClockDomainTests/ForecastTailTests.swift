import EnergyClockDomain
import EnergyClockTesting
import Foundation
import Testing

/// The forecast beyond the official prices: shown apart, priced and banded as they are, and gone
/// wherever an official price comes.
@Suite struct ForecastTailTests {
    let day = LocalDay(year: 2026, month: 3, day: 2)
    let issued = at("2026-03-02T06:00:00Z")

    /// The official quarter hours of `days` local days from `day` at 0.08 EUR/kWh.
    func official(days: Int) -> [SeriesSlot] {
        slots(from: amsterdam.start(of: day), count: days * 96, minutes: 15) { _ in 0.08 }.stamped(.official("energyzero"))
    }

    /// A forecast of quarter hours from noon of `day` over sixty hours: each hour's four quarters at
    /// 0.10, 0.12, 0.14 and 0.16, so its hourly mean is 0.13.
    var forecast: [SeriesSlot] {
        slots(from: amsterdam.start(of: day).addingTimeInterval(12 * 3600), count: 60 * 4, minutes: 15) { 0.10 + Double($0 % 4) * 0.02 }
            .stamped(.forecast("epex-predictor", issued: issued))
    }

    func snapshot(official: [SeriesSlot], resolution: Resolution = .hour, at time: String = "2026-03-02T09:30:00Z") -> Snapshot {
        var settings = Settings.defaults
        settings.resolution = resolution
        return Snapshot.derive(
            now: at(time), calendar: amsterdam, settings: settings, slots: official, forecast: forecast, source: "energyzero",
            stale: false, updatedAt: nil)
    }

    @Test func theForecastFillsOnlyTheHoursNoOfficialPriceCovers() throws {
        let before = snapshot(official: official(days: 1))
        #expect(before.today.count == 24 && before.tomorrow.isEmpty)
        // Tomorrow and the day after: 48 hours, each the mean of its quarters.
        #expect(before.forecast.count == 48)
        #expect(before.forecast.first?.slot.start == amsterdam.start(of: day.adding(days: 1)))
        let first = try #require(before.forecast.first)
        // 0.13 EUR/kWh with 21 % VAT is 0.1573: yellow under the default thresholds (0.1, 0.2, 0.3).
        #expect(first.price == 0.1573)
        #expect(first.band == .yellow)
        #expect(first.slot.provenance == .forecast("epex-predictor", issued: issued))
        // What describes now never comes from the forecast.
        #expect(before.current?.slot.provenance.isOfficial == true)

        // Tomorrow's official prices arrive: its forecast is gone, the day after's stays.
        let after = snapshot(official: official(days: 2))
        #expect(after.tomorrow.count == 24)
        #expect(after.forecast.count == 24)
        #expect(after.forecast.first?.slot.start == amsterdam.start(of: day.adding(days: 2)))
        #expect(after.forecast.allSatisfy { !$0.slot.provenance.isOfficial })
    }

    @Test func atNativeResolutionTheForecastKeepsItsQuarters() {
        let native = snapshot(official: official(days: 1), resolution: .native)
        #expect(native.forecast.count == 48 * 4)
        #expect(native.forecast.prefix(4).map(\.price) == [0.121, 0.1452, 0.1694, 0.1936])
    }

    @Test func withoutOfficialPricesTheForecastIsShownFromTheStartOfToday() {
        let bare = snapshot(official: [])
        #expect(bare.today.isEmpty && bare.current == nil, "no invented price for now")
        #expect(bare.forecast.first?.slot.start == amsterdam.start(of: day).addingTimeInterval(12 * 3600))
        #expect(bare.forecast.count == 60)
    }
}
