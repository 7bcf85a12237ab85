import EnergyClockDomain
import EnergyClockPublisher
import EnergyClockSources
import EnergyClockSupport
import EnergyClockTesting
import Foundation
import MQTTClient
import Synchronization
import Testing

/// Octopus Agile and Tibber end to end: over the loopback server, to the retained topics.
@Suite(.timeLimit(.minutes(1)))
struct SupplierSourceTests {
    static let london = LocalCalendar(identifier: "Europe/London")!
    static let stockholm = LocalCalendar(identifier: "Europe/Stockholm")!
    static let agilePath = "/v1/products/AGILE-24-10-01/electricity-tariffs/E-1R-AGILE-24-10-01-L/standard-unit-rates/"

    /// The recorded Agile page of region L with its `next` link moved onto `server` (`link`), or removed (nil).
    static func agilePage(next link: String?) -> [UInt8] {
        let text = String(decoding: fixture("octopus/agile_region-L_2023-11-07_to_09_page1.json"), as: UTF8.self)
        let original =
            #""https://api.octopus.energy/v1/products/AGILE-FLEX-22-11-25/electricity-tariffs/E-1R-AGILE-FLEX-22-11-25-L/standard-unit-rates/?page=2""#
        return Array(text.replacingOccurrences(of: original, with: link.map { "\"\($0)\"" } ?? "null").utf8)
    }

    static let octopusSettings: [SettingsField: SettingValue] = [
        .source: .text("octopus"), .zone: .text("GB"), .octopusRegion: .text("L"), .currency: .text("GBP"), .vatPercent: .number(5),
        .greenMax: .number(0.15), .yellowMax: .number(0.25), .orangeMax: .number(0.35), .resolution: .text("native"),
    ]

    /// Waits up to 20 s for a line logged at info or above that contains `text`.
    static func logs(_ harness: ServiceHarness, _ text: String) async -> Bool {
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            if harness.log.messages(atLeast: LogLevel.info).contains(where: { $0.contains(text) }) { return true }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return false
    }

    @Test func agileFollowsItsPagesAndPublishesOctopussOwnPriceWithVAT() async throws {
        let broker = try await TestBroker.start()
        let http = try TestHTTPServer { _ in TestHTTPServer.Response(status: 404) }
        let page2 = http.baseURL.absoluteString + Self.agilePath + "?page=2"
        http.respond { target in
            // Page 2 is the recorded March page: older, as a later page is.
            if target.hasSuffix("?page=2") { return .json(fixture("octopus/agile_2023-03-28_utc-day_48slots.json")) }
            if target.hasPrefix(Self.agilePath) { return .json(Self.agilePage(next: page2)) }
            return TestHTTPServer.Response(status: 404)
        }
        // One day of history: what this test follows is the pages of one fetch, not a week of
        // backfill (a dozen helper runs before the first price, slow on a loaded machine).
        var settings = Self.octopusSettings
        settings[.historyDays] = .integer(1)
        let harness = try ServiceHarness(
            broker: broker, http: http, clock: ManualClock(start: at("2023-11-08T12:10:00Z")), settings: settings,
            options: PublisherOptions(discovery: HADiscovery(sources: SourceRegistry.ids)), calendar: Self.london)
        let live = try await TopicRecorder(port: broker.port, filter: "#")
        let current = try #require(object(await live.wait(for: "energyclock/current") { !$0.isEmpty }))
        // 12:00Z on 8 Nov 2023: 19.69 p without VAT, 20.6745 p with it, as Octopus publishes.
        #expect(live.last("energyclock/price") == "0.206745")
        #expect(current["unit"] as? String == "GBP/kWh" && current["market_currency"] as? String == "GBP")
        #expect(current["basis"] as? String == "tariff" && current["source"] as? String == "octopus")
        let first = try #require(http.requests.first { $0.hasPrefix(Self.agilePath) })
        #expect(first.contains("period_from=2023-11-08T00%3A00%3A00Z&period_to=2023-11-09T00%3A00%3A00Z"), "encoded strictly: \(first)")
        #expect(http.requests.contains { $0.hasSuffix("?page=2") })
        let config = try #require(object(await live.wait(for: "homeassistant/sensor/energyclock/price/config")))
        #expect(config["unit_of_measurement"] as? String == "GBP/kWh")
        await live.stop()
        await harness.stop()
    }

    @Test(arguments: ["loop", "elsewhere"])
    func aNextLinkThatLoopsOrLeavesTheHostIsRefused(kind: String) async throws {
        let broker = try await TestBroker.start()
        let http = try TestHTTPServer { _ in TestHTTPServer.Response(status: 404) }
        let link = kind == "loop" ? http.baseURL.absoluteString + Self.agilePath + "?page=1" : "http://192.0.2.1/steal?page=2"
        http.respond { target in target.hasPrefix(Self.agilePath) ? .json(Self.agilePage(next: link)) : TestHTTPServer.Response(status: 404)
        }
        let harness = try ServiceHarness(
            broker: broker, http: http, clock: ManualClock(start: at("2023-11-08T12:10:00Z")), settings: Self.octopusSettings,
            calendar: Self.london)
        let reason = kind == "loop" ? "a page already read" : "next points away from 127.0.0.1"
        #expect(await Self.logs(harness, reason))
        #expect(http.requests.count <= 3)
        await harness.stop()
    }

    @Test func agileOnADaemonThatDoesNotRunOnUKDaysSaysHowToFixIt() async throws {
        let broker = try await TestBroker.start()
        let http = try TestHTTPServer { _ in .json(Self.agilePage(next: nil)) }
        let harness = try ServiceHarness(
            broker: broker, http: http, clock: ManualClock(start: at("2023-11-08T12:10:00Z")), settings: Self.octopusSettings)
        #expect(await Self.logs(harness, "start it with --timezone Europe/London"))
        await harness.stop()
        let london = try ServiceHarness(
            broker: broker, http: http, clock: ManualClock(start: at("2023-11-08T12:10:00Z")), settings: Self.octopusSettings,
            calendar: Self.london)
        #expect(await Self.logs(london, "loaded"))
        #expect(!london.log.logged.contains { $0.message.contains("--timezone") })
        await london.stop()
    }

    @Test func tibberPublishesItsAllInPriceAndLevelAndSendsTheTokenOnlyToTibber() async throws {
        let broker = try await TestBroker.start()
        let http = try TestHTTPServer { _ in .json(SourceRecoveryTests.tibberToday) }
        let harness = try ServiceHarness(
            broker: broker, http: http, clock: ManualClock(start: at("2023-04-28T15:10:00+02:00")),
            settings: [
                .source: .text("tibber"), .zone: .text("SE3"), .currency: .text("SEK"), .vatPercent: .number(25),
                .greenMax: .number(1), .yellowMax: .number(1.5), .orangeMax: .number(2),
            ], calendar: Self.stockholm)
        let live = try await TopicRecorder(port: broker.port, filter: "energyclock/#")
        let current = try #require(object(await live.wait(for: "energyclock/current") { !$0.isEmpty }))
        // 15:00 local: Tibber's total 1.3832 SEK, no VAT added to it, and Tibber's own level beside our band.
        #expect(live.last("energyclock/price") == "1.3832")
        #expect(current["level"] as? String == "NORMAL" && current["band"] as? String == "yellow")
        #expect(current["basis"] as? String == "retail" && current["unit"] as? String == "SEK/kWh")
        let head = try #require(http.heads.first { $0.hasPrefix("POST ") })
        #expect(head.hasPrefix("POST / ") && head.contains("Authorization: Bearer test-tibber-token"))
        // Nothing published or logged holds the token.
        #expect(!live.messages.contains { $0.text.contains("test-tibber-token") })
        #expect(!harness.log.logged.contains { $0.message.contains("test-tibber-token") })
        await live.stop()
        await harness.stop()
    }

    @Test func anAPIWithoutQuarterHoursIsAskedForHoursInTheSameFetch() async throws {
        let broker = try await TestBroker.start()
        let http = try TestHTTPServer { _ in .json(SourceRecoveryTests.tibberToday) }
        let refusal = Array(
            #"{"errors":[{"message":"Unknown argument \"resolution\" on field \"priceInfo\" of type \"Subscription\"."}]}"#.utf8)
        let count = Mutex(0)
        http.respond { _ in
            count.withLock { $0 += 1 }
            return count.withLock { $0 } == 1 ? TestHTTPServer.Response(status: 400, body: refusal) : .json(SourceRecoveryTests.tibberToday)
        }
        let harness = try ServiceHarness(
            broker: broker, http: http, clock: ManualClock(start: at("2023-04-28T15:10:00+02:00")),
            settings: [.source: .text("tibber"), .zone: .text("SE3"), .currency: .text("SEK"), .colorMode: .text("relative")],
            calendar: Self.stockholm)
        let live = try await TopicRecorder(port: broker.port, filter: "energyclock/#")
        #expect(await live.wait(for: "energyclock/price") { $0 == "1.3832" } != nil)
        #expect(count.withLock { $0 } == 2)
        await live.stop()
        await harness.stop()
    }

    @Test func aRefusedTokenIsNamedAndRetriedHourlyNotInAStorm() async throws {
        let broker = try await TestBroker.start()
        let cassette = String(decoding: fixture("tibber/vcr_tibber_invalid_token_2024-10-31.yml"), as: UTF8.self)
        let refused = Cassette.responseBodies(cassette)[0]
        let http = try TestHTTPServer { _ in TestHTTPServer.Response(status: 400, body: refused) }
        let clock = ManualClock(start: at("2024-10-31T09:00:00+01:00"))
        let harness = try ServiceHarness(
            broker: broker, http: http, clock: clock,
            settings: [.source: .text("tibber"), .zone: .text("DE-LU"), .colorMode: .text("relative")])
        #expect(await Self.logs(harness, "the token was refused"))
        // Fifty minutes later there has been no second request.
        #expect(await clock.advance(to: at("2024-10-31T09:50:00+01:00")))
        #expect(await harness.settle(), "a fetch the advance started would be done")
        #expect(http.requests.count == 1)
        #expect(await harness.advance(until: { http.requests.count == 2 }, limit: at("2024-10-31T10:20:00+01:00")))
        await harness.stop()
    }

    @Test(arguments: [true, false])
    func tibberFailsOverToAnotherSourceAndBack(tibberFirst: Bool) async throws {
        let broker = try await TestBroker.start()
        // The EUR answer of 22 Aug 2024 (no levels) and a custom list of 0.05 EUR/kWh for that day.
        let day = (0..<24).map { at("2024-08-21T22:00:00Z").addingTimeInterval(Double($0) * 3600) }
        let custom = Array(("[" + day.map { "{\"start\":\"\(ISO8601.utc($0))\",\"price\":0.05}" }.joined(separator: ",") + "]").utf8)
        let chosen = tibberFirst ? "tibber" : "custom"
        let fallback = tibberFirst ? "custom" : "tibber"
        let chosenUp = Atomic<Bool>(false)
        let http = try TestHTTPServer { target in
            let isCustom = target.hasPrefix("/custom.json")
            if (isCustom ? "custom" : "tibber") == chosen, !chosenUp.load(ordering: .relaxed) {
                return TestHTTPServer.Response(status: 503)
            }
            return isCustom ? .json(custom) : .json(fixture("tibber/PriceInfoToday_2024-08-22.json"))
        }
        let harness = try ServiceHarness(
            broker: broker, http: http, clock: ManualClock(start: at("2024-08-22T10:10:00+02:00")),
            settings: [
                .source: .text(chosen), .zone: .text("DE-LU"), .fallbackSources: .list([fallback]), .vatPercent: .number(0),
                .customURL: .text(http.baseURL.absoluteString + "/custom.json"), .colorMode: .text("relative"),
            ])
        let live = try await TopicRecorder(port: broker.port, filter: "energyclock/#")
        func served(by source: String) -> Bool { object(live.last("energyclock/current"))?["source"] as? String == source }
        // Served by the fallback while the chosen source fails: 10:00 local is 0.1797 at Tibber.
        #expect(await harness.advance(until: { served(by: fallback) }))
        let price = { fallback == "custom" ? 0.05 : 0.1797 }()
        #expect(object(live.last("energyclock/current"))?["market_price"] as? Double == price)
        // Healed, the chosen source serves again at its next retry.
        chosenUp.store(true, ordering: .relaxed)
        #expect(await harness.advance(until: { served(by: chosen) }))
        #expect(object(live.last("energyclock/current"))?["market_price"] as? Double == (chosen == "custom" ? 0.05 : 0.1797))
        await live.stop()
        await harness.stop()
    }

    /// The recorded 48 Agile half hours of 28 March 2023, re-dated onto the London day of `day`
    /// (edited variant: only `valid_from` and `valid_to` changed), newest first as the API sends them.
    static func agileDay(startingAt start: Date) throws -> [UInt8] {
        var root = try #require(
            try JSONSerialization.jsonObject(with: Data(fixture("octopus/agile_2023-03-28_utc-day_48slots.json"))) as? [String: Any])
        let results = try #require(root["results"] as? [[String: Any]])
        root["results"] = results.enumerated().map { index, result in
            var moved = result
            let from = start.addingTimeInterval(Double(results.count - 1 - index) * 1800)
            moved["valid_from"] = ISO8601.utc(from)
            moved["valid_to"] = ISO8601.utc(from.addingTimeInterval(1800))
            return moved
        }
        return Array(try JSONSerialization.data(withJSONObject: root))
    }

    @Test(arguments: [true, false])
    func octopusFailsOverToAnotherSourceAndBack(octopusFirst: Bool) async throws {
        let broker = try await TestBroker.start()
        // 9 May 2025 in London (BST): the ECB's recorded rates of that day price the custom list's
        // 0.05 EUR/kWh at 0.042385 GBP.
        let dayStart = at("2025-05-08T23:00:00Z")
        let agile = try Self.agileDay(startingAt: dayStart)
        let hours = (0..<24).map { dayStart.addingTimeInterval(Double($0) * 3600) }
        let custom = Array(("[" + hours.map { "{\"start\":\"\(ISO8601.utc($0))\",\"price\":0.05}" }.joined(separator: ",") + "]").utf8)
        let chosen = octopusFirst ? "octopus" : "custom"
        let fallback = octopusFirst ? "custom" : "octopus"
        let chosenUp = Atomic<Bool>(false)
        let http = try TestHTTPServer { target in
            if target.hasPrefix("/eurofxref-daily.xml") {
                return TestHTTPServer.Response(contentType: "text/xml", body: fixture("ecb/eurofxref-daily_2025-05-09.xml"))
            }
            let isCustom = target.hasPrefix("/custom.json")
            guard isCustom || target.hasPrefix(Self.agilePath) else { return TestHTTPServer.Response(status: 404) }
            if (isCustom ? "custom" : "octopus") == chosen, !chosenUp.load(ordering: .relaxed) {
                return TestHTTPServer.Response(status: 503)
            }
            return .json(isCustom ? custom : agile)
        }
        var settings = Self.octopusSettings
        settings[.source] = .text(chosen)
        settings[.fallbackSources] = .list([fallback])
        settings[.customURL] = .text(http.baseURL.absoluteString + "/custom.json")
        settings[.vatPercent] = .number(0)
        let harness = try ServiceHarness(
            broker: broker, http: http, clock: ManualClock(start: at("2025-05-09T12:10:00+01:00")), settings: settings,
            calendar: Self.london)
        let live = try await TopicRecorder(port: broker.port, filter: "energyclock/#")
        func served(by source: String) -> Bool { object(live.last("energyclock/current"))?["source"] as? String == source }
        // 12:00 BST is the 25th half hour of the re-dated day: 21.36 p without VAT (the recorded 12:00Z slot).
        let price = ["octopus": "0.2136", "custom": "0.042385"]
        #expect(await harness.advance(until: { served(by: fallback) && live.last("energyclock/price") == price[fallback] }))
        chosenUp.store(true, ordering: .relaxed)
        #expect(await harness.advance(until: { served(by: chosen) && live.last("energyclock/price") == price[chosen] }))
        await live.stop()
        await harness.stop()
    }
}
