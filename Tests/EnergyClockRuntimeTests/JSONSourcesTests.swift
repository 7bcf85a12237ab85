import EnergyClockTesting
import Foundation
import Testing

@testable import EnergyClockDomain
@testable import EnergyClockSources

@Suite struct AwattarTests {
    @Test func readsMillisecondsAndEurPerMWh() throws {
        let body = #"""
            {"object":"list","data":[
              {"start_timestamp":1768431600000,"end_timestamp":1768435200000,"marketprice":87.5,"unit":"Eur/MWh"},
              {"start_timestamp":1768435200000,"end_timestamp":1768438800000,"marketprice":-3.2,"unit":"Eur/MWh"}],
             "url":"/de/v1/marketdata"}
            """#
        let slots = try AwattarSource.parse(Array(body.utf8))
        #expect(
            slots == [
                SeriesSlot(start: at("2026-01-14T23:00:00Z"), end: at("2026-01-15T00:00:00Z"), value: 0.0875),
                SeriesSlot(start: at("2026-01-15T00:00:00Z"), end: at("2026-01-15T01:00:00Z"), value: -0.0032),
            ])
    }

    @Test func rejectsWhatItCannotTrust() {
        for (body, reason) in [
            ("[]", "not a JSON object"),
            (#"{"data":[{"start_timestamp":1,"marketprice":2}]}"#, "lacks start_timestamp"),
            (
                #"{"data":[{"start_timestamp":1768431600000,"end_timestamp":1768435200000,"marketprice":1,"unit":"ct/kWh"}]}"#,
                "unknown unit"
            ),
            (#"{"data":[{"start_timestamp":1768431600000,"end_timestamp":1768435200000,"marketprice":20000}]}"#, "beyond"),
        ] {
            #expect { try AwattarSource.parse(Array(body.utf8)) } throws: { "\($0)".hasPrefix("awattar: ") && "\($0)".contains(reason) }
        }
    }

    @Test func servesGermanyLuxembourgAndAustriaOnly() {
        var settings = Settings.defaults
        settings.zone = "AT"
        let source = AwattarSource()
        #expect(source.unusableReason(for: settings) == nil)
        #expect(
            source.url(for: LocalDay(year: 2026, month: 1, day: 15), zone: "AT", calendar: amsterdam)?.absoluteString
                == "https://api.awattar.at/v1/marketdata?start=1768431600000&end=1768604400000")
        settings.zone = "NL"
        #expect(source.unusableReason(for: settings) == "serves zone AT, DE-LU only, not NL")
    }
}

@Suite struct EnergyChartsTests {
    @Test func endsAreNextStartsAndTheLastTakesTheSpacing() throws {
        let body =
            #"{"license_info":"CC BY 4.0","unix_seconds":[1768431600,1768432500,1768433400],"price":[80.1,null,-1.5],"unit":"EUR / MWh","deprecated":false}"#
        let slots = try EnergyChartsSource.parse(Array(body.utf8))
        // The null price leaves its quarter out; the others keep their own 15 minutes.
        #expect(
            slots == [
                SeriesSlot(start: at("2026-01-14T23:00:00Z"), end: at("2026-01-14T23:15:00Z"), value: 80.1 / 1000),
                SeriesSlot(start: at("2026-01-14T23:30:00Z"), end: at("2026-01-14T23:45:00Z"), value: -0.0015),
            ])
    }

    @Test func emptyAnswersAndMismatchedArrays() throws {
        #expect(try EnergyChartsSource.parse(Array(#"{"unix_seconds":[],"price":[]}"#.utf8)).isEmpty)
        #expect { try EnergyChartsSource.parse(Array(#"{"unix_seconds":[1,2],"price":[1]}"#.utf8)) } throws: {
            "\($0)".contains("2 times but 1 prices")
        }
        #expect { try EnergyChartsSource.parse(Array(#"{"unix_seconds":[1768431600],"price":[1]}"#.utf8)) } throws: {
            "\($0)".contains("single price")
        }
        #expect(
            EnergyChartsSource().url(for: LocalDay(year: 2026, month: 1, day: 15), zone: "DE-LU").absoluteString
                == "https://api.energy-charts.info/price?bzn=DE-LU&start=2026-01-15&end=2026-01-16")
    }
}

@Suite struct CustomSourceTests {
    @Test func arrayWithISOTimesAndImpliedEnds() throws {
        let body =
            #"[{"start":"2026-01-15T00:00:00+01:00","price":0.2},{"start":"2026-01-15T00:30:00+01:00","price":"0.25"},{"start":"2026-01-15T01:00:00+01:00","end":"2026-01-15T03:00:00+01:00","price":0.1}]"#
        let slots = try CustomSource.parse(Array(body.utf8))
        #expect(slots.map(\.duration) == [1800, 1800, 7200])
        #expect(slots.map(\.value) == [0.2, 0.25, 0.1])
    }

    @Test func objectWithUnitAndEpochSecondsOrMilliseconds() throws {
        let seconds = #"{"unit":"EUR/MWh","prices":[{"start":1768431600,"end":1768435200,"price":120}]}"#
        let millis = #"{"unit":"EUR/MWh","prices":[{"start":1768431600000,"end":1768435200000,"price":120}]}"#
        #expect(try CustomSource.parse(Array(seconds.utf8)) == CustomSource.parse(Array(millis.utf8)))
        #expect(try CustomSource.parse(Array(seconds.utf8)).first?.value == 0.12)
        // The setting's unit applies when the document names none.
        #expect(
            try CustomSource.parse(Array(#"[{"start":1768431600,"end":1768435200,"price":120}]"#.utf8), defaultUnit: "EUR/MWh").first?
                .value == 0.12)
    }

    @Test func oneSecondSlots() throws {
        // Two hours here; the benchmark runs a whole day of them in a release build.
        let start = 1_768_431_600
        let items = (0..<7200).map { #"{"start":\#(start + $0),"price":\#(Double($0 % 500) / 1000)}"# }.joined(separator: ",")
        let slots = try CustomSource.parse(Array("[\(items)]".utf8))
        #expect(slots.count == 7200)
        #expect(slots.allSatisfy { $0.duration == 1 })
        let hours = slots.at(.hour, in: amsterdam)
        #expect(hours.count == 2)
        let firstHour = (0..<3600).map { Double($0 % 500) / 1000 }.reduce(0, +) / 3600
        #expect(abs(hours[0].value - firstHour) < 1e-9)
    }

    @Test func rejectsGarbage() {
        for (body, reason) in [
            ("", "empty response body"),
            ("{\"prices\": 3}", "needs a prices array"),
            (#"[{"start":"soon","price":1}]"#, "prices[0].start is not a time"),
            (#"[{"start":1768431600,"price":1}]"#, "single price"),
            (#"{"unit":"ct/kWh","prices":[]}"#, "unit must be EUR/kWh or EUR/MWh"),
            (#"[{"start":1768431600,"end":1768431500,"price":1}]"#, "ends before it starts"),
            (#"[{"start":1768431600,"end":1768435200,"price":1},{"start":1768433400,"end":1768437000,"price":1}]"#, "overlaps"),
            (#"[{"start":1768431600,"end":1768604400,"price":1}]"#, "at most a day"),
            (#"[{"start":1768435200,"end":1768438800,"price":1},{"start":1768431600,"end":1768435200,"price":1}]"#, "out of order"),
        ] {
            #expect { try CustomSource.parse(Array(body.utf8)) } throws: { "\($0)".hasPrefix("custom: ") && "\($0)".contains(reason) }
        }
    }

    @Test func readsFilesWithinTheSizeLimit() async throws {
        let file = temporaryDirectory().appendingPathComponent("prices.json")
        try #"[{"start":"2026-01-15T00:00:00Z","end":"2026-01-15T01:00:00Z","price":0.3}]"#.write(
            to: file, atomically: true, encoding: .utf8)
        var settings = Settings.defaults
        settings.source = "custom"
        settings.customURL = file.absoluteString
        let slots = try await CustomSource().fetch(day: LocalDay(year: 2026, month: 1, day: 15), calendar: amsterdam, settings: settings)
        #expect(slots.count == 1)
        await #expect(throws: SourceError(source: "custom", problem: .tooLarge(limit: 10))) {
            try await CustomSource(http: HTTPClient(maxBodyBytes: 10)).fetch(
                day: LocalDay(year: 2026, month: 1, day: 15), calendar: amsterdam, settings: settings)
        }
        #expect(CustomSource().cacheKey(for: settings) == "custom/\(file.absoluteString)")
    }
}

@Suite struct CatalogTests {
    let catalog = SourceCatalog([EnergyZeroSource(), EntsoeSource(token: nil), AwattarSource(), EnergyChartsSource(), CustomSource()])

    func check(_ change: (inout Settings) -> Void) -> String? {
        var settings = Settings.defaults
        change(&settings)
        do {
            try catalog.check(settings)
            return nil
        } catch { return error.description }
    }

    @Test func sourcesMustServeTheZoneAndBeConfigured() {
        #expect(check { _ in } == nil)
        #expect(check { $0.zone = "BE" } == "source refused: energyzero serves zone NL only, not BE")
        #expect(
            check {
                $0.source = "energycharts"
                $0.zone = "BE"
            } == nil)
        #expect(check { $0.source = "entsoe" }?.contains("needs a security token") == true)
        #expect(check { $0.source = "custom" }?.contains("needs custom_url") == true)
        #expect(
            check { $0.fallbackSources = ["awattar"] }
                == "fallback_sources refused: awattar serves zone AT, DE-LU only, not NL")
        #expect(
            check {
                $0.source = "awattar"
                $0.zone = "DE-LU"
                $0.fallbackSources = ["energycharts"]
            } == nil)
    }

    @Test func newFieldsParse() throws {
        let ids = catalog.ids
        let patch = try SettingsPatch.parse(
            object: Array(#"{"zone":"DE-LU","fallback_sources":["energycharts","awattar"]}"#.utf8), sources: ids)
        #expect(patch.values[.fallbackSources] == .list(["energycharts", "awattar"]))
        #expect(
            try SettingsPatch.parse(field: "fallback_sources", plain: Array("energycharts, awattar".utf8), sources: ids).values[
                .fallbackSources]
                == .list(["energycharts", "awattar"]))
        #expect(
            try SettingsPatch.parse(field: "fallback_sources", plain: Array("".utf8), sources: ids).values[.fallbackSources] == .list([]))
        #expect(throws: SettingsError.invalidChoice(field: "zone", value: "Atlantis", allowed: BiddingZone.codes)) {
            try SettingsPatch.parse(field: "zone", plain: Array("Atlantis".utf8), sources: ids)
        }
        #expect(throws: SettingsError.notAllowed(field: "fallback_sources", reason: "awattar is listed twice")) {
            try SettingsPatch.parse(object: Array(#"{"fallback_sources":["awattar","awattar"]}"#.utf8), sources: ids)
        }
        #expect(throws: SettingsError.self) { try SettingsPatch.parse(field: "custom_url", plain: Array("ftp://x/y".utf8), sources: ids) }
        #expect(
            try SettingsPatch.parse(field: "custom_url", plain: Array("file:///srv/prices.json".utf8), sources: ids).values[.customURL]
                == .text("file:///srv/prices.json"))
    }
}
