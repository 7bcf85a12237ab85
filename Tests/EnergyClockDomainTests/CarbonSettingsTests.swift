import EnergyClockDomain
import EnergyClockTesting
import FoundationEssentials
import Testing

/// The settings of a `co2` profile, and how its intensities are shown and banded: pure values.
@Suite struct CarbonSettingsTests {
    func merged(_ json: String, over settings: Settings = .defaults) throws(SettingsError) -> Settings {
        try settings.merged(try SettingsPatch.parse(object: Array(json.utf8), sources: ["energyzero"]))
    }

    @Test func aCarbonProfileNeedsASourceAndThresholdsThatIncrease() throws {
        #expect(throws: SettingsError.self) { try merged(#"{"signal":"co2"}"#) }
        #expect {
            try merged(#"{"signal":"co2"}"#)
        } throws: {
            "\($0)".contains("a co2 profile shows the intensity of a carbon_source")
        }
        let co2 = try merged(#"{"signal":"co2","carbon_source":"gb-carbon-intensity","carbon_area":"rg41"}"#)
        #expect(co2.signal == .co2 && co2.carbonArea == "rg41")
        #expect(co2.unit == "gCO2/kWh" && co2.priceUnit == "EUR/kWh")
        #expect(co2.signalThresholds == Thresholds(greenMax: 100, yellowMax: 200, orangeMax: 300))
        #expect {
            try merged(#"{"co2_green_max":250}"#)
        } throws: {
            "\($0)" == "thresholds must increase strictly: co2_green_max 250 < co2_yellow_max 200 < co2_orange_max 300 does not hold"
        }
        // Both sets are checked, each under its own names.
        #expect { try merged(#"{"green_max":0.5}"#) } throws: { "\($0)".contains(": green_max 0.5 < yellow_max") }
        for bad in [#"{"co2_green_max":-1}"#, #"{"co2_orange_max":5000.5}"#, #"{"signal":"wind"}"#, #"{"carbon_area":"../x"}"#] {
            #expect(throws: SettingsError.self, "\(bad)") { try merged(bad) }
        }
        #expect(try merged(#"{"co2_green_max":50,"co2_yellow_max":60,"co2_orange_max":5000}"#).co2Thresholds.orangeMax == 5000)
    }

    @Test func aStoredCarbonProfileThatBreaksARuleIsRepairedFieldByField() {
        var stored = Settings.defaults
        stored.signal = .co2
        stored.carbonSource = ""
        stored.co2Thresholds = Thresholds(greenMax: 300, yellowMax: 200, orangeMax: 100)
        stored.vatPercent = 9
        let restored = Settings.restore(json: stored.json, sources: ["energyzero"])
        #expect(restored.settings.signal == .price)
        #expect(restored.settings.co2Thresholds == Settings.defaults.co2Thresholds)
        #expect(restored.settings.thresholds == Settings.defaults.thresholds)
        #expect(restored.settings.vatPercent == 9)
        #expect(restored.repairs.count == 2, "\(restored.repairs)")
    }

    /// Half-hour intensities from 12:00 to 14:00 on 5 December 2026 in Amsterdam (11:00Z to 13:00Z).
    static let day = LocalDay(year: 2026, month: 12, day: 5)
    static func intensities(_ values: [Double]) -> [SeriesSlot] {
        let start = at("2026-12-05T11:00:00Z")
        return values.enumerated().map { i, value in
            SeriesSlot(
                start: start.addingTimeInterval(Double(i) * 1800), end: start.addingTimeInterval(Double(i + 1) * 1800), value: value,
                quantity: .carbonIntensity, level: .normal, provenance: .forecast("gb-carbon-intensity", issued: start))
        }
    }

    @Test func anIntensityIsShownAsItIsAndBandedByTheCarbonThresholds() throws {
        var settings = Settings.defaults
        settings.signal = .co2
        settings.carbonSource = "gb-carbon-intensity"
        settings.co2Thresholds = Thresholds(greenMax: 150, yellowMax: 180, orangeMax: 200)
        // VAT, markup, surcharge and a grid fee are a price's, never an intensity's.
        settings.vatPercent = 21
        settings.markupPercent = 10
        settings.surcharge = 0.1
        let slots = Self.intensities([120.04, 160.06, 190, 230.5])
        settings.resolution = .native
        let native = Snapshot.Basis(day: Self.day, calendar: amsterdam, settings: settings, slots: slots, rates: ExchangeRates())
            .snapshot(at: at("2026-12-05T11:40:00Z"), source: "gb-carbon-intensity", stale: false, updatedAt: nil)
        // One decimal: 120.04 reads 120, 160.06 reads 160.1.
        #expect(native.today.map(\.price) == [120, 160.1, 190, 230.5])
        #expect(native.today.map(\.band) == [.green, .yellow, .orange, .red])
        #expect(native.current?.price == 160.1 && native.thresholds == settings.co2Thresholds)
        #expect(native.today.allSatisfy { $0.components.vat == 0 && $0.components.markup == 0 && $0.components.surcharge == 0 })
        // Hourly: (120.04 + 160.06) / 2 = 140.05, which reads 140.1 (green); (190 + 230.5) / 2 = 210.25 → 210.3 (red).
        settings.resolution = .hour
        let hourly = Snapshot.Basis(day: Self.day, calendar: amsterdam, settings: settings, slots: slots, rates: ExchangeRates())
            .snapshot(at: at("2026-12-05T11:40:00Z"), source: "gb-carbon-intensity", stale: false, updatedAt: nil)
        #expect(hourly.today.map(\.price) == [140.1, 210.3])
        #expect(hourly.today.map(\.band) == [.green, .red])
        // Relative: the quartiles of the four as shown (120, 160.1, 190, 230.5; numpy's linear): 150.075, 175.05, 200.125.
        settings.resolution = .native
        settings.colorMode = .relative
        settings.historyDays = 1
        let relative = Snapshot.Basis(day: Self.day, calendar: amsterdam, settings: settings, slots: slots, rates: ExchangeRates())
        let quartiles = try #require(
            relative.snapshot(at: at("2026-12-05T11:40:00Z"), source: "x", stale: false, updatedAt: nil).thresholds)
        #expect(abs(quartiles.greenMax - 150.075) < 1e-9 && abs(quartiles.yellowMax - 175.05) < 1e-9)
        #expect(abs(quartiles.orangeMax - 200.125) < 1e-9)
    }

    @Test func levelsBandEachSlotByTheSourcesOwnRatingAsDeclared() {
        var settings = Settings.defaults
        settings.signal = .co2
        settings.carbonSource = "gb-carbon-intensity"
        settings.resolution = .native
        settings.colorMode = .levels
        let levels: [PriceLevel?] = [.veryCheap, .cheap, .normal, .expensive, .veryExpensive, nil]
        let start = at("2026-12-05T11:00:00Z")
        let slots = levels.enumerated().map { i, level in
            SeriesSlot(
                start: start.addingTimeInterval(Double(i) * 1800), end: start.addingTimeInterval(Double(i + 1) * 1800), value: 150,
                quantity: .carbonIntensity, level: level)
        }
        func bands(_ settings: Settings) -> [Band?] {
            Snapshot.derive(
                now: start, calendar: amsterdam, settings: settings, slots: slots, source: "gb-carbon-intensity", stale: false,
                updatedAt: nil
            ).today.map(\.band)
        }
        // The table: very low and low green, moderate yellow, high orange, very high red; the
        // intensity itself (150 everywhere) plays no part, and an unrated slot has no band.
        #expect(bands(settings) == [.green, .green, .yellow, .orange, .red, nil])
        settings.direction = .export
        #expect(bands(settings) == [.red, .orange, .yellow, .green, .green, nil])
        #expect(Band.byLevel.count == PriceLevel.allCases.count)
    }

    @Test func fiveMinuteValuesAreShownAsTheMeanOfTheirHour() {
        // Energinet's twelve values from 12:00: 90, 92, …, 112; their mean is 101.
        var settings = Settings.defaults
        settings.signal = .co2
        settings.carbonSource = "energinet-co2"
        settings.carbonArea = "DK1"
        let start = at("2026-12-05T11:00:00Z")
        let fives = (0..<12).map { i in
            SeriesSlot(
                start: start.addingTimeInterval(Double(i) * 300), end: start.addingTimeInterval(Double(i + 1) * 300),
                value: 90 + 2 * Double(i), quantity: .carbonIntensity, provenance: .forecast("energinet-co2", issued: start))
        }
        let snapshot = Snapshot.derive(
            now: at("2026-12-05T11:20:00Z"), calendar: amsterdam, settings: settings, slots: fives, source: "energinet-co2", stale: false,
            updatedAt: nil)
        #expect(snapshot.today.map(\.price) == [101] && snapshot.current?.band == .yellow)
        #expect(snapshot.today.first?.slot.provenance == .forecast("energinet-co2", issued: start))
    }

    @Test func changingOnlyTheCarbonThresholdsRebandsWhatIsPriced() {
        var settings = Settings.defaults
        settings.signal = .co2
        settings.carbonSource = "gb-carbon-intensity"
        settings.resolution = .native
        let slots = Self.intensities([120, 160, 190, 230])
        let before = Snapshot.Basis(day: Self.day, calendar: amsterdam, settings: settings, slots: slots, rates: ExchangeRates())
        var changed = settings
        changed.co2Thresholds = Thresholds(greenMax: 170, yellowMax: 195, orangeMax: 220)
        #expect(settings.pricesAlike(changed))
        let now = at("2026-12-05T11:40:00Z")
        let rebanded = before.rebanded(under: changed).snapshot(at: now, source: "x", stale: false, updatedAt: nil)
        let fresh = Snapshot.Basis(day: Self.day, calendar: amsterdam, settings: changed, slots: slots, rates: ExchangeRates())
            .snapshot(at: now, source: "x", stale: false, updatedAt: nil)
        #expect(rebanded == fresh)
        #expect(fresh.today.map(\.band) == [.green, .green, .yellow, .red])
        var switched = settings
        switched.signal = .price
        #expect(!settings.pricesAlike(switched), "a change of signal shows other values")
    }
}
