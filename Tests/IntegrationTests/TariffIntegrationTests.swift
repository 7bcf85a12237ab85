import EnergyClockDomain
import EnergyClockStore
import EnergyClockSupport
import EnergyClockTesting
import Foundation
import MQTTClient
import Synchronization
import Testing

/// What a household really pays, through the real broker: grid fees, VAT and its own currency.
@Suite(.timeLimit(.minutes(1)))
struct TariffIntegrationTests {
    static let ecbFile = fixture("ecb/eurofxref-daily_2025-05-09.xml")

    /// A loopback server with hourly custom prices and the ECB file that `rates` hands out for each
    /// request (nil for a failure), by default the recorded one.
    static func server(prices: [UInt8], rates: @escaping @Sendable () -> [UInt8]? = { ecbFile }) throws -> TestHTTPServer {
        try TestHTTPServer { target in
            if target.hasPrefix("/eurofxref-daily.xml") {
                return rates().map { TestHTTPServer.Response(contentType: "text/xml", body: $0) }
                    ?? TestHTTPServer.Response(status: 500, body: [])
            }
            if target.hasPrefix("/custom.json") { return .json(prices) }
            return TestHTTPServer.Response(status: 404)
        }
    }

    /// A service on Monday 12 May 2025, 10:00 in Amsterdam, pricing `http`'s custom list in SEK
    /// without VAT and with relative thresholds (which need no SEK thresholds of their own).
    static func mondayInSEK(_ http: TestHTTPServer, _ broker: TestBroker) throws -> ServiceHarness {
        try ServiceHarness(
            broker: broker, http: http, clock: ManualClock(start: at("2025-05-12T10:00:00+02:00")),
            settings: [
                .source: .text("custom"), .customURL: .text(http.baseURL.absoluteString + "/custom.json"), .currency: .text("SEK"),
                .colorMode: .text("relative"), .vatPercent: .number(0),
            ])
    }

    /// Hourly prices for the local day holding `day`, in `calendar`: `market(hour)` EUR/kWh.
    static func hourly(_ day: LocalDay, _ calendar: LocalCalendar, _ market: (Int) -> Double) -> [UInt8] {
        let start = calendar.start(of: day)
        let items = (0..<24).map { hour in
            "{\"start\":\(Int(start.timeIntervalSince1970) + hour * 3600),\"price\":\(market(hour))}"
        }
        return Array("[\(items.joined(separator: ","))]".utf8)
    }

    @Test func aDanishPeakTariffTurnsTheCheapestMarketHourRed() async throws {
        let copenhagen = try #require(LocalCalendar(identifier: "Europe/Copenhagen"))
        let monday = LocalDay(year: 2025, month: 5, day: 12)
        // The market is cheapest at 18:00; the grid fee makes 17–21 on working days the dearest.
        let http = try Self.server(prices: Self.hourly(monday, copenhagen) { $0 == 18 ? 0.01 : 0.10 })
        let broker = try await TestBroker.start()
        let fee = #"{"default":0.2,"periods":[{"from":"17:00","to":"21:00","fee":3,"days":["mon","tue","wed","thu","fri"]}]}"#
        let harness = try ServiceHarness(
            broker: broker, http: http, clock: ManualClock(start: at("2025-05-12T10:00:00+02:00")),
            settings: [
                .source: .text("custom"), .zone: .text("DK1"), .customURL: .text(http.baseURL.absoluteString + "/custom.json"),
                .currency: .text("DKK"), .greenMax: .number(1), .yellowMax: .number(2), .orangeMax: .number(3),
                .vatPercent: .number(25), .gridFee: .gridFee(try GridFee(json: #require(JSONValue.parse(Array(fee.utf8))))),
            ],
            calendar: copenhagen)
        let live = try await TopicRecorder(port: broker.port, filter: "energyclock/#")

        // 10:00: (0.10 × 7.4604 + 0.2) × 1.25 = 1.18255 DKK, yellow.
        let morning = try #require(object(await live.wait(for: "energyclock/current") { !$0.isEmpty }))
        #expect(morning["price"] as? Double == 1.18255)
        #expect(morning["unit"] as? String == "DKK/kWh")
        #expect(live.last("energyclock/color") == "yellow")
        let components = try #require(morning["components"] as? [String: Any])
        #expect(components["market"] as? Double == 0.74604)
        #expect(components["grid_fee"] as? Double == 0.2)
        let sum = ["market", "markup", "surcharge", "grid_fee", "vat"].compactMap { components[$0] as? Double }.reduce(0, +)
        #expect(abs(sum - 1.18255) < 1e-6)

        // The whole day is published in DKK: 18:00 is red, the cheapest slot is elsewhere.
        let today = try #require(array(await live.wait(for: "energyclock/prices/today") { array($0)?.count == 24 }))
        #expect(today.count == 24)
        let six = try #require(today.first { ($0["start"] as? String)?.contains("T18:00:00+02:00") == true })
        // (0.01 × 7.4604 + 3) × 1.25 = 3.843255 DKK.
        #expect(six["price"] as? Double == 3.843255)
        #expect(six["band"] as? String == "red")
        #expect(object(live.last("energyclock/thresholds"))?["unit"] as? String == "DKK/kWh")
        let stats = try #require(object(live.last("energyclock/stats/today")))
        #expect(((stats["cheapest"] as? [String: Any])?["start"] as? String)?.contains("T18:00") == false)

        // And at 18:00, the day's cheapest market hour, the colour topic says red.
        #expect(
            await harness.advance(
                until: { object(live.last("energyclock/current"))?["market_price"] as? Double == 0.01 },
                limit: at("2025-05-12T18:00:00+02:00")))
        #expect(await live.wait(for: "energyclock/color") { $0 == "red" } != nil)
        #expect(live.last("energyclock/price") == "3.843255")
        await live.stop()
        await harness.stop()
    }

    @Test func aFailedRatesFetchKeepsTheLastRateAndSaysStale() async throws {
        let amsterdam = try #require(LocalCalendar(identifier: "Europe/Amsterdam"))
        let ratesWork = Mutex(true)
        let monday = LocalDay(year: 2025, month: 5, day: 12)
        let http = try Self.server(prices: Self.hourly(monday, amsterdam) { _ in 0.1 }) {
            ratesWork.withLock { $0 } ? Self.ecbFile : nil
        }
        let broker = try await TestBroker.start()
        let harness = try Self.mondayInSEK(http, broker)
        let live = try await TopicRecorder(port: broker.port, filter: "energyclock/#")
        // Monday morning: Friday's rate, 10.92 SEK per euro.
        #expect(await live.wait(for: "energyclock/price") { $0 == "1.092" } != nil)
        #expect(live.last("energyclock/stale") == "false")
        #expect(http.requests.filter { $0.hasPrefix("/eurofxref-daily.xml") }.count == 1)

        // At 16:00 CET Monday's rates are due; the ECB fails, so the prices stay at Friday's rate and turn stale.
        ratesWork.withLock { $0 = false }
        #expect(await harness.advance(until: { live.last("energyclock/stale") == "true" }, limit: at("2025-05-12T17:00:00+02:00")))
        #expect(live.last("energyclock/price") == "1.092")
        #expect(object(live.last("energyclock/current"))?["stale"] as? Bool == true)
        // Healed: the retry brings the file back (still Friday's), and stale clears.
        ratesWork.withLock { $0 = true }
        #expect(await harness.advance(until: { live.last("energyclock/stale") == "false" }, limit: at("2025-05-12T18:00:00+02:00")))
        await live.stop()
        await harness.stop()
    }

    @Test func aRatesFileFromTheFutureOrWithAbsurdRatesIsRefusedAndRetried() async throws {
        let amsterdam = try #require(LocalCalendar(identifier: "Europe/Amsterdam"))
        // First a file dated 2099, then one whose SEK rate is 1e308, then one six weeks old, then the recorded one.
        let files = [
            fixture("hostile/ecb-dated-2099.xml"), fixture("hostile/ecb-sek-1e308.xml"), fixture("hostile/ecb-dated-2025-04-01.xml"),
            Self.ecbFile,
        ]
        let asked = Atomic(0)
        let http = try Self.server(prices: Self.hourly(LocalDay(year: 2025, month: 5, day: 12), amsterdam) { _ in 0.1 }) {
            files[min(asked.add(1, ordering: .relaxed).oldValue, files.count - 1)]
        }
        let broker = try await TestBroker.start()
        let harness = try Self.mondayInSEK(http, broker)
        let live = try await TopicRecorder(port: broker.port, filter: "energyclock/#")
        // Neither hostile file is believed: no price at a made-up rate, stale, and asked again.
        #expect(await live.wait(for: "energyclock/stale") { $0 == "true" } != nil)
        #expect(live.all("energyclock/price").allSatisfy { $0.isEmpty })
        #expect(await harness.advance(until: { live.last("energyclock/price") == "1.092" }, limit: at("2025-05-12T12:00:00+02:00")))
        #expect(asked.load(ordering: .relaxed) >= 4)
        #expect(live.all("energyclock/price").allSatisfy { $0.isEmpty || $0 == "1.092" }, "never nan, never 0")
        #expect(live.last("energyclock/stale") == "false")
        await live.stop()
        await harness.stop()

        // The refused days never reached the store: a restart does not take 2099 as the newest day.
        let store = try PriceStore(directory: harness.stateDirectory)
        let stored = try store.exchangeRates(notAfter: LocalDay(year: 2200, month: 1, day: 1))
        #expect(stored.rates.latestDay == LocalDay(year: 2025, month: 5, day: 9))
        store.close()
    }

    @Test func withoutAnyRateNoConvertedPriceIsPublished() async throws {
        let amsterdam = try #require(LocalCalendar(identifier: "Europe/Amsterdam"))
        let http = try Self.server(
            prices: Self.hourly(LocalDay(year: 2025, month: 5, day: 12), amsterdam) { _ in 0.1 }, rates: { nil })
        let broker = try await TestBroker.start()
        let harness = try ServiceHarness(
            broker: broker, http: http, clock: ManualClock(start: at("2025-05-12T10:00:00+02:00")),
            settings: [
                .source: .text("custom"), .customURL: .text(http.baseURL.absoluteString + "/custom.json"), .currency: .text("NOK"),
                .colorMode: .text("relative"),
            ])
        let live = try await TopicRecorder(port: broker.port, filter: "energyclock/#")
        #expect(await live.wait(for: "energyclock/stale") { $0 == "true" } != nil)
        #expect(await live.wait(for: "energyclock/prices/today") { $0 == "[]" } != nil)
        #expect(live.last("energyclock/price") == nil || live.last("energyclock/price") == "")
        #expect(live.last("energyclock/current") == nil || live.last("energyclock/current") == "")
        await live.stop()
        await harness.stop()
    }
}
