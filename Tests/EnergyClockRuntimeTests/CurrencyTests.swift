import EnergyClockDomain
import EnergyClockSources
import EnergyClockSupport
import EnergyClockTesting
import Foundation
import Testing

/// Prices in the user's own currency, at the ECB's euro reference rates.
@Suite struct CurrencyTests {
    static let ecbFile = fixture("ecb/eurofxref-daily_2025-05-09.xml")
    let stockholm = LocalCalendar(identifier: "Europe/Stockholm")!

    @Test func theRecordedRatesFileIsRead() throws {
        let (day, rates) = try ExchangeRates.parseECB(Self.ecbFile)
        #expect(day == LocalDay(year: 2025, month: 5, day: 9))
        #expect(rates.count == 30)
        #expect(rates["SEK"] == 10.92)
        #expect(rates["NOK"] == 11.6725)
        #expect(rates["GBP"] == 0.8477)
        #expect(rates["EUR"] == nil)
        #expect(Set(rates.keys) == Set(ExchangeRates.ecbCurrencies))
    }

    @Test(arguments: [
        ("<Cube currency='SEK' rate='10.9200'/>", "<Cube rate='10.92'/>", "a rate without a currency"),
        ("<Cube currency='SEK' rate='10.9200'/>", "<Cube currency='SEK' rate='0'/>", "not a positive number"),
        ("<Cube currency='SEK' rate='10.9200'/>", "<Cube currency='SEK' rate='ten'/>", "not a positive number"),
        ("<Cube time='2025-05-09'>", "<Cube time='2025-13-09'>", "not a date"),
        ("</gesmes:Envelope>", "", "not well-formed XML"),
    ])
    func brokenFilesAreRefused(original: String, replacement: String, reason: String) throws {
        let text = String(decoding: Self.ecbFile, as: UTF8.self)
        #expect(text.contains(original))
        let broken = Array(text.replacingOccurrences(of: original, with: replacement).utf8)
        #expect(performing: { _ = try ExchangeRates.parseECB(broken) }, throws: { "\($0)".hasPrefix("ecb: ") && "\($0)".contains(reason) })
    }

    @Test func garbageAndEmptyAnswersAreRefused() {
        for body in ["", "garbage", "<html><body>Service unavailable</body></html>", "<Envelope><Cube/></Envelope>"] {
            #expect(performing: { _ = try ExchangeRates.parseECB(Array(body.utf8)) }, throws: { "\($0)".hasPrefix("ecb: ") })
        }
    }

    @Test func aMissingCurrencyLeavesItsPricesOut() throws {
        let text = String(decoding: Self.ecbFile, as: UTF8.self).replacingOccurrences(of: "<Cube currency='SEK' rate='10.9200'/>", with: "")
        let (day, parsed) = try ExchangeRates.parseECB(Array(text.utf8))
        #expect(parsed["SEK"] == nil && parsed["NOK"] != nil)
        var rates = ExchangeRates()
        for (currency, rate) in parsed { rates.set(currency, rate, on: day) }
        let snapshot = derive(at: "2025-05-09T10:00:00Z", days: ["2025-05-09"], rates: rates)
        #expect(snapshot.current == nil && snapshot.today.isEmpty && snapshot.missingRate)
    }

    /// Hourly slots of 0.1 EUR/kWh on each local day in `days`, priced in SEK without VAT.
    func derive(at now: String, days: [String], rates: ExchangeRates) -> Snapshot {
        var settings = Settings.defaults
        settings.currency = "SEK"
        settings.vatPercent = 0
        settings.zone = "SE3"
        let slots = days.flatMap { text -> [SeriesSlot] in
            let span = stockholm.interval(of: LocalDay(parsing: text)!)
            return stride(from: span.start.timeIntervalSince1970, to: span.end.timeIntervalSince1970, by: 3600).map {
                SeriesSlot(start: Date(timeIntervalSince1970: $0), end: Date(timeIntervalSince1970: $0 + 3600), value: 0.1)
            }
        }
        return Snapshot.derive(
            now: at(now), calendar: stockholm, settings: settings, slots: slots, source: "nordpool", stale: false, updatedAt: nil,
            rates: rates)
    }

    func recorded() throws -> ExchangeRates {
        let (day, parsed) = try ExchangeRates.parseECB(Self.ecbFile)
        var rates = ExchangeRates()
        for (currency, rate) in parsed { rates.set(currency, rate, on: day) }
        return rates
    }

    @Test func aWeekdayTakesItsOwnRate() throws {
        var rates = try recorded()
        rates.set("SEK", 11.0, on: LocalDay(year: 2025, month: 5, day: 12))
        // Friday 9 May at Friday's rate, Monday 12 May at Monday's.
        let friday = derive(at: "2025-05-09T10:00:00Z", days: ["2025-05-09"], rates: rates)
        #expect(friday.current?.price == 1.092)
        #expect(friday.current?.components.market == 0.1 * 10.92)
        let monday = derive(at: "2025-05-12T10:00:00Z", days: ["2025-05-12"], rates: rates)
        #expect(monday.current?.price == 1.1)
    }

    @Test func aWeekendTakesFridaysRate() throws {
        let snapshot = derive(at: "2025-05-10T10:00:00Z", days: ["2025-05-10", "2025-05-11"], rates: try recorded())
        #expect(snapshot.current?.price == 1.092)
        #expect(snapshot.today.count == 24 && snapshot.tomorrow.count == 24)
        #expect(snapshot.tomorrow.allSatisfy { $0.price == 1.092 })
        #expect(!snapshot.missingRate)
    }

    @Test func beforeTheFirstKnownRateNothingIsPublished() throws {
        let snapshot = derive(at: "2025-05-08T10:00:00Z", days: ["2025-05-08", "2025-05-09"], rates: try recorded())
        #expect(snapshot.current == nil, "no price is made up for Thursday")
        #expect(snapshot.today.isEmpty)
        #expect(snapshot.tomorrow.count == 24, "Friday has its rate")
        #expect(snapshot.missingRate)
        let none = derive(at: "2025-05-09T10:00:00Z", days: ["2025-05-09"], rates: ExchangeRates())
        #expect(none.current == nil && none.today.isEmpty && none.missingRate)
    }

    @Test func euroNeedsNoRate() {
        var settings = Settings.defaults
        settings.vatPercent = 0
        let start = at("2025-05-08T10:00:00Z")
        let snapshot = Snapshot.derive(
            now: start, calendar: stockholm, settings: settings,
            slots: [SeriesSlot(start: start, end: start.addingTimeInterval(3600), value: 0.1)],
            source: "x", stale: false, updatedAt: nil)
        #expect(snapshot.current?.price == 0.1 && !snapshot.missingRate)
    }
}
