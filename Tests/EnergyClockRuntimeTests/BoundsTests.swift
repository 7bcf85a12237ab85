import EnergyClockDomain
import EnergyClockSources
import EnergyClockStore
import EnergyClockTesting
import Foundation
import Testing

/// Numbers from outside are bounded before they become times, integers or stored values: each
/// hostile value is a refusal that names the source and the value, never a trap.
@Suite struct BoundsTests {
    func refusal(_ body: () throws -> [SeriesSlot]) -> String? {
        do {
            _ = try body()
            return nil
        } catch {
            return "\(error)"
        }
    }

    @Test func slotTimesFarOutsideAnySensibleRangeAreRefusedNotTrapped() throws {
        let cases: [(String, () throws -> [SeriesSlot])] = [
            ("energycharts", { try EnergyChartsSource.parse(Array(#"{"unix_seconds":[1e19,1e19],"price":[1,2]}"#.utf8)) }),
            ("energycharts", { try EnergyChartsSource.parse(Array(#"{"unix_seconds":[1768431600,1e19],"price":[1,2]}"#.utf8)) }),
            (
                "awattar",
                {
                    try AwattarSource.parse(
                        Array(#"{"data":[{"start_timestamp":1e22,"end_timestamp":1e22,"marketprice":50}]}"#.utf8))
                }
            ),
            ("custom", { try CustomSource.parse(Array(#"[{"start":1e22,"end":1e22,"price":1}]"#.utf8)) }),
            ("custom", { try CustomSource.parse(Array(#"[{"start":-1e22,"end":1768431600,"price":1}]"#.utf8)) }),
            ("custom", { try CustomSource.parse(Array(#"[{"start":1768431600,"end":1e308,"price":1}]"#.utf8)) }),
        ]
        for (source, parse) in cases {
            let text = try #require(refusal(parse), "\(source) must refuse")
            #expect(text.hasPrefix("\(source): invalid prices: "), "\(text)")
            #expect(text.contains("lies outside") || text.contains("at most a day"), "\(text)")
        }
        // The refusal names the hostile time itself.
        let named = refusal { try CustomSource.parse(Array(#"[{"start":1e22,"end":1e22,"price":1}]"#.utf8)) }
        #expect(named?.contains("1e+19 s since 1970") == true, "\(named ?? "")")
    }

    @Test func aSlotLastingUntil9999IsRefusedBeforeItBecomesRows() throws {
        let energyZero = refusal { try EnergyZeroSource.parse(fixture("hostile/energyzero-until-9999.json")) }
        #expect(
            energyZero?.hasPrefix("energyzero: invalid prices: slot at 9999-12-31T23:00:00Z lies outside") == true, "\(energyZero ?? "")")
        let entsoe = refusal { try EntsoeSource.parse(fixture("hostile/entsoe-resolution-century.xml")) }
        #expect(entsoe?.hasPrefix("entsoe: invalid prices: slot at 2124-09-13T22:00:00Z lies outside") == true, "\(entsoe ?? "")")
        let energyCharts = refusal {
            try EnergyChartsSource.parse(Array(#"{"unix_seconds":[1768431600,253402300000],"price":[1,2]}"#.utf8))
        }
        #expect(energyCharts?.hasPrefix("energycharts: invalid prices") == true, "\(energyCharts ?? "")")
    }

    @Test func aFetchIsHeldToAWindowAroundNow() throws {
        let now = at("2026-12-01T12:00:00Z")
        let window = SlotWindow.around(now)
        let recent = [SeriesSlot(start: at("2026-12-01T12:00:00Z"), end: at("2026-12-01T13:00:00Z"), value: 0.1)]
        #expect(try recent.validated(within: window) == recent)
        for start in ["2024-11-01T00:00:00Z", "2026-12-09T00:00:00Z"] {
            let far = [SeriesSlot(start: at(start), end: at(start).addingTimeInterval(3600), value: 0.1)]
            #expect(throws: SlotProblem.self) { try far.validated(within: window) }
        }
        // Every time stays formattable, whatever it is.
        for seconds in [Double.nan, .infinity, -.infinity, 1e300, -1e300] {
            #expect(ISO8601.utc(Date(timeIntervalSince1970: seconds)).hasSuffix("s since 1970-01-01T00:00:00Z"))
        }
    }

    @Test func offsetsAndNumbersFromOutsideAreStrict() {
        #expect(ISO8601.parse("2026-01-15T00:00:00+99:99") == nil)
        #expect(ISO8601.parse("2026-01-15T00:00:00+19:00") == nil)
        #expect(ISO8601.parse("2026-01-15T00:00:00+14:00") != nil)
        for text in ["0x1p3", "nan", "inf", "infinity", " 1", "1 ", ".5", "1.", "1e", "1_000", "+-1", "1e400", ""] {
            #expect(Bounded.decimal(text) == nil, "\(text)")
        }
        for (text, value) in [("0.125", 0.125), ("-3", -3.0), ("+2.5e-3", 0.0025), ("1E2", 100)] {
            #expect(Bounded.decimal(text) == value, "\(text)")
        }
        #expect(Bounded.integer(1e20, in: 1...65_535) == nil)
        #expect(Bounded.integer(.nan, in: 1...65_535) == nil)
        #expect(Bounded.integer(1883.5, in: 1...65_535) == nil)
        #expect(Bounded.integer(1883, in: 1...65_535) == 1883)
        #expect(Bounded.wholeSeconds(Date(timeIntervalSince1970: 1e300)) == Int64(9.2e18))
        #expect(Bounded.wholeSeconds(Date(timeIntervalSince1970: .nan)) == 0)
    }

    @Test func exchangeRatesBeyondAnyPlausibleValueAreRefused() throws {
        for (file, value) in [("hostile/ecb-sek-1e308.xml", "1e+308"), ("hostile/ecb-sek-1e-320.xml", "1e-320")] {
            #expect {
                try ExchangeRates.parseECB(fixture(file))
            } throws: { error in
                "\(error)".hasPrefix("ecb: unreadable response: the rate of SEK, ") && "\(error)".contains(value)
            }
        }
        #expect(ExchangeRates.implausibility(of: 11.2, currency: "SEK") == nil)
        #expect(ExchangeRates.implausibility(of: 17_000, currency: "IDR") == nil)
        #expect(ExchangeRates.implausibility(of: 1e308, currency: "SEK") != nil)
        #expect(ExchangeRates.implausibility(of: .nan, currency: "SEK") != nil)
        #expect(ExchangeRates.implausibility(of: 1e9, currency: "XYZ") != nil)
        // Nord Pool's own rate is never used: its SEK prices are kept in SEK, whatever rate it names.
        let absurd = try NordPoolSource.parse(fixture("hostile/nordpool-exchange-rate-1e300.json"), area: "SE3")
        let recorded = try NordPoolSource.parse(fixture("nordpool/delivery_period_today.json"), area: "SE3")
        #expect(absurd == recorded && absurd.allSatisfy { $0.currency == Currency("SEK") })
    }

    @Test func storedRatesDatedAfterTodayOrImplausibleAreLeftOut() throws {
        let directory = temporaryDirectory()
        let store = try PriceStore(directory: directory)
        try store.save(rates: ["SEK": 11.2, "USD": 1.1], on: LocalDay(year: 2025, month: 5, day: 9))
        try store.save(rates: ["SEK": 11.3], on: LocalDay(year: 2099, month: 5, day: 9))
        try store.save(rates: ["SEK": 1e308], on: LocalDay(year: 2025, month: 5, day: 8))
        let (rates, ignored) = try store.exchangeRates(notAfter: LocalDay(year: 2025, month: 5, day: 12))
        #expect(ignored == 2)
        #expect(rates.latestDay == LocalDay(year: 2025, month: 5, day: 9))
        #expect(rates.rate("SEK", on: LocalDay(year: 2025, month: 5, day: 8)) == nil)
        #expect(rates.rate("SEK", on: LocalDay(year: 2030, month: 1, day: 1)) == 11.2)
    }

    @Test func aPriceThatIsNotFiniteIsLeftOutNotPublished() throws {
        var settings = Settings.defaults
        settings.currency = "SEK"
        var rates = ExchangeRates()
        // A rate past every check could still overflow with the tariff: the slot is left out.
        rates.set("SEK", .greatestFiniteMagnitude, on: LocalDay(year: 2026, month: 1, day: 15))
        let slots = [SeriesSlot(start: at("2026-01-15T10:00:00+01:00"), end: at("2026-01-15T11:00:00+01:00"), value: 5)]
        let snapshot = Snapshot.derive(
            now: at("2026-01-15T10:30:00+01:00"), calendar: amsterdam, settings: settings, slots: slots, source: "x",
            stale: false, updatedAt: nil, rates: rates)
        #expect(snapshot.nonFinitePrice)
        #expect(snapshot.current == nil)
        #expect(snapshot.today.isEmpty)
    }

    @Test func healthRecordsWithHostileTimesAreNoRecords() throws {
        let good = HealthRecord.parse(Array(#"{"connected":true,"since":1764590000,"published_at":1764590100,"due_by":null}"#.utf8))
        #expect(good?.since == Date(timeIntervalSince1970: 1_764_590_000))
        let variants = [
            #"{"connected":true,"since":1e300}"#, #"{"connected":true,"since":-1e300}"#,
            #"{"connected":true,"since":1764590000,"published_at":1e300}"#,
            #"{"connected":true,"since":1764590000,"due_by":1e300}"#, #"{"connected":true,"since":1764590000,"due_by":-1e300}"#,
            #"{"connected":false,"since":1e400}"#, #"{"connected":true,"since":1764590000,"due_by":"soon"}"#,
            #"{"connected":"yes","since":1764590000}"#, #"{"connected":true}"#, "[]",
            // Profiles: hostile times, names the daemon never gives, the wrong shapes, too many.
            #"{"connected":true,"since":1764590000,"profiles":{"export":{"published_at":1e300,"due_by":1764590100,"stale":false}}}"#,
            #"{"connected":true,"since":1764590000,"profiles":{"export":{"published_at":1764590000,"due_by":-1e300,"stale":false}}}"#,
            #"{"connected":true,"since":1764590000,"profiles":{"Ex port":{"published_at":1764590000,"due_by":1764590100,"stale":false}}}"#,
            #"{"connected":true,"since":1764590000,"profiles":{"default":{"published_at":1764590000,"due_by":1764590100,"stale":false}}}"#,
            #"{"connected":true,"since":1764590000,"profiles":{"export":{"published_at":1764590000,"due_by":1764590100}}}"#,
            #"{"connected":true,"since":1764590000,"profiles":["export"]}"#, #"{"connected":true,"since":1764590000,"stale":1}"#,
            #"{"connected":true,"since":1764590000,"profiles":{"#
                + (0...Profiles.limit).map { #""p\#($0)":{"published_at":1764590000,"due_by":1764590100,"stale":false}"# }
                .joined(separator: ",") + "}}",
        ]
        for variant in variants {
            #expect(HealthRecord.parse(Array(variant.utf8)) == nil, "\(variant)")
        }
    }

    @Test func healthNamesTheProfileThatStoppedPublishing() throws {
        var record = HealthRecord(
            connected: true, since: Date(timeIntervalSince1970: 1_764_590_000), publishedAt: Date(timeIntervalSince1970: 1_764_590_100),
            dueBy: Date(timeIntervalSince1970: 1_764_591_000))
        record.profiles["export"] = .init(
            publishedAt: Date(timeIntervalSince1970: 1_764_590_100), dueBy: Date(timeIntervalSince1970: 1_764_590_200), stale: true)
        let directory = try StateDirectory(path: temporaryDirectory().path)
        try record.write(to: directory)
        let read = try #require(HealthRecord.read(from: directory))
        #expect(read == record)
        #expect(read.problem(at: Date(timeIntervalSince1970: 1_764_590_300), maxOffline: 60) == nil, "within two minutes")
        let problem = try #require(read.problem(at: Date(timeIntervalSince1970: 1_764_590_400), maxOffline: 60))
        #expect(problem.contains("profile export"))
    }
}
