import EnergyClockDomain
import EnergyClockTesting
import Testing

@Suite struct SettingsTests {
    let sources = ["energyzero"]

    func object(_ json: String) throws(SettingsError) -> Settings {
        try Settings.defaults.merged(try SettingsPatch.parse(object: Array(json.utf8), sources: sources))
    }

    func plain(_ field: String, _ payload: String) throws(SettingsError) -> Settings {
        try Settings.defaults.merged(try SettingsPatch.parse(field: field, plain: Array(payload.utf8), sources: sources))
    }

    @Test func defaults() {
        let d = Settings.defaults
        #expect(
            d.json
                == ##"{"source":"energyzero","color_mode":"absolute","green_max":0.1,"yellow_max":0.2,"orange_max":0.3,"history_days":7,"vat_percent":21,"surcharge":0,"markup_percent":0,"grid_fee":{"default":0,"periods":[]},"vat_on_negative":true,"currency":"EUR","resolution":"hour","zone":"NL","fallback_sources":[],"custom_url":"","custom_unit":"EUR/kWh","palette":{"negative":"#0A84FF","green":"#34C759","yellow":"#FFCC00","orange":"#FF9500","red":"#FF3B30"},"brightness":{},"price_decimals":6,"kind":"import","export_factor":1,"export_fee":0,"export_vat":false,"export_negative":"pay","direction":"auto","negative_band":false,"forecast_step":30,"jobs":{},"octopus_product":"AGILE-24-10-01","octopus_region":"","forecast_provider":"","forecast_fallbacks":[],"forecast_tail":false,"signal":"price","carbon_source":"","carbon_area":"","co2_green_max":100,"co2_yellow_max":200,"co2_orange_max":300}"##
        )
        #expect(abs(PriceComponents(market: 0.1, gridFee: 0, settings: d).total - 0.121) < 1e-12)
    }

    @Test func consumerPriceAddsSurchargeBeforeVAT() {
        var s = Settings.defaults
        s.surcharge = 0.1
        s.vatPercent = 9
        #expect(abs(PriceComponents(market: 0.2, gridFee: 0, settings: s).total - 0.327) < 1e-12)
    }

    @Test func validObjectAndPlainValues() throws {
        let s = try object(#"{"color_mode":"relative","history_days":14,"green_max":0.05,"resolution":"native"}"#)
        #expect(s.colorMode == .relative && s.historyDays == 14 && s.thresholds.greenMax == 0.05 && s.resolution == .native)
        #expect(try plain("color_mode", "relative").colorMode == .relative)
        #expect(try plain("color_mode", "\"relative\"").colorMode == .relative)
        #expect(try plain("green_max", "0.12").thresholds.greenMax == 0.12)
        #expect(try plain("history_days", "7").historyDays == 7)
        #expect(try plain("history_days", "30.0").historyDays == 30)
        #expect(try plain("vat_percent", " 9 \n").vatPercent == 9)
        #expect(try plain("surcharge", "\"-0.5\"").surcharge == -0.5)
    }

    @Test(arguments: [
        ("{\"green_max\": 0.1", SettingsError.badJSON),
        ("[1,2]", .notAnObject(found: "an array")),
        ("\"hello\"", .notAnObject(found: "a string")),
        ("{}", .empty),
        (#"{"colour_mode":"relative"}"#, .unknownField("colour_mode")),
        (#"{"green_max":"0.1"}"#, .wrongType(field: "green_max", expected: "a number", found: "a string")),
        (#"{"green_max":true}"#, .wrongType(field: "green_max", expected: "a number", found: "a boolean")),
        (#"{"green_max":null}"#, .wrongType(field: "green_max", expected: "a number", found: "null")),
        (#"{"color_mode":1}"#, .wrongType(field: "color_mode", expected: "a string", found: "a number")),
        (#"{"color_mode":"boxplot"}"#, .invalidChoice(field: "color_mode", value: "boxplot", allowed: ["absolute", "relative", "levels"])),
        (#"{"resolution":"minute"}"#, .invalidChoice(field: "resolution", value: "minute", allowed: ["hour", "native"])),
        (#"{"source":"nordpool"}"#, .invalidChoice(field: "source", value: "nordpool", allowed: ["energyzero"])),
        (#"{"green_max":-10.5}"#, .outOfRange(field: "green_max", value: "-10.5", allowed: "between -10 and 10")),
        (#"{"orange_max":11}"#, .outOfRange(field: "orange_max", value: "11", allowed: "between -10 and 10")),
        (#"{"vat_percent":101}"#, .outOfRange(field: "vat_percent", value: "101", allowed: "between 0 and 100")),
        (#"{"vat_percent":-1}"#, .outOfRange(field: "vat_percent", value: "-1", allowed: "between 0 and 100")),
        (#"{"surcharge":5.01}"#, .outOfRange(field: "surcharge", value: "5.01", allowed: "between -1 and 5")),
        (#"{"surcharge":-1.5}"#, .outOfRange(field: "surcharge", value: "-1.5", allowed: "between -1 and 5")),
        (#"{"history_days":0}"#, .outOfRange(field: "history_days", value: "0", allowed: "a whole number from 1 to 60")),
        (#"{"history_days":61}"#, .outOfRange(field: "history_days", value: "61", allowed: "a whole number from 1 to 60")),
        (#"{"history_days":7.5}"#, .wrongType(field: "history_days", expected: "a whole number", found: "7.5")),
        (#"{"green_max":0.25}"#, .thresholdsNotIncreasing(green: 0.25, yellow: 0.2, orange: 0.3)),
        (#"{"yellow_max":0.3}"#, .thresholdsNotIncreasing(green: 0.1, yellow: 0.3, orange: 0.3)),
        (#"{"orange_max":0.15}"#, .thresholdsNotIncreasing(green: 0.1, yellow: 0.2, orange: 0.15)),
    ])
    func invalidObjectsAreRefused(json: String, error: SettingsError) {
        #expect(throws: error) { try object(json) }
    }

    @Test func thresholdsAreCheckedAfterTheMergeNotPerField() throws {
        // Moving all three up at once is fine even though green_max alone would pass yellow_max.
        let s = try object(#"{"green_max":0.4,"yellow_max":0.5,"orange_max":0.6}"#)
        #expect(s.thresholds == Thresholds(greenMax: 0.4, yellowMax: 0.5, orangeMax: 0.6))
    }

    @Test(arguments: [
        ("green_max", "nan", SettingsError.nonFinite(field: "green_max")),
        ("green_max", "inf", .nonFinite(field: "green_max")),
        ("green_max", "-infinity", .nonFinite(field: "green_max")),
        ("green_max", "cheap", .wrongType(field: "green_max", expected: "a number", found: "\"cheap\"")),
        ("green_max", "0x1p-3", .wrongType(field: "green_max", expected: "a number", found: "\"0x1p-3\"")),
        ("green_max", "[0.1]", .wrongType(field: "green_max", expected: "a number", found: "an array")),
        ("colour", "red", .unknownField("colour")),
        ("color_mode", "Relative", .invalidChoice(field: "color_mode", value: "Relative", allowed: ["absolute", "relative", "levels"])),
        ("history_days", "", .wrongType(field: "history_days", expected: "a number", found: "\"\"")),
    ])
    func invalidPlainValuesAreRefused(field: String, payload: String, error: SettingsError) {
        #expect(throws: error) { try plain(field, payload) }
    }

    @Test func oversizedPayloadsAreRefusedBeforeParsing() {
        let big = [UInt8](repeating: 0x20, count: SettingsPatch.maxPayloadBytes + 1)
        #expect(throws: SettingsError.tooLarge(bytes: big.count, limit: SettingsPatch.maxPayloadBytes)) {
            try SettingsPatch.parse(object: big, sources: sources)
        }
        #expect(throws: SettingsError.tooLarge(bytes: big.count, limit: SettingsPatch.maxPayloadBytes)) {
            try SettingsPatch.parse(field: "green_max", plain: big, sources: sources)
        }
    }

    @Test func errorsReadWell() {
        #expect(
            SettingsError.thresholdsNotIncreasing(green: 0.25, yellow: 0.2, orange: 0.3).description
                == "thresholds must increase strictly: green_max 0.25 < yellow_max 0.2 < orange_max 0.3 does not hold")
        #expect(SettingsError.unknownField("x").description.contains("known fields: source, color_mode"))
    }

    @Test func storedFormRoundTrips() throws {
        var s = Settings.defaults
        s.colorMode = .relative
        s.surcharge = 0.0123
        let back = try Settings.defaults.merged(try SettingsPatch.parse(object: Array(s.json.utf8), sources: sources))
        #expect(back == s)
    }
}
