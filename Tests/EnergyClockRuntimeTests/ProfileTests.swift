import EnergyClockDomain
import EnergyClockRuntime
import EnergyClockSources
import EnergyClockTesting
import Foundation
import Testing

@Suite struct ExportFormulaTests {
    func export(_ change: (inout Settings) -> Void = { _ in }) -> Settings {
        var settings = Settings.defaults
        settings.kind = .export
        settings.exportFactor = 0.9
        settings.exportFee = -0.02
        change(&settings)
        return settings
    }

    @Test func marketTimesFactorPlusFeeWithoutVATByDefault() {
        // 0.10 × 0.9 − 0.02 = 0.07; the 21 % VAT of the defaults is not added.
        let parts = PriceComponents(market: 0.10, gridFee: 0.05, settings: export())
        #expect(parts.total == 0.07)
        #expect(parts.gridFee == 0, "an export pays no grid fee")
        #expect(parts.vat == 0)
        #expect(abs(parts.markup - -0.01) < 1e-12, "the adjustment is market × (factor − 1)")
        #expect(parts.surcharge == -0.02)
    }

    @Test func vatWhenAskedFor() {
        // (0.10 × 0.9 − 0.02) × 1.21 = 0.0847.
        #expect(PriceComponents(market: 0.10, gridFee: 0, settings: export { $0.exportVAT = true }).total == 0.0847)
        // Below zero before VAT, and no VAT on negatives: −0.065 stays −0.065.
        let negative = export {
            $0.exportVAT = true
            $0.vatOnNegative = false
        }
        #expect(PriceComponents(market: -0.05, gridFee: 0, settings: negative).total == -0.065)
    }

    @Test func aNegativeSpotPaysUnderPayAndNothingUnderZero() {
        // −0.05 × 0.9 − 0.02 = −0.065: feeding in costs money.
        #expect(PriceComponents(market: -0.05, gridFee: 0, settings: export()).total == -0.065)
        let zero = PriceComponents(market: -0.05, gridFee: 0, settings: export { $0.exportNegative = .zero })
        #expect(zero.total == 0)
        #expect(zero.total.sign == .plus, "not −0")
        #expect(zero.market == -0.05, "the market price is still shown")
        // At exactly zero the market is not negative: the formula applies, fee included.
        #expect(PriceComponents(market: 0, gridFee: 0, settings: export { $0.exportNegative = .zero }).total == -0.02)
        // An import profile ignores every export field.
        var importing = export()
        importing.kind = .import
        #expect(PriceComponents(market: 0.10, gridFee: 0, settings: importing).total == 0.121)
    }

    @Test func exportBandsReadTheOtherWayRound() {
        let t = Thresholds(greenMax: 0.05, yellowMax: 0.10, orangeMax: 0.15)
        #expect(
            [0.20, 0.15, 0.12, 0.10, 0.07, 0.05, 0.01].map { Band.of($0, under: t, reversed: true) } == [
                .green, .green, .yellow, .yellow, .orange, .orange, .red,
            ])
        #expect(export().bandsReversed)
        #expect(!export { $0.direction = .import }.bandsReversed)
        #expect(Settings.defaults.bandsReversed == false)
        var sellingView = Settings.defaults
        sellingView.direction = .export
        #expect(sellingView.bandsReversed)
    }
}

@Suite struct ProfileNameTests {
    @Test(
        arguments: [
            ("export", nil),
            ("nl-2", nil),
            ("heat_pump", nil),
            ("", "a profile needs a name"),
            ("Export", "a profile's name may hold only a-z, 0-9, _ and -"),
            ("a/b", "a profile's name may hold only a-z, 0-9, _ and -"),
            ("+", "a profile's name may hold only a-z, 0-9, _ and -"),
            ("-x", "a profile's name starts with a letter or a digit"),
            (String(repeating: "a", count: 25), "a profile's name is at most 24 characters"),
            ("default", "default is the first profile's name"),
            ("prices", "prices is a topic of the first profile (prices, settings are taken)"),
        ] as [(String, String?)])
    func names(name: String, problem: String?) {
        #expect(ProfileName.problem(with: name, reserved: ["prices", "settings"]) == problem)
    }
}

@Suite struct ProfileUpdateTests {
    let catalog = SourceCatalog([MemorySource()])

    func update(_ json: String, profile: String = Profiles.firstName) throws -> SettingsUpdate {
        try SettingsUpdate.parse(object: Array(json.utf8), sources: ["energyzero"], profile: profile)
    }

    @Test func theFirstProfilesObjectEditsOthersAllOrNothing() throws {
        let start = Profiles(first: .defaults)
        let both = try start.merged(
            try update(#"{"vat_percent":9,"profiles":{"export":{"kind":"export"},"heat":{"green_max":0.05}}}"#), reserved: [],
            catalog: catalog)
        #expect(both.names == ["default", "export", "heat"])
        #expect(both.first.vatPercent == 9)
        #expect(both["export"]?.kind == .export)
        #expect(both["export"]?.vatPercent == 9, "a new profile starts as a copy of the first as it stands")
        #expect(both["heat"]?.thresholds.greenMax == 0.05)

        // The second edit fails: neither applies.
        let failing = try update(#"{"profiles":{"export":{"export_fee":-0.05},"heat":{"green_max":0.5}}}"#)
        #expect(throws: SettingsError.self) { try both.merged(failing, reserved: [], catalog: catalog) }
        do {
            _ = try both.merged(failing, reserved: [], catalog: catalog)
        } catch {
            #expect(
                error.description
                    == #"profile "heat": thresholds must increase strictly: green_max 0.5 < yellow_max 0.2 < orange_max 0.3 does not hold"#)
        }
    }

    @Test func profilesPriceAlikeOnlyWithTheSameNamesInOrderAndBandsAloneChanged() throws {
        let two = try Profiles(first: .defaults).merged(try update(#"{}"#, profile: "export"), reserved: [], catalog: catalog)
        let banded = try two.merged(
            try update(#"{"green_max":0.01,"negative_band":true}"#, profile: "export"), reserved: [], catalog: catalog)
        #expect(two.pricesAlike(banded) && banded.pricesAlike(two))
        let taxed = try banded.merged(try update(#"{"vat_percent":9}"#, profile: "export"), reserved: [], catalog: catalog)
        #expect(!banded.pricesAlike(taxed), "VAT prices the slots")
        let three = try two.merged(try update(#"{}"#, profile: "heat"), reserved: [], catalog: catalog)
        #expect(!two.pricesAlike(three) && !three.pricesAlike(two), "a profile came")
        let other = try Profiles(first: .defaults).merged(try update(#"{}"#, profile: "heat"), reserved: [], catalog: catalog)
        #expect(!two.pricesAlike(other), "another name")
    }

    @Test func removalAndItsRefusals() throws {
        let two = try Profiles(first: .defaults).merged(try update(#"{}"#, profile: "export"), reserved: [], catalog: catalog)
        #expect(two.names == ["default", "export"])
        let one = try two.merged(try update("null", profile: "export"), reserved: [], catalog: catalog)
        #expect(one.names == ["default"])
        let refusals: [(SettingsUpdate, String)] = [
            (try update("null", profile: "gone"), #"profile "gone" refused: there is no such profile"#),
            (try update(#"{"profiles":{"default":null}}"#), #"profile "default" refused: the first profile cannot be removed"#),
            (
                try update(#"{"profiles":{"clock":{}}}"#),
                #"profile "clock" refused: clock is a topic of the first profile (clock are taken)"#
            ),
            (
                try SettingsUpdate.parse(field: "green_max", plain: Array("0.05".utf8), sources: ["energyzero"], profile: "gone"),
                #"profile "gone" refused: there is no such profile; create it with a JSON object on its settings/set topic"#
            ),
        ]
        for (update, message) in refusals {
            do {
                _ = try two.merged(update, reserved: ["clock"], catalog: catalog)
                Issue.record("\(message) was not refused")
            } catch {
                #expect(error.description == message)
            }
        }
    }

    @Test func parseErrorsNameTheProfile() {
        let cases: [(String, String, String)] = [
            (
                #"{"profiles":{"export":{"kind":"sell"}}}"#, Profiles.firstName,
                #"profile "export": kind must be one of import, export, got "sell""#
            ),
            (#"{"profiles":[]}"#, Profiles.firstName, "profiles must be an object of profiles by name, got an array"),
            (#"{"profiles":{"export":1}}"#, Profiles.firstName, #"profile "export": settings/set takes a JSON object, got a number"#),
            (#"{"profiles":{}}"#, Profiles.firstName, "the update names no field"),
            (#"{"profiles":{"a":{}}}"#, "export", #"profile "export": unknown field "profiles"; known fields: "#),
            ("[1]", "export", #"profile "export": settings/set takes a JSON object, got an array"#),
        ]
        for (json, profile, message) in cases {
            do {
                _ = try update(json, profile: profile)
                Issue.record("\(json) parsed")
            } catch {
                #expect("\(error)".hasPrefix(message), "\(json)")
            }
        }
    }
}

@Suite struct ProfileManagerTests {
    let clock = ManualClock(start: at("2025-12-17T10:00:00+01:00"))

    @Test func aFailedUpdateAcrossTwoProfilesChangesNeitherAndASuccessfulOneOutlivesARestart() async throws {
        let directory = temporaryDirectory()
        let source = MemorySource(slots: quarterDays(around: LocalDay(year: 2025, month: 12, day: 17)))
        let (manager, output) = try makeManager(clock: clock, source: source, directory: directory)
        await manager.apply([request(#"{"profiles":{"export":{"kind":"export"},"heat":{"vat_percent":9}}}"#)])
        #expect(await manager.profiles.names == ["default", "export", "heat"])
        await manager.apply([request(#"{"profiles":{"export":{"export_fee":-0.1},"heat":{"history_days":99}}}"#)])
        #expect(await manager.profiles["export"]?.exportFee == 0, "the first edit did not apply either")
        #expect(output.outcomes.map { (try? $0.result.get()) != nil } == [true, false])
        #expect(output.outcomes[0].json.contains(#""profiles":{"export":{"#))
        await manager.apply([request(#"{"profiles":{"heat":null}}"#)])
        #expect(output.removed == ["heat"])
        await manager.close()

        let (reopened, _) = try makeManager(clock: clock, source: source, directory: directory)
        #expect(await reopened.profiles.names == ["default", "export"])
        #expect(await reopened.profiles["export"]?.kind == .export)
        await reopened.close()
    }

    @Test func profilesOnOneSourceAndZoneShareOneFetch() async throws {
        let source = MemorySource(slots: quarterDays(around: LocalDay(year: 2025, month: 12, day: 17)))
        let (manager, output) = try makeManager(clock: clock, source: source)
        await manager.apply([request(#"{"history_days":1,"profiles":{"a":{"kind":"export"},"b":{"vat_percent":0},"c":{}}}"#)])
        let task = await start(manager, clock)
        #expect(source.requests == [LocalDay(year: 2025, month: 12, day: 17)], "four profiles, one request")
        #expect(await output.wait { o in ["a", "b", "c"].allSatisfy { o.last(of: $0)?.current != nil } })
        let price = { (name: String) in output.last(of: name)?.current?.price }
        let market = try #require(output.last?.current?.slot.value)
        #expect(price("b") == DecimalFormat.rounded(market))
        #expect(price("a") == DecimalFormat.rounded(market))
        #expect(price(Profiles.firstName) == DecimalFormat.rounded(market * 1.21))
        task.cancel()
        _ = await task.result
    }
}
