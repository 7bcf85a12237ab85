import EnergyClockDomain
import EnergyClockSupport
import EnergyClockTesting
import Foundation
import Testing

/// The price a household pays: markup, surcharge, time-of-use grid fees, VAT, and its currency.
@Suite struct TariffTests {
    let copenhagen = LocalCalendar(identifier: "Europe/Copenhagen")!

    func schedule(_ json: String) throws -> GridFee {
        try GridFee(json: try #require(JSONValue.parse(Array(json.utf8))))
    }

    /// The fee of one local minute, `day` as `YYYY-MM-DD` and `time` as `HH:MM`.
    func fee(_ fee: GridFee, _ day: String, _ time: String) -> Double {
        let parts = time.split(separator: ":").map { Int($0)! }
        return fee.fee(minute: parts[0] * 60 + parts[1], of: LocalDay(parsing: day)!)
    }

    @Test func periodEdgesWeekdaysAndMonths() throws {
        // A Danish-style winter peak on working days, and a night rate every day.
        let danish = try schedule(
            #"{"default":0.10,"periods":[{"from":"17:00","to":"21:00","fee":0.50,"days":["mon","tue","wed","thu","fri"],"months":[10,11,12,1,2,3]},{"from":"22:00","to":"06:00","fee":0.02}]}"#
        )
        // 2026-01-14 is a Wednesday, 2026-01-17 a Saturday, 2026-07-15 a Wednesday in summer.
        for (time, expected) in [
            ("16:59", 0.10), ("17:00", 0.50), ("20:59", 0.50), ("21:00", 0.10), ("21:59", 0.10), ("22:00", 0.02),
            ("23:59", 0.02), ("00:00", 0.02), ("05:59", 0.02), ("06:00", 0.10),
        ] {
            #expect(fee(danish, "2026-01-14", time) == expected, "Wednesday \(time)")
        }
        #expect(fee(danish, "2026-01-17", "18:00") == 0.10, "no peak on Saturday")
        #expect(fee(danish, "2026-07-15", "18:00") == 0.10, "no peak in July")
        #expect(fee(danish, "2026-07-15", "23:00") == 0.02, "the night rate has no filters")
    }

    @Test func aWrappingPeriodBelongsToTheDayItStartedOn() throws {
        let fridayNight = try schedule(#"{"default":0,"periods":[{"from":"22:00","to":"06:00","fee":0.3,"days":["fri"]}]}"#)
        // 2026-01-16 is a Friday.
        #expect(fee(fridayNight, "2026-01-16", "23:00") == 0.3)
        #expect(fee(fridayNight, "2026-01-17", "03:00") == 0.3, "Saturday morning is still Friday night")
        #expect(fee(fridayNight, "2026-01-16", "03:00") == 0, "Friday morning is Thursday night")
        #expect(fee(fridayNight, "2026-01-17", "23:00") == 0)
        let untilMidnight = try schedule(#"{"default":0,"periods":[{"from":"20:00","to":"24:00","fee":1}]}"#)
        #expect(fee(untilMidnight, "2026-01-16", "23:59") == 1)
        #expect(fee(untilMidnight, "2026-01-17", "00:00") == 0)
    }

    @Test func aSlotStraddlingAnEdgePaysEachPartByTime() throws {
        let peak = try schedule(#"{"default":0.10,"periods":[{"from":"17:00","to":"21:00","fee":0.50}]}"#)
        // 16:30–17:30 and 20:30–21:30 local (UTC+1 in January): half at 0.10, half at 0.50.
        #expect(abs(peak.fee(from: at("2026-01-14T15:30:00Z"), to: at("2026-01-14T16:30:00Z"), in: copenhagen) - 0.30) < 1e-12)
        #expect(abs(peak.fee(from: at("2026-01-14T19:30:00Z"), to: at("2026-01-14T20:30:00Z"), in: copenhagen) - 0.30) < 1e-12)
        // 16:45–17:45: a quarter at 0.10, three quarters at 0.50.
        #expect(abs(peak.fee(from: at("2026-01-14T15:45:00Z"), to: at("2026-01-14T16:45:00Z"), in: copenhagen) - 0.40) < 1e-12)
        // A whole day: 4 of 24 hours at 0.50.
        let day = copenhagen.interval(of: LocalDay(year: 2026, month: 1, day: 14))
        #expect(abs(peak.fee(from: day.start, to: day.end, in: copenhagen) - (20 * 0.10 + 4 * 0.50) / 24) < 1e-12)
    }

    @Test func daylightSavingNights() throws {
        let night = try schedule(#"{"default":0,"periods":[{"from":"01:00","to":"03:00","fee":1}]}"#)
        // 25 October 2026: 02:00–03:00 happens twice, both inside the period.
        let autumn = ["2026-10-24T23:00:00Z", "2026-10-25T00:00:00Z", "2026-10-25T01:00:00Z", "2026-10-25T02:00:00Z"].map {
            night.fee(from: at($0), to: at($0).addingTimeInterval(3600), in: copenhagen)
        }
        #expect(autumn == [1, 1, 1, 0])
        // 29 March 2026: 02:00–03:00 does not exist; 01:00 CET is in, 03:00 CEST is out.
        let spring = ["2026-03-29T00:00:00Z", "2026-03-29T01:00:00Z"].map {
            night.fee(from: at($0), to: at($0).addingTimeInterval(3600), in: copenhagen)
        }
        #expect(spring == [1, 0])
        // 00:30Z–01:30Z spans the jump: 01:30–02:00 CET in, 03:00–03:30 CEST out.
        #expect(night.fee(from: at("2026-03-29T00:30:00Z"), to: at("2026-03-29T01:30:00Z"), in: copenhagen) == 0.5)
    }

    @Test func theFormulaAndItsComponents() {
        var settings = Settings.defaults
        settings.markupPercent = 10
        settings.surcharge = 0.03
        settings.vatPercent = 25
        // (0.20 × 1.10 + 0.03 + 0.05) × 1.25 = 0.375
        let parts = PriceComponents(market: 0.20, gridFee: 0.05, settings: settings)
        #expect(abs(parts.markup - 0.02) < 1e-12)
        #expect(abs(parts.vat - 0.075) < 1e-12)
        #expect(parts.total == 0.375)
        #expect(abs(parts.market + parts.markup + parts.surcharge + parts.gridFee + parts.vat - parts.total) < 1e-9)
    }

    @Test func vatOnNegativePricesBothWays() {
        var settings = Settings.defaults
        settings.surcharge = 0.02
        settings.vatPercent = 25
        // Before VAT: −0.10 + 0.02 = −0.08.
        #expect(PriceComponents(market: -0.10, gridFee: 0, settings: settings).total == -0.10)
        settings.vatOnNegative = false
        let untaxed = PriceComponents(market: -0.10, gridFee: 0, settings: settings)
        #expect(untaxed.total == -0.08)
        #expect(untaxed.vat == 0)
        // A positive sum is taxed either way.
        #expect(PriceComponents(market: 0.10, gridFee: 0, settings: settings).total == 0.15)
    }

    @Test func badSchedulesAreRefusedWithTheirPlace() throws {
        for (json, words) in [
            (#"{"default":"x"}"#, "grid_fee.default"),
            (#"{"periods":[{"from":"17:00","to":"21:00"}]}"#, "needs from, to and fee"),
            (#"{"periods":[{"from":"24:00","to":"21:00","fee":1}]}"#, "grid_fee.periods[0].from"),
            (#"{"periods":[{"from":"17:00","to":"17:00","fee":1}]}"#, "the same time"),
            (#"{"periods":[{"from":"7:00","to":"9:00","fee":1}]}"#, "grid_fee.periods[0].from"),
            (#"{"periods":[{"from":"07:00","to":"09:00","fee":1,"days":["funday"]}]}"#, "funday"),
            (#"{"periods":[{"from":"07:00","to":"09:00","fee":1,"months":[13]}]}"#, "grid_fee.periods[0].months"),
            (#"{"periods":[{"from":"07:00","to":"09:00","fee":1e9}]}"#, "grid_fee.periods[0].fee"),
            (#"{"default":0,"peak":1}"#, "unknown key"),
            (#"[1]"#, "grid_fee"),
        ] {
            #expect("\(json)", performing: { _ = try schedule(json) }, throws: { "\($0)".contains(words) })
        }
        let whole = try schedule(#"{"periods":[{"from":"00:00","to":"24:00","fee":0.2}]}"#)
        #expect(fee(whole, "2026-01-14", "12:00") == 0.2)
        #expect(whole.json == #"{"default":0,"periods":[{"from":"00:00","to":"24:00","fee":0.2}]}"#)
    }

    @Test func gridFeeRoundTripsThroughTheSettingsTopics() throws {
        let json = #"{"default":0.1,"periods":[{"from":"17:00","to":"21:00","fee":0.5,"days":["mon","fri"],"months":[1,12]}]}"#
        let patch = try SettingsPatch.parse(
            object: Array(#"{"grid_fee":\#(json),"markup_percent":5,"vat_on_negative":false}"#.utf8), sources: ["energyzero"])
        let settings = try Settings.defaults.merged(patch)
        #expect(settings.gridFee.json == json)
        #expect(settings.json.contains(#""grid_fee":\#(json)"#))
        let plain = try SettingsPatch.parse(field: "vat_on_negative", plain: Array("off".utf8), sources: [])
        #expect(plain.values[.vatOnNegative] == .flag(false))
        let restored = Settings.restore(json: settings.json, sources: ["energyzero"])
        #expect(restored.settings == settings && restored.repairs.isEmpty)
    }

    @Test func switchingCurrencyWithAbsoluteThresholdsNeedsThemToo() throws {
        let alone = try SettingsPatch.parse(object: Array(#"{"currency":"SEK"}"#.utf8), sources: [])
        #expect(
            performing: { _ = try Settings.defaults.merged(alone) },
            throws: { "\($0)".contains("green_max, yellow_max and orange_max in SEK") })
        let together = try SettingsPatch.parse(
            object: Array(#"{"currency":"SEK","green_max":1,"yellow_max":2,"orange_max":3}"#.utf8), sources: [])
        #expect(try Settings.defaults.merged(together).currency == "SEK")
        var relative = Settings.defaults
        relative.colorMode = .relative
        #expect(try relative.merged(alone).currency == "SEK")
        let unknown = try? SettingsPatch.parse(object: Array(#"{"currency":"XBT"}"#.utf8), sources: [])
        #expect(unknown == nil)
    }
}
