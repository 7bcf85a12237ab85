import EnergyClockTesting
import Foundation
import MQTTClient
import Testing

@Suite(.timeLimit(.minutes(1)))
struct RetainedTopicTests {
    @Test func publishesEveryRetainedTopicFromTheRealAPIAnswer() async throws {
        let broker = try await TestBroker.start()
        let http = try fixtureServer()
        let clock = ManualClock(start: at("2025-12-17T10:20:00+01:00"))
        let harness = try ServiceHarness(broker: broker, http: http, clock: clock)
        let live = try await TopicRecorder(port: broker.port, filter: "energyclock/#")

        let market = FixtureTruth.hourMean(at("2025-12-17T09:00:00Z"))
        let consumer = market * 1.21
        let band = FixtureTruth.band(consumer)
        let price = try #require(await live.wait(for: "energyclock/price") { !$0.isEmpty })
        #expect(abs(Double(price)! - consumer) < 5e-7)
        #expect(price.split(separator: ".").last!.count <= 6)
        // `price` leaves before the colour: the colour topics may still hold the empty cache's "".
        #expect(await live.wait(for: "energyclock/color") { !$0.isEmpty } == band)
        #expect(await live.wait(for: "energyclock/color/hex") { !$0.isEmpty } == FixtureTruth.hex[band])
        #expect(await live.wait(for: "energyclock/color/rgb") { !$0.isEmpty } == FixtureTruth.rgb[band])
        #expect(live.last("energyclock/status") == "online")

        let current = try #require(object(await live.wait(for: "energyclock/current") { !$0.isEmpty }))
        #expect(current["start"] as? String == "2025-12-17T10:00:00+01:00")
        #expect(current["end"] as? String == "2025-12-17T11:00:00+01:00")
        #expect(abs((current["market_price"] as! Double) - market) < 5e-7)
        #expect(current["band"] as? String == band)
        #expect(current["hex"] as? String == FixtureTruth.hex[band])
        #expect(current["source"] as? String == "energyzero")
        #expect(current["stale"] as? Bool == false)
        #expect((current["updated_at"] as? String)?.hasSuffix("+01:00") == true)

        let next = try #require(object(await live.wait(for: "energyclock/next") { !$0.isEmpty }))
        #expect(next["start"] as? String == "2025-12-17T11:00:00+01:00")

        // The cache's empty day may come first, before the fetch's.
        let today = try #require(array(await live.wait(for: "energyclock/prices/today") { $0 != "[]" }))
        #expect(today.count == 24)
        #expect(today.first?["start"] as? String == "2025-12-17T00:00:00+01:00")
        #expect(today.last?["end"] as? String == "2025-12-18T00:00:00+01:00")
        for entry in today {
            let mean = FixtureTruth.hourMean(at(entry["start"] as! String)) * 1.21
            #expect(abs((entry["price"] as! Double) - mean) < 5e-7)
            #expect(entry["band"] as? String == FixtureTruth.band(mean))
        }
        #expect(array(await live.wait(for: "energyclock/prices/tomorrow") { $0 != "[]" })?.count == 24)

        let thresholds = try #require(object(live.last("energyclock/thresholds")))
        #expect(thresholds["mode"] as? String == "absolute")
        #expect(thresholds["green_max"] as? Double == 0.1)
        #expect(thresholds["unit"] as? String == "EUR/kWh")
        #expect(thresholds["samples"] is NSNull)
        #expect(object(live.last("energyclock/settings"))?["vat_percent"] as? Double == 21)

        // Everything but the result topic is retained: a client that comes later sees it all at once.
        let late = try await TopicRecorder(port: broker.port, filter: "energyclock/#")
        #expect(await late.wait(for: "energyclock/price") == price)
        let retainedTopics = Set(late.messages.filter(\.retain).map(\.topic))
        #expect(
            retainedTopics.isSuperset(of: [
                "energyclock/status", "energyclock/price", "energyclock/color", "energyclock/color/hex", "energyclock/color/rgb",
                "energyclock/thresholds", "energyclock/current", "energyclock/next", "energyclock/prices/today",
                "energyclock/prices/tomorrow", "energyclock/settings",
            ]))

        await late.stop()
        await live.stop()
        await harness.stop()
    }

    @Test func slotRolloverMovesTheCurrentPriceOnTime() async throws {
        let broker = try await TestBroker.start()
        let clock = ManualClock(start: at("2025-12-17T10:59:00+01:00"))
        let harness = try ServiceHarness(broker: broker, http: try fixtureServer(), clock: clock)
        let live = try await TopicRecorder(port: broker.port, filter: "energyclock/#")
        _ = await live.wait(for: "energyclock/current") { object($0)?["start"] as? String == "2025-12-17T10:00:00+01:00" }
        #expect(await clock.waitForSleeper(until: at("2025-12-17T11:00:00+01:00")))

        await clock.advance(to: at("2025-12-17T11:00:00+01:00"))
        let current = await live.wait(for: "energyclock/current") { object($0)?["start"] as? String == "2025-12-17T11:00:00+01:00" }
        #expect(current != nil)
        let expected = FixtureTruth.hourMean(at("2025-12-17T10:00:00Z")) * 1.21
        let price = try #require(Double(live.last("energyclock/price") ?? ""))
        #expect(abs(price - expected) < 5e-7, "\(live.all("energyclock/price")) \(live.all("energyclock/current"))")

        // Midnight: tomorrow's array becomes today's and tomorrow is cleared (the API has no 19th).
        let tomorrowBefore = live.last("energyclock/prices/tomorrow")
        await clock.advance(to: at("2025-12-18T00:00:00+01:00"))
        #expect(await live.wait(for: "energyclock/prices/today") { $0 == tomorrowBefore } != nil)
        #expect(await live.wait(for: "energyclock/prices/tomorrow") { $0 == "[]" } != nil)
        await live.stop()
        await harness.stop()
    }

    @Test func withoutAnyKnownPriceTheTopicsAreClearedNotInvented() async throws {
        let broker = try await TestBroker.start()
        let http = try TestHTTPServer { _ in TestHTTPServer.Response(status: 500, body: Array("{}".utf8)) }
        let clock = ManualClock(start: at("2025-12-17T10:20:00+01:00"))
        let harness = try ServiceHarness(broker: broker, http: http, clock: clock)
        let live = try await TopicRecorder(port: broker.port, filter: "energyclock/#")
        #expect(await live.wait(for: "energyclock/status") == "online")
        #expect(await live.wait(for: "energyclock/prices/today") == "[]")
        // Cleared retained topics are not delivered to a new subscriber at all.
        for topic in ["price", "color", "color/hex", "color/rgb", "current", "next"] {
            #expect(live.last("energyclock/\(topic)") == nil || live.last("energyclock/\(topic)") == "", "\(topic)")
        }

        // The API heals; the retry 30 s after the failure brings real prices.
        let retry = clock.now.addingTimeInterval(30)
        #expect(await clock.waitForSleeper(until: retry))
        http.respond { _ in .json(ServiceHarness.quarterFixture) }
        await clock.advance(to: retry)
        let price = await live.wait(for: "energyclock/price") { !$0.isEmpty }
        #expect(price != nil)
        #expect(object(await live.wait(for: "energyclock/current") { !$0.isEmpty })?["stale"] as? Bool == false)
        await live.stop()
        await harness.stop()
    }

    @Test func aPublishedPriceIsClearedWhenNoSlotCoversNowAnyMore() async throws {
        let broker = try await TestBroker.start()
        // The recorded answer covers 16 to 18 December; the clock then runs past its end.
        let clock = ManualClock(start: at("2025-12-18T23:20:00+01:00"))
        let harness = try ServiceHarness(broker: broker, http: try fixtureServer(), clock: clock)
        let live = try await TopicRecorder(port: broker.port, filter: "energyclock/#")
        let before = try #require(await live.wait(for: "energyclock/price") { !$0.isEmpty })
        #expect(Double(before) != nil)
        // Once the manager waits (for the next poll, before midnight), midnight comes.
        while clock.nextDeadline == nil { try await Task.sleep(for: .milliseconds(2)) }
        await clock.advance(to: at("2025-12-19T00:00:00+01:00"))
        for topic in ["price", "color", "color/hex", "color/rgb", "current"] {
            #expect(await live.wait(for: "energyclock/\(topic)") { $0.isEmpty } != nil, "\(topic) was not cleared")
        }
        // The last slot had no next one, so `next` was empty all along.
        #expect(live.last("energyclock/next") ?? "" == "")
        // A newcomer finds no retained price at all.
        let late = try await TopicRecorder(port: broker.port, filter: "energyclock/#")
        _ = await late.wait(for: "energyclock/settings")
        #expect(late.last("energyclock/price") == nil)
        #expect(late.last("energyclock/stale") == "false")
        await late.stop()
        await live.stop()
        await harness.stop()
    }
}
