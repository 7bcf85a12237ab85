import EnergyClockDomain
import EnergyClockSources
import EnergyClockStore
import EnergyClockSupport
import EnergyClockTesting
import Foundation
import Testing

/// Prices keep the currency they were quoted in, and are converted only for a profile that shows another.
@Suite struct QuotedCurrencyTests {
    static let stockholm = LocalCalendar(identifier: "Europe/Stockholm")!
    static let day = LocalDay(year: 2025, month: 10, day: 1)

    /// Nord Pool's own SEK figures for SE3 in `delivery_period_today.json`, by start, per MWh.
    static func nordPoolFigures() throws -> [(start: Date, perMWh: Double)] {
        let root = try #require(
            try JSONSerialization.jsonObject(with: Data(fixture("nordpool/delivery_period_today.json"))) as? [String: Any])
        #expect(root["currency"] as? String == "SEK")
        let entries = try #require(root["multiAreaEntries"] as? [[String: Any]])
        return try entries.map { entry in
            let prices = try #require(entry["entryPerArea"] as? [String: Any])
            return (try #require(at(try #require(entry["deliveryStart"] as? String))), try #require(prices["SE3"] as? Double))
        }
    }

    /// ECB rates of a day whose SEK rate is far from Nord Pool's: used only where a price is converted.
    static func otherDaysRates() -> ExchangeRates {
        var rates = ExchangeRates()
        rates.set("SEK", 12.1, on: LocalDay(year: 2025, month: 9, day: 1))
        rates.set("NOK", 11.7, on: LocalDay(year: 2025, month: 9, day: 1))
        return rates
    }

    @Test func nordPoolInKronorPublishesNordPoolsKronorToTheLastDecimal() throws {
        let slots = try NordPoolSource.parse(fixture("nordpool/delivery_period_today.json"), area: "SE3")
        var settings = Settings.defaults
        settings.currency = "SEK"
        settings.vatPercent = 0
        settings.resolution = .native
        let basis = Snapshot.Basis(day: Self.day, calendar: Self.stockholm, settings: settings, slots: slots, rates: Self.otherDaysRates())
        let snapshot = basis.snapshot(at: at("2025-10-01T10:00:00Z"), source: "nordpool", stale: false, updatedAt: nil)
        let figures = try Self.nordPoolFigures()
        var compared = 0
        for slot in snapshot.today {
            guard let figure = figures.first(where: { $0.start == slot.slot.start }) else { continue }
            // Nord Pool publishes two decimals per MWh: five per kWh.
            #expect(DecimalFormat.string(slot.price, decimals: 5) == DecimalFormat.string(figure.perMWh / 1000, decimals: 5))
            #expect(slot.components.market == slot.slot.value)
            compared += 1
        }
        #expect(compared > 80)
        #expect(!snapshot.missingRate)
    }

    @Test func aPriceInAnotherCurrencyIsConvertedThroughTheEuroAtTheRateOfItsDay() throws {
        let slots = try NordPoolSource.parse(fixture("nordpool/delivery_period_today.json"), area: "SE3")
        var settings = Settings.defaults
        settings.vatPercent = 0
        settings.resolution = .native
        for (currency, factor) in [("EUR", 1 / 12.1), ("NOK", 11.7 / 12.1)] {
            settings.currency = currency
            let basis = Snapshot.Basis(
                day: Self.day, calendar: Self.stockholm, settings: settings, slots: slots, rates: Self.otherDaysRates())
            let first = try #require(
                basis.snapshot(at: at("2025-10-01T10:00:00Z"), source: "nordpool", stale: false, updatedAt: nil).today.first)
            #expect(abs(first.components.market - first.slot.value * factor) < 1e-12, "\(currency)")
        }
        // Without a SEK rate, a EUR profile publishes nothing from SEK prices rather than a guess.
        settings.currency = "EUR"
        let none = Snapshot.Basis(day: Self.day, calendar: Self.stockholm, settings: settings, slots: slots, rates: ExchangeRates())
        let snapshot = none.snapshot(at: at("2025-10-01T10:00:00Z"), source: "nordpool", stale: false, updatedAt: nil)
        #expect(snapshot.today.isEmpty && snapshot.missingRate)
        #expect(ExchangeRates().conversion(from: Currency("SEK")!, to: "SEK", on: Self.day) == 1)
    }

    @Test func thePriceLimitIsTenEuroInEachCurrency() throws {
        let t = at("2025-10-01T10:00:00Z")
        func slot(_ price: Double, _ code: String) -> [SeriesSlot] {
            [SeriesSlot(start: t, end: t.addingTimeInterval(900), value: price, currency: Currency(code)!)]
        }
        #expect(Currency("SEK")?.priceLimit == 112 && Currency("EUR")?.priceLimit == 10)
        #expect(throws: Never.self) { try slot(100, "SEK").validated() }
        #expect(throws: SlotProblem.outOfRange(value: 100, at: t, limit: 10, quantity: .price(.eur))) { try slot(100, "EUR").validated() }
        #expect(throws: SlotProblem.self) { try slot(-120, "SEK").validated() }
        #expect(Currency("sek") == nil && Currency("XBT") == nil && Currency("EURO") == nil)
    }

    @Test func nordPoolKeepsACachePerQuotedCurrency() {
        var settings = Settings.defaults
        settings.zone = "SE3"
        let source = NordPoolSource()
        #expect(source.cacheKey(for: settings) == "nordpool/SE3")
        settings.currency = "SEK"
        #expect(source.cacheKey(for: settings) == "nordpool/SE3/SEK")
        settings.currency = "GBP"  // Not offered by Nord Pool: EUR prices, converted.
        #expect(source.cacheKey(for: settings) == "nordpool/SE3")
    }

    @Test func aVersionFiveStoreMigratesItsPricesAsEuroMarketPrices() throws {
        let directory = temporaryDirectory()
        let path = directory.appendingPathComponent(PriceStore.fileName).path
        try sqlite(
            path,
            StoreSafetyTests.versionOneSchema + """
                CREATE TABLE exchange_rates (day TEXT NOT NULL, currency TEXT NOT NULL, rate REAL NOT NULL, PRIMARY KEY (day, currency)) WITHOUT ROWID;
                CREATE TABLE notes (name TEXT NOT NULL, item TEXT NOT NULL, PRIMARY KEY (name, item)) WITHOUT ROWID;
                CREATE TABLE profiles (name TEXT PRIMARY KEY, position INTEGER NOT NULL, json TEXT NOT NULL) WITHOUT ROWID;
                INSERT INTO prices VALUES ('nordpool/SE3', 1768435200, 1768438800, 0.0512);
                PRAGMA user_version = 5;
                """)
        let store = try PriceStore(directory: directory)
        let all = DateInterval(start: Date(timeIntervalSince1970: 0), duration: 4e9)
        let kept = try store.slots(source: "nordpool/SE3", overlapping: all)
        #expect(
            kept == [
                SeriesSlot(
                    start: Date(timeIntervalSince1970: 1_768_435_200), end: Date(timeIntervalSince1970: 1_768_438_800), value: 0.0512,
                    provenance: .official("nordpool"))
            ])
        #expect(kept.first?.currency == .eur && kept.first?.basis == .market && kept.first?.level == nil)
        #expect(try store.slots(source: "energyzero", overlapping: all).map(\.value) == [0.12])
        // What a source quoted comes back as it was saved.
        let tibber = SeriesSlot(
            start: at("2023-04-28T13:00:00Z"), end: at("2023-04-28T14:00:00Z"), value: 1.3832, currency: Currency("SEK")!, basis: .retail,
            level: .normal, provenance: .official("tibber"))
        try store.save([tibber], source: "tibber", fetchedAt: nil)
        #expect(try store.slots(source: "tibber", overlapping: all) == [tibber])
        store.close()
        #expect(try sqlite(path, "PRAGMA user_version") == ["\(PriceStore.schemaVersion)"])
        // A row with a currency or level this build does not know is left out, not read as another.
        try sqlite(
            path, "UPDATE prices SET currency = 'XBT' WHERE source = 'energyzero'; UPDATE prices SET level = 9 WHERE source = 'tibber';")
        let again = try PriceStore(directory: directory)
        #expect(try again.slots(source: "energyzero", overlapping: all).isEmpty)
        #expect(try again.slots(source: "tibber", overlapping: all).isEmpty)
        #expect(try again.slots(source: "nordpool/SE3", overlapping: all).count == 1)
    }

    @Test func hourlyMeansKeepTheQuotedCurrencyAndALevelOnlyWhereItIsShared() throws {
        let calendar = LocalCalendar(identifier: "UTC")!
        let sek = Currency("SEK")!
        let t = at("2025-10-01T10:00:00Z")
        func slot(_ minutes: Double, _ price: Double, _ level: PriceLevel?) -> SeriesSlot {
            SeriesSlot(
                start: t.addingTimeInterval(minutes * 60), end: t.addingTimeInterval((minutes + 15) * 60), value: price, currency: sek,
                basis: .retail, level: level)
        }
        let quarters = [
            slot(0, 1, .cheap), slot(15, 2, .cheap), slot(30, 3, .cheap), slot(45, 4, .cheap), slot(60, 1, .cheap), slot(75, 1, .normal),
        ]
        let hours = quarters.at(.hour, in: calendar)
        #expect(hours.count == 2)
        #expect(hours[0].value == 2.5 && hours[0].currency == sek && hours[0].basis == .retail && hours[0].level == .cheap)
        #expect(hours[1].level == nil && hours[1].end == t.addingTimeInterval(90 * 60))
    }
}
