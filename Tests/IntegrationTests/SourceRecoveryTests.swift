import EnergyClockDomain
import EnergyClockSupport
import EnergyClockTesting
import Foundation
import MQTTClient
import Testing

/// Every source over real HTTP: a broken API keeps the cache and says `stale`, a healed one recovers.
@Suite(.timeLimit(.minutes(1)))
struct SourceRecoveryTests {
    /// One source with a recorded or hand-made answer, the day it covers and the path it is asked on.
    struct Case: Sendable, CustomStringConvertible {
        let source: String
        let zone: String
        let path: String
        let contentType: String
        let body: [UInt8]
        /// Ten minutes before the source's next day is due, local, on a day the answer covers but not the next day.
        let start: Date
        /// The settings the source needs besides `source` and `zone`.
        var extra: [SettingsField: SettingValue] = [:]
        /// The daemon's time zone.
        var timeZone = "Europe/Amsterdam"
        /// The local hour at which the next day is due, as it appears in `current.start`.
        var due = "T13:00:00"

        var description: String { source }
        var settings: [SettingsField: SettingValue] {
            [.source: .text(source), .zone: .text(zone), .customURL: .text(source == "custom" ? "http://127.0.0.1:\(0)/custom.json" : "")]
                .merging(extra) { $1 }
        }
    }

    /// Octopus Agile's recorded page of region L, edited: `next` (a link to the real API, which the
    /// source does not follow off its own host) is null.
    static let agilePage = Array(
        String(decoding: fixture("octopus/agile_region-L_2023-11-07_to_09_page1.json"), as: UTF8.self)
            .replacingOccurrences(
                of:
                    #""next": "https://api.octopus.energy/v1/products/AGILE-FLEX-22-11-25/electricity-tariffs/E-1R-AGILE-FLEX-22-11-25-L/standard-unit-rates/?page=2""#,
                with: #""next": null"#
            ).utf8)

    /// Tibber's recorded Swedish answer, edited: `tomorrow` is empty, as before 13:00.
    static let tibberToday: [UInt8] = {
        let cassette = String(decoding: fixture("tibber/vcr_prices_current_2023-04-28.yml"), as: UTF8.self)
        let text = String(decoding: Cassette.responseBodies(cassette)[1], as: UTF8.self)
        let cut = text.range(of: #""tomorrow":["#)!
        let end = text.range(of: "]", range: cut.upperBound..<text.endIndex)!
        return Array(text.replacingCharacters(in: cut.upperBound..<end.lowerBound, with: "").utf8)
    }()

    /// Hourly prices 0.05 + h/100 EUR/kWh for 15 January 2026 in Amsterdam.
    static let hours = (0..<24).map { h in
        (start: at("2026-01-14T23:00:00Z").addingTimeInterval(Double(h) * 3600), price: 0.05 + Double(h) / 100)
    }

    static let cases: [Case] = [
        Case(
            source: "energyzero", zone: "NL", path: "/public/v1/prices", contentType: "application/json",
            body: ServiceHarness.quarterFixture, start: at("2025-12-18T12:50:00+01:00")),
        Case(
            source: "entsoe", zone: "BE", path: "/api", contentType: "text/xml", body: fixture("BE_60M.xml"),
            start: at("2024-10-08T12:50:00+02:00")),
        Case(
            source: "awattar", zone: "DE-LU", path: "/v1/marketdata", contentType: "application/json",
            body: Array(
                ("{\"object\":\"list\",\"data\":["
                    + hours.map {
                        "{\"start_timestamp\":\(Int($0.start.timeIntervalSince1970) * 1000),\"end_timestamp\":\(Int($0.start.timeIntervalSince1970) * 1000 + 3_600_000),\"marketprice\":\($0.price * 1000),\"unit\":\"Eur/MWh\"}"
                    }.joined(separator: ",") + "]}").utf8), start: at("2026-01-15T12:50:00+01:00")),
        Case(
            source: "energycharts", zone: "DE-LU", path: "/price", contentType: "application/json",
            body: Array(
                ("{\"unix_seconds\":[" + hours.map { "\(Int($0.start.timeIntervalSince1970))" }.joined(separator: ",")
                    + "],\"price\":[" + hours.map { "\($0.price * 1000)" }.joined(separator: ",") + "],\"unit\":\"EUR / MWh\"}").utf8),
            start: at("2026-01-15T12:50:00+01:00")),
        Case(
            source: "nordpool", zone: "NL", path: "/DayAheadPrices", contentType: "application/json",
            body: fixture("nordpool/delivery_period_nl.json"), start: at("2024-11-05T12:50:00+01:00")),
        Case(
            source: "octopus", zone: "GB", path: "/v1/products/AGILE-24-10-01/electricity-tariffs/E-1R-AGILE-24-10-01-L/",
            contentType: "application/json", body: agilePage, start: at("2023-11-08T15:50:00Z"),
            extra: [.octopusRegion: .text("L"), .currency: .text("GBP"), .vatPercent: .number(5), .colorMode: .text("relative")],
            timeZone: "Europe/London",
            due: "T16:00:00"),
        Case(
            source: "tibber", zone: "SE3", path: "/", contentType: "application/json", body: tibberToday,
            start: at("2023-04-28T12:50:00+02:00"),
            extra: [.currency: .text("SEK"), .greenMax: .number(1), .yellowMax: .number(1.5), .orangeMax: .number(2)],
            timeZone: "Europe/Stockholm"),
        Case(
            source: "custom", zone: "NL", path: "/custom.json", contentType: "application/json",
            body: Array(
                ("[" + hours.map { "{\"start\":\"\(ISO8601.utc($0.start))\",\"price\":\($0.price)}" }.joined(separator: ",") + "]").utf8),
            start: at("2026-01-15T12:50:00+01:00")),
    ]

    enum Breakage: String, CaseIterable, Sendable {
        case serverError, timeout, emptyBody, garbage, slowLoris

        func response(_ good: Case) -> TestHTTPServer.Response {
            switch self {
            case .serverError: TestHTTPServer.Response(status: 500, contentType: "text/plain", body: Array("oops".utf8))
            case .timeout: TestHTTPServer.Response(contentType: good.contentType, body: good.body, delay: 3)
            case .emptyBody: TestHTTPServer.Response(contentType: good.contentType, body: [])
            case .garbage: TestHTTPServer.Response(contentType: good.contentType, body: Array("{<not json or xml".utf8))
            case .slowLoris: TestHTTPServer.Response(contentType: good.contentType, body: good.body, drip: 0.05)
            }
        }
    }

    /// A server that answers `good` on its path (or `broken` while set) and 404 elsewhere.
    static func server(for good: Case) throws -> (TestHTTPServer, @Sendable (TestHTTPServer.Response?) -> Void) {
        let server = try TestHTTPServer { _ in TestHTTPServer.Response(status: 404) }
        let install: @Sendable (TestHTTPServer.Response?) -> Void = { broken in
            server.respond { target in
                guard target.hasPrefix(good.path) else { return TestHTTPServer.Response(status: 404, body: Array("{}".utf8)) }
                return broken ?? TestHTTPServer.Response(contentType: good.contentType, body: good.body)
            }
        }
        install(nil)
        return (server, install)
    }

    @Test(arguments: cases, Breakage.allCases)
    func aBrokenAPIKeepsTheCacheAndRecovers(good: Case, breakage: Breakage) async throws {
        let broker = try await TestBroker.start()
        let (http, install) = try Self.server(for: good)
        let clock = ManualClock(start: good.start)
        var settings = good.settings
        if good.source == "custom" { settings[.customURL] = .text(http.baseURL.absoluteString + "/custom.json") }
        let harness = try ServiceHarness(
            broker: broker, http: http, clock: clock, settings: settings, fetchTimeout: 1,
            calendar: try #require(LocalCalendar(identifier: good.timeZone)))
        let live = try await TopicRecorder(port: broker.port, filter: "energyclock/#")
        // A first fetch that a loaded machine made slower than the time-out is retried in test time, before 13:00.
        let published = await harness.advance(
            until: { live.last("energyclock/price")?.isEmpty == false },
            limit: good.start.addingTimeInterval(599))
        #expect(published, "\(good.source) never published a price")
        let current = await live.wait(for: "energyclock/current") { !$0.isEmpty }
        #expect(object(current)?["source"] as? String == good.source)

        // At 13:00 (16:00 in London for Octopus) tomorrow is due and not known, so it fetches, and the API is broken.
        install(breakage.response(good))
        #expect(await clock.waitForSleeper(until: good.start.addingTimeInterval(600)))
        await clock.advance(to: good.start.addingTimeInterval(600))
        let stale = await live.wait(for: "energyclock/current", timeout: 10) { object($0)?["stale"] as? Bool == true }
        #expect(stale != nil, "\(good.source) with \(breakage) did not turn stale")
        // The cache is kept and still shown: the slot it already had.
        #expect((object(stale)?["start"] as? String)?.contains(good.due) == true)
        #expect(live.last("energyclock/price")?.isEmpty == false)
        #expect(await live.wait(for: "energyclock/stale") { $0 == "true" } != nil)

        // Healed: the retry 30 s later (or, on a loaded machine, a later one) clears stale.
        install(nil)
        #expect(await clock.waitForSleeper(until: clock.now.addingTimeInterval(30)))
        #expect(await harness.advance(until: { object(live.last("energyclock/current"))?["stale"] as? Bool == false }))
        #expect(await live.wait(for: "energyclock/stale") { $0 == "false" } != nil)
        await live.stop()
        await harness.stop()
    }

    @Test func failsOverToTheNextSourceAndSaysWhichServed() async throws {
        let broker = try await TestBroker.start()
        let entsoe = Self.cases[1]
        // Energy-Charts serves the same Belgian day as the recorded ENTSO-E answer, 1 EUR/MWh dearer.
        let starts = (0..<24).map { at("2024-10-07T22:00:00Z").addingTimeInterval(Double($0) * 3600) }
        let charts = Array(
            ("{\"unix_seconds\":[" + starts.map { "\(Int($0.timeIntervalSince1970))" }.joined(separator: ",")
                + "],\"price\":[" + starts.map { _ in "100" }.joined(separator: ",") + "]}").utf8)
        let http = try TestHTTPServer { target in
            if target.hasPrefix("/api") { return TestHTTPServer.Response(status: 503, body: []) }
            if target.hasPrefix("/price") { return .json(charts) }
            return TestHTTPServer.Response(status: 404)
        }
        let harness = try ServiceHarness(
            broker: broker, http: http, clock: ManualClock(start: entsoe.start),
            settings: [
                .source: .text("entsoe"), .zone: .text("BE"), .fallbackSources: .list(["energycharts"]),
            ])
        let live = try await TopicRecorder(port: broker.port, filter: "energyclock/#")
        let current = try #require(object(await live.wait(for: "energyclock/current") { !$0.isEmpty }))
        #expect(current["source"] as? String == "energycharts")
        #expect(current["stale"] as? Bool == false)
        #expect(current["market_price"] as? Double == 0.1)
        #expect(object(live.last("energyclock/settings"))?["source"] as? String == "entsoe")
        #expect(http.requests.contains { $0.hasPrefix("/api?securityToken=test-token&documentType=A44&in_Domain=10YBE----------2") })
        await live.stop()
        await harness.stop()
    }

    /// Nord Pool as the chosen source and as the fallback, with Energy-Charts on the other side.
    @Test(arguments: [("nordpool", "energycharts"), ("energycharts", "nordpool")])
    func failsOverToAndFromNordPool(chosen: String, fallback: String) async throws {
        let broker = try await TestBroker.start()
        // Energy-Charts serves the Dutch day of the recorded Nord Pool answer at 50 EUR/MWh.
        let starts = (0..<24).map { at("2024-11-04T23:00:00Z").addingTimeInterval(Double($0) * 3600) }
        let charts = Array(
            ("{\"unix_seconds\":[" + starts.map { "\(Int($0.timeIntervalSince1970))" }.joined(separator: ",")
                + "],\"price\":[" + starts.map { _ in "50" }.joined(separator: ",") + "]}").utf8)
        let nordPool = fixture("nordpool/delivery_period_nl.json")
        let http = try TestHTTPServer { target in
            let failing = chosen == "nordpool" ? "/DayAheadPrices" : "/price"
            if target.hasPrefix(failing) { return TestHTTPServer.Response(status: 503, body: []) }
            if target.hasPrefix("/price") { return .json(charts) }
            if target.hasPrefix("/DayAheadPrices?date=2024-11-05&market=DayAhead&deliveryArea=NL&currency=EUR") { return .json(nordPool) }
            return TestHTTPServer.Response(status: 204)
        }
        let harness = try ServiceHarness(
            broker: broker, http: http, clock: ManualClock(start: at("2024-11-05T10:20:00+01:00")),
            settings: [.source: .text(chosen), .zone: .text("NL"), .fallbackSources: .list([fallback]), .vatPercent: .number(0)])
        let live = try await TopicRecorder(port: broker.port, filter: "energyclock/#")
        let current = try #require(object(await live.wait(for: "energyclock/current") { !$0.isEmpty }))
        #expect(current["source"] as? String == fallback)
        // 10:00–11:00 local: 105.87 EUR/MWh at Nord Pool, 50 at Energy-Charts.
        #expect(current["market_price"] as? Double == (fallback == "nordpool" ? 0.10587 : 0.05))
        await live.stop()
        await harness.stop()
    }

    @Test func customURLCannotBeChangedRemotelyUnlessAllowed() async throws {
        let broker = try await TestBroker.start()
        let harness = try ServiceHarness(
            broker: broker, http: try fixtureServer(), clock: ManualClock(start: at("2025-12-17T10:20:00+01:00")))
        let live = try await TopicRecorder(port: broker.port, filter: "energyclock/#")
        _ = await live.wait(for: "energyclock/status")
        try live.client.publish("energyclock/settings/set", #"{"source":"custom","custom_url":"http://example.invalid/p.json"}"#)
        let result = try #require(object(await live.wait(for: "energyclock/settings/result")))
        #expect(result["ok"] as? Bool == false)
        #expect((result["error"] as? String)?.contains("--allow-remote-url") == true)
        await live.stop()
        await harness.stop()
    }
}
