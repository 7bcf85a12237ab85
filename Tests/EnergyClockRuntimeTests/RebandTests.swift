import EnergyClockDomain
import EnergyClockRuntime
import EnergyClockTesting
import Foundation
import Testing

/// A change of what decides the bands only (thresholds, direction, the negative band) bands the
/// kept day's priced slots again instead of pricing them afresh; what shows must not tell the two
/// ways apart.
@Suite struct RebandTests {
    let day = LocalDay(year: 2025, month: 12, day: 17)

    @Test func onlyTheBandingSettingsMayDifferForPricesToBeAlike() {
        let base = Settings.defaults
        var banded = base
        banded.thresholds = Thresholds(greenMax: -0.2, yellowMax: 0.01, orangeMax: 0.02)
        banded.direction = .export
        banded.negativeBand = true
        #expect(base.pricesAlike(banded) && banded.pricesAlike(base))
        let priced: [(String, (inout Settings) -> Void)] = [
            ("vat_percent", { $0.vatPercent = 9 }), ("surcharge", { $0.surcharge = 0.01 }), ("currency", { $0.currency = "SEK" }),
            ("resolution", { $0.resolution = .native }), ("color_mode", { $0.colorMode = .relative }),
            ("history_days", { $0.historyDays = 3 }), ("kind", { $0.kind = .export }), ("price_decimals", { $0.priceDecimals = 2 }),
            ("grid_fee", { $0.gridFee = GridFee(defaultFee: 0.05, periods: []) }), ("source", { $0.source = "entsoe" }),
        ]
        for (name, change) in priced {
            var other = banded
            change(&other)
            #expect(!banded.pricesAlike(other), "\(name) changes what a slot costs, or may")
        }
    }

    @Test func aChangeOfBandsOnlyShowsWhatADerivationAfreshWould() async throws {
        let clock = ManualClock(start: at("2025-12-17T10:20:00+01:00"))
        // Prices from -0.05 to 0.18, so that the negative band has slots to take.
        let slots = quarterDays(around: day).map { SeriesSlot(start: $0.start, end: $0.end, value: $0.value - 0.05) }
        let source = MemorySource(slots: slots)
        let (manager, output) = try makeManager(clock: clock, source: source)
        let run = await start(manager, clock)
        defer { run.cancel() }
        let changes = [
            #"{"green_max": 0.05, "yellow_max": 0.1, "orange_max": 0.15}"#,
            #"{"negative_band": true}"#,
            #"{"direction": "export"}"#,
            #"{"green_max": -0.5, "yellow_max": 0, "orange_max": 0.5}"#,
            #"{"color_mode": "relative"}"#,
            #"{"direction": "import", "negative_band": false}"#,
            #"{"vat_percent": 0, "color_mode": "absolute"}"#,
            #"{"green_max": -0.01, "yellow_max": 0.02}"#,
        ]
        var bandsSeen: Set<[Band?]> = []
        for change in changes {
            await manager.apply([request(change)])
            let shown = try #require(output.last)
            #expect(shown == (try await derivedAfresh(output, manager, source)), "after \(change)")
            bandsSeen.insert(shown.today.map(\.band))
        }
        // The changes moved the bands each time, so a day left as it was would have shown.
        #expect(bandsSeen.count == changes.count)
    }
}
