import EnergyClockDomain
import EnergyClockSources
import EnergyClockSupport
import EnergyClockTesting
import Foundation
import Testing

/// Faults found by trying energyclock from the outside: each case here once went wrong.
@Suite struct OutsideFaultTests {
    let ids = ["energyzero", "entsoe", "awattar", "energycharts", "custom"]

    func update(_ json: String, on settings: Settings = .defaults) throws -> Settings {
        try settings.merged(SettingsPatch.parse(object: Array(json.utf8), sources: ids))
    }

    @Test(arguments: [
        #"{"green_max":0.1000004,"yellow_max":0.2000006}"#,
        #"{"green_max":-0.0000004,"vat_percent":20.9999996}"#,
        #"{"surcharge":0.0000005,"orange_max":9.9999995}"#,
        #"{"green_max":0.123456489,"yellow_max":0.123457123,"orange_max":0.2}"#,
    ])
    func whatIsAcknowledgedIsExactlyWhatARestartRestores(json: String) throws {
        let accepted = try update(json)
        let restored = Settings.restore(json: accepted.json, sources: ids)
        #expect(restored.repairs.isEmpty)
        #expect(restored.settings == accepted)
    }

    @Test func valuesEqualAfterRoundingAreRefusedAsNotIncreasing() {
        // Both read 0.1 once rounded to the six decimals that are stored and published.
        #expect(throws: SettingsError.thresholdsNotIncreasing(green: 0.1, yellow: 0.1, orange: 0.3)) {
            try update(#"{"green_max":0.1000001,"yellow_max":0.1000004}"#)
        }
    }

    @Test func noAcceptedStateIsTooLargeToReadBack() throws {
        let longest = "https://example.org/" + String(repeating: "p", count: SettingsField.maxURLBytes - 20)
        var settings = try update(
            #"{"custom_url":"\#(longest)","fallback_sources":["entsoe","awattar","energycharts","custom"],"brightness":{"green":1,"yellow":2,"orange":3,"red":4}}"#
        )
        settings.palette = Dictionary(uniqueKeysWithValues: Band.allCases.map { ($0, RGBColor(red: 1, green: 2, blue: 3)) })
        #expect(settings.json.utf8.count < SettingsPatch.maxPayloadBytes)
        #expect(Settings.restore(json: settings.json, sources: ids).settings == settings)
        #expect {
            try update(#"{"custom_url":"\#(longest)q"}"#)
        } throws: { "\($0)".contains("at most \(SettingsField.maxURLBytes) bytes") }
    }

    @Test func storedSettingsAreReadLeniently() throws {
        // A field from a newer version is ignored; one that no longer checks out falls back alone.
        let restored = Settings.restore(json: #"{"green_max":0.05,"led_ring":{"leds":24},"history_days":0,"zone":"BE"}"#, sources: ids)
        #expect(restored.unknownFields == ["led_ring"])
        #expect(restored.repairs.count == 1)
        #expect(restored.repairs.first?.contains("history_days must be a whole number from 1 to 60") == true)
        #expect(restored.settings.thresholds.greenMax == 0.05)
        #expect(restored.settings.zone == "BE")
        #expect(restored.settings.historyDays == Settings.defaults.historyDays)

        // A state older versions accepted but this one refuses is repaired, not refused.
        let own = Settings.restore(json: #"{"source":"entsoe","fallback_sources":["energyzero","entsoe"]}"#, sources: ids)
        #expect(own.settings.fallbackSources == ["energyzero"])
        #expect(own.repairs.count == 1)
        let crossed = Settings.restore(json: #"{"green_max":0.3,"yellow_max":0.2}"#, sources: ids)
        #expect(crossed.settings.thresholds == Settings.defaults.thresholds)
        #expect(Settings.restore(json: "[1]", sources: ids).settings == .defaults)
    }

    @Test func fallbackListsWithAHoleOrTheChosenSourceAreRefused() throws {
        #expect { try SettingsPatch.parse(field: "fallback_sources", plain: Array("custom,,energyzero".utf8), sources: ids) } throws: {
            "\($0)".contains("empty entry")
        }
        #expect { try update(#"{"fallback_sources":[""]}"#) } throws: { "\($0)".contains("empty entry") }
        #expect { try update(#"{"fallback_sources":["energyzero"]}"#) } throws: { "\($0)".contains("cannot be its own fallback") }
        let both = try update(#"{"source":"entsoe","fallback_sources":["energyzero"]}"#)
        #expect { try both.merged(SettingsPatch([.source: .text("energyzero")])) } throws: { "\($0)".contains("own fallback") }
        #expect(
            try SettingsPatch.parse(field: "fallback_sources", plain: Array(" ".utf8), sources: ids).values[.fallbackSources] == .list([]))
    }

    @Test func theBandFollowsThePublishedPrice() throws {
        // 0.07 × 1.21 is 0.08470000000000001 in binary, published as 0.0847: green at green_max 0.0847.
        var settings = try update(#"{"green_max":0.0847,"yellow_max":0.1,"orange_max":0.2}"#)
        settings.vatPercent = 21
        let start = at("2026-01-15T00:00:00+01:00")
        let day = slots(from: start, count: 24, minutes: 60) { _ in 0.07 }
        let snapshot = Snapshot.derive(
            now: start, calendar: amsterdam, settings: settings, slots: day,
            source: "custom", stale: false, updatedAt: nil)
        #expect(DecimalFormat.string(try #require(snapshot.current).price) == "0.0847")
        #expect(snapshot.current?.band == .green)
    }

    @Test func relativeBandsCompareTheNumbersAsPublished() throws {
        // Quartiles that fall between six-decimal values: every band must agree with the
        // published price and the published thresholds, compared as the text a user reads.
        var settings = Settings.defaults
        settings.colorMode = .relative
        settings.vatPercent = 0
        settings.historyDays = 1
        let start = at("2026-01-15T00:00:00+01:00")
        let prices = [0.1000004, 0.1000006, 0.2000001, 0.2000009, 0.3000002, 0.3000008, 0.1000005, 0.2000005]
        let day = slots(from: start, count: 24, minutes: 60) { prices[$0 % prices.count] }
        let snapshot = Snapshot.derive(
            now: start, calendar: amsterdam, settings: settings, slots: day,
            source: "custom", stale: false, updatedAt: nil)
        let t = try #require(snapshot.thresholds)
        let shown = [t.greenMax, t.yellowMax, t.orangeMax].map { Double(DecimalFormat.string($0))! }
        for slot in snapshot.today {
            let price = Double(DecimalFormat.string(slot.price))!
            let expected: Band = price <= shown[0] ? .green : price <= shown[1] ? .yellow : price <= shown[2] ? .orange : .red
            #expect(slot.band == expected, "\(price) under \(shown)")
        }
    }

    @Test func theLastCustomSlotLastsAsLongAsTheSlotBeforeIt() throws {
        let t = 1_768_431_600
        let slots = try CustomSource.parse(Array(#"[{"start":\#(t),"end":\#(t + 900),"price":1},{"start":\#(t + 3600),"price":2}]"#.utf8))
        #expect(slots.map(\.duration) == [900, 900])
        #expect(slots.last?.start == Date(timeIntervalSince1970: Double(t + 3600)))
    }

    @Test func slotsShorterThanASecondAreRefused() {
        let body = #"[{"start":1768431600,"end":1768431600.5,"price":1},{"start":1768431600.5,"end":1768431601,"price":2}]"#
        #expect { try CustomSource.parse(Array(body.utf8)) } throws: { "\($0)".contains("at least 1 second") }
    }

    @Test func anHourRowCoversOneLocalHourWhateverTheSlotLength() {
        // 40-minute slots: 00:00–00:40 at 1, 00:40–01:20 at 2, 01:20–02:00 at 4.
        let start = at("2026-01-15T00:00:00+01:00")
        let hourly = slots(from: start, count: 3, minutes: 40) { [1.0, 2.0, 4.0][$0] }.at(.hour, in: amsterdam)
        #expect(hourly.map(\.start) == [start, start.addingTimeInterval(3600)])
        #expect(hourly.map(\.duration) == [3600, 3600])
        // (40·1 + 20·2) / 60 and (20·2 + 40·4) / 60, by hand.
        #expect(abs(hourly[0].value - 80.0 / 60) < 1e-12)
        #expect(abs(hourly[1].value - 200.0 / 60) < 1e-12)
        // A two-hour slot is two hour rows.
        let long = [SeriesSlot(start: start, end: start.addingTimeInterval(7200), value: 3)].at(.hour, in: amsterdam)
        #expect(long.map(\.duration) == [3600, 3600])
    }

    @Test func quotedOutsideTextCannotForgeALineOrFloodTheLog() {
        let forged = "NL\n2099-01-01T00:00:00Z ERROR [manager] FORGED LINE"
        #expect(!Quote.clip(forged).contains("\n"))
        #expect(Quote.clip(forged).contains("\\n2099"))
        let huge = String(repeating: "x", count: 60_000)
        #expect(Quote.clip(huge).utf8.count < 300)
        #expect(Quote.clip(huge).hasSuffix("(60000 bytes)"))
        #expect(Quote.clip("\u{1B}[31mred") == "\\u{1B}[31mred")
        let error = SettingsError.invalidChoice(field: "zone", value: forged, allowed: ["NL"])
        #expect(!error.description.contains("\n"))
    }

    @Test func repeatedRefusalsAreLoggedOncePerInterval() {
        var throttle = LogThrottle(interval: 10)
        let t0 = ContinuousClock.now
        #expect(throttle.admit("badJSON", now: t0) == (true, 0))
        for i in 1...999 { #expect(throttle.admit("badJSON", now: t0 + .milliseconds(i)).allowed == false) }
        #expect(throttle.admit("tooLarge", now: t0 + .seconds(1)) == (true, 0))
        #expect(throttle.admit("badJSON", now: t0 + .seconds(11)) == (true, 999))
    }
}
