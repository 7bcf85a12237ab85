import EnergyClockDomain
import EnergyClockTesting
import Foundation
import Testing

/// One declaration per setting: the table drives reading, writing, validation and the defaults.
@Suite struct SettingDescriptorTests {
    @Test func theTableHasEverySettingOnceInWireOrder() {
        #expect(SettingDescriptor.all.map(\.field) == SettingsField.allCases)
        // Every field reads back what was written through its descriptor.
        var settings = Settings.defaults
        for field in SettingsField.allCases {
            let value = settings[field]
            settings[field] = value
            #expect(settings[field] == value, "\(field.rawValue)")
        }
        #expect(settings == Settings.defaults)
        #expect(
            Settings.defaults.json.hasSuffix(
                #","price_decimals":6,"kind":"import","export_factor":1,"export_fee":0,"export_vat":false,"export_negative":"pay","direction":"auto","negative_band":false,"forecast_step":30,"jobs":{},"octopus_product":"AGILE-24-10-01","octopus_region":"","forecast_provider":"","forecast_fallbacks":[],"forecast_tail":false,"signal":"price","carbon_source":"","carbon_area":"","co2_green_max":100,"co2_yellow_max":200,"co2_orange_max":300}"#
            ),
            "the new settings come last, with their defaults")
    }

    @Test func priceDecimalsIsAWholeNumberFromOneToSix() throws {
        let two = try SettingsPatch.parse(object: Array(#"{"price_decimals":2}"#.utf8), sources: ["energyzero"])
        #expect(try Settings.defaults.merged(two).priceDecimals == 2)
        let plain = try SettingsPatch.parse(field: "price_decimals", plain: Array("4".utf8), sources: ["energyzero"])
        #expect(try Settings.defaults.merged(plain).priceDecimals == 4)
        for (json, reason) in [
            (#"{"price_decimals":0}"#, "price_decimals must be a whole number from 1 to 6, got 0"),
            (#"{"price_decimals":7}"#, "price_decimals must be a whole number from 1 to 6, got 7"),
            (#"{"price_decimals":2.5}"#, "price_decimals must be a whole number, got 2.5"),
            (#"{"price_decimals":"2"}"#, "price_decimals must be a number, got a string"),
        ] {
            #expect(throws: SettingsError.self) { try SettingsPatch.parse(object: Array(json.utf8), sources: ["energyzero"]) }
            do {
                _ = try SettingsPatch.parse(object: Array(json.utf8), sources: ["energyzero"])
            } catch {
                #expect(error.description == reason)
            }
        }
        // An older store without the field starts with six decimals.
        let old = Settings.defaults.json.replacingOccurrences(of: #","price_decimals":6"#, with: "")
        #expect(Settings.restore(json: old, sources: ["energyzero"]).settings.priceDecimals == 6)
    }

    @Test func theBandIsWorkedOutOnThePriceAsPublished() {
        var settings = Settings.defaults
        settings.thresholds = Thresholds(greenMax: 0.12, yellowMax: 0.2, orangeMax: 0.3)
        // 0.1 EUR/kWh with 21 % VAT is 0.121: yellow with six decimals, 0.12 and green with two.
        let slots = [SeriesSlot(start: at("2026-01-15T10:00:00+01:00"), end: at("2026-01-15T11:00:00+01:00"), value: 0.1)]
        func current(_ decimals: Int) -> PricedSlot? {
            settings.priceDecimals = decimals
            return Snapshot.derive(
                now: at("2026-01-15T10:30:00+01:00"), calendar: amsterdam, settings: settings, slots: slots, source: "x",
                stale: false, updatedAt: nil
            ).current
        }
        #expect(current(6)?.price == 0.121 && current(6)?.band == .yellow)
        #expect(current(2)?.price == 0.12 && current(2)?.band == .green)
        #expect(current(1)?.price == 0.1)
    }
}
