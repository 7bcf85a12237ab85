import EnergyClockDomain
import EnergyClockTesting
import Foundation
import Testing

/// One series type: slots of a quantity with where each value came from; official values win.
@Suite struct SeriesTests {
    let start = at("2026-03-02T00:00:00Z")

    /// `count` hourly slots from `start + offset` hours, of `provenance`, valued by their index.
    func hours(_ count: Int, from offset: Int = 0, _ provenance: Provenance, value: (Int) -> Double = { Double($0) / 100 }) -> [SeriesSlot]
    {
        (0..<count).map { i in
            SeriesSlot(
                start: start.addingTimeInterval(Double(offset + i) * 3600), end: start.addingTimeInterval(Double(offset + i + 1) * 3600),
                value: value(offset + i), provenance: provenance)
        }
    }

    let forecast = Provenance.forecast("epex-predictor", issued: at("2026-03-01T06:00:00Z"))

    @Test func aForecastFillsOnlyWhereNoOfficialValueIs() {
        let official = hours(24, .official("energyzero"))
        let predicted = hours(48, forecast) { _ in 9 }
        let merged = official.replacing(with: predicted)
        #expect(merged.count == 48)
        #expect(Array(merged[..<24]) == official, "a forecast never replaces an official value")
        #expect(merged[24...].allSatisfy { $0.provenance == forecast && $0.value == 9 }, "it fills what the market has not priced")
    }

    @Test func anOfficialValueReplacesTheForecastTheMomentItArrives() {
        let predicted = hours(48, forecast) { _ in 9 }
        let tomorrow = hours(24, from: 24, .official("energyzero"))
        let merged = predicted.replacing(with: tomorrow)
        #expect(merged.count == 48)
        #expect(merged[..<24].allSatisfy { !$0.provenance.isOfficial }, "the day no official value covers keeps its forecast")
        #expect(Array(merged[24...]) == tomorrow)
        // A newer forecast replaces the older one, but still not the official day.
        let newer = Provenance.forecast("epex-predictor", issued: at("2026-03-02T06:00:00Z"))
        let again = merged.replacing(with: hours(48, newer) { _ in 7 })
        #expect(again[..<24].allSatisfy { $0.provenance == newer && $0.value == 7 })
        #expect(Array(again[24...]) == tomorrow)
    }

    @Test func officialValuesReplaceOfficialValuesAsBefore() {
        let quarters = (0..<8).map { i in
            SeriesSlot(
                start: start.addingTimeInterval(Double(i) * 900), end: start.addingTimeInterval(Double(i + 1) * 900), value: 0.1,
                provenance: .official("entsoe"))
        }
        let hour = hours(1, .official("entsoe")) { _ in 0.7 }
        #expect(quarters.replacing(with: hour) == hour + quarters[4...])
    }

    @Test func eachQuantityNamesItsUnitAndItsLimit() {
        #expect(Quantity.price(.eur).unit == "EUR/kWh" && Quantity.price(Currency("SEK")!).unit == "SEK/kWh")
        #expect(Quantity.carbonIntensity.unit == "gCO2/kWh")
        #expect(Quantity(code: "EUR") == .price(.eur) && Quantity(code: "gCO2/kWh") == .carbonIntensity && Quantity(code: "XYZ") == nil)
        #expect(Quantity.price(.eur).limit == 10 && Quantity.carbonIntensity.limit == 5_000)
    }

    @Test func aCarbonSeriesIsValidatedInItsOwnUnit() throws {
        let intensity = (0..<3).map { i in
            SeriesSlot(
                start: start.addingTimeInterval(Double(i) * 1800), end: start.addingTimeInterval(Double(i + 1) * 1800),
                value: [120, 480, 4_800][i], quantity: .carbonIntensity, provenance: .official("carbon-intensity-gb"))
        }
        #expect(try intensity.validated() == intensity, "480 gCO2/kWh is no price beyond 10 EUR/kWh")
        var beyond = intensity
        beyond[2].value = 5_200
        #expect(throws: SlotProblem.outOfRange(value: 5_200, at: beyond[2].start, limit: 5_000, quantity: .carbonIntensity)) {
            try beyond.validated()
        }
        let problem = SlotProblem.outOfRange(value: 5_200, at: beyond[2].start, limit: 5_000, quantity: .carbonIntensity)
        #expect(problem.description == "intensity 5200 gCO2/kWh at 2026-03-02T01:00:00Z is beyond ±5000")
    }

    @Test func bandsComeFromTheValuesWhateverTheyMeasure() throws {
        let intensity = [90.0, 150, 210, 300, 420, 510, 120, 180]
        let thresholds = try #require(Thresholds.quartiles(of: intensity))
        let bands = intensity.map { Band.of($0, under: thresholds) }
        #expect(bands.first == .green && bands[5] == .red, "the cleanest quarter green, the dirtiest red")
        // The same as for prices of the same numbers.
        let prices = intensity.map { $0 / 1_000 }
        let priceThresholds = try #require(Thresholds.quartiles(of: prices))
        #expect(prices.map { Band.of($0, under: priceThresholds) } == bands)
    }
}
