import EnergyClockDomain
import EnergyClockTesting
import Testing

@Suite struct BandTests {
    let t = Thresholds(greenMax: 0.10, yellowMax: 0.20, orangeMax: 0.30)

    @Test(arguments: [
        (-0.5, Band.green), (0.0999999, .green), (0.10, .green), (0.1000001, .yellow),
        (0.19999, .yellow), (0.20, .yellow), (0.20001, .orange), (0.30, .orange), (0.300001, .red), (9.9, .red),
    ])
    func mapsAtAndAroundEachThreshold(price: Double, expected: Band) {
        #expect(Band.of(price, under: t) == expected)
    }

    @Test func eachBandHashesApartAndKeysItsOwnColour() {
        #expect(Set(Band.allCases.map(\.hashValue)).count == Band.allCases.count)
        let colors = Dictionary(uniqueKeysWithValues: Band.allCases.map { ($0, $0.defaultColor) })
        for band in Band.allCases { #expect(colors[band] == band.defaultColor) }
    }

    @Test func negativeThresholdsWork() {
        let negative = Thresholds(greenMax: -0.05, yellowMax: 0, orangeMax: 0.05)
        #expect(Band.of(-0.05, under: negative) == .green)
        #expect(Band.of(-0.01, under: negative) == .yellow)
        #expect(Band.of(0.0, under: negative) == .yellow)
        #expect(Band.of(0.01, under: negative) == .orange)
        #expect(Band.of(0.051, under: negative) == .red)
    }

    @Test func defaultColorsAreUpperCaseHexAndPlainRGB() {
        #expect(Band.green.defaultColor.hex == "#34C759")
        #expect(Band.green.defaultColor.rgb == "52,199,89")
        #expect(Band.yellow.defaultColor.hex == "#FFCC00")
        #expect(Band.orange.defaultColor.hex == "#FF9500")
        #expect(Band.red.defaultColor.hex == "#FF3B30")
        #expect(Band.red.defaultColor.rgb == "255,59,48")
    }

    @Test func everyChannelValueIsWrittenAsTwoUpperCaseDigitsAndReadBack() {
        func digits(_ value: UInt8) -> String {
            let text = String(value, radix: 16, uppercase: true)
            return value < 16 ? "0" + text : text
        }
        for value in UInt8.min...UInt8.max {
            let color = RGBColor(red: value, green: ~value, blue: value &* 7)
            #expect(color.hex == "#" + digits(value) + digits(~value) + digits(value &* 7))
            #expect(RGBColor(hex: color.hex) == color)
            #expect(RGBColor(hex: color.hex.lowercased()) == color)
        }
    }
}

@Suite struct QuartileTests {
    // Expected values worked out by hand with numpy's linear rule: h = (n − 1)·p.
    @Test func fourValues() throws {
        let q = try #require(Thresholds.quartiles(of: [4, 1, 3, 2]))
        #expect(q.greenMax == 1.75)  // h = 0.75 → 1 + 0.75·1
        #expect(q.yellowMax == 2.5)  // h = 1.5 → 2 + 0.5·1
        #expect(q.orangeMax == 3.25)  // h = 2.25 → 3 + 0.25·1
    }

    @Test func fiveValuesHitRanksExactly() throws {
        let q = try #require(Thresholds.quartiles(of: [10, 50, 30, 20, 40]))
        #expect(q == Thresholds(greenMax: 20, yellowMax: 30, orangeMax: 40))
    }

    @Test func unevenGaps() throws {
        // sorted 0.05 0.1 0.4 1.0 1.1 1.5; n − 1 = 5
        let q = try #require(Thresholds.quartiles(of: [1.5, 0.1, 1.0, 0.05, 1.1, 0.4]))
        #expect(abs(q.greenMax - 0.175) < 1e-12)  // h = 1.25 → 0.1 + 0.25·0.3
        #expect(abs(q.yellowMax - 0.7) < 1e-12)  // h = 2.5 → 0.4 + 0.5·0.6
        #expect(abs(q.orangeMax - 1.075) < 1e-12)  // h = 3.75 → 1.0 + 0.75·0.1
    }

    @Test func singleValueAndNone() {
        #expect(Thresholds.quartiles(of: [0.2]) == Thresholds(greenMax: 0.2, yellowMax: 0.2, orangeMax: 0.2))
        #expect(Thresholds.quartiles(of: []) == nil)
    }
}

@Suite struct NegativeBandTests {
    @Test func belowZeroIsABandOfItsOwnOnlyWhenAskedFor() {
        let t = Thresholds(greenMax: 0.1, yellowMax: 0.2, orangeMax: 0.3)
        #expect(Band.of(-0.01, under: t) == .green)
        #expect(Band.of(-0.01, under: t, negative: true) == .negative)
        #expect(Band.of(0, under: t, negative: true) == .green, "zero is not below zero")
        #expect(Band.of(-0.01, under: t, reversed: true) == .red)
        #expect(Band.of(-0.01, under: t, reversed: true, negative: true) == .negative)
        // Through the settings: a negative slot is blue, the others keep their bands.
        var settings = Settings.defaults
        settings.negativeBand = true
        settings.vatPercent = 0
        let now = at("2026-01-14T10:30:00+01:00")
        let hours = slots(from: at("2026-01-14T00:00:00+01:00"), count: 24, minutes: 60) { $0 == 10 ? -0.02 : 0.05 }
        let snapshot = Snapshot.derive(
            now: now, calendar: amsterdam, settings: settings, slots: hours, source: "energyzero", stale: false, updatedAt: nil)
        #expect(snapshot.current?.band == .negative)
        #expect(snapshot.next?.band == .green)
        #expect(settings.color(of: .negative).hex == "#0A84FF")
        #expect(Settings.restore(json: settings.json, sources: ["energyzero"]).settings.negativeBand)
    }
}
