import EnergyClockTesting
import Foundation
import MQTTClient
import Testing

@Suite(.timeLimit(.minutes(1)))
struct RestartTests {
    @Test func settingsAndPricesSurviveARestartWithoutRefetching() async throws {
        let broker = try await TestBroker.start()
        let http = try fixtureServer()
        let directory = temporaryDirectory()
        let clock = ManualClock(start: at("2025-12-17T10:20:00+01:00"))

        let first = try ServiceHarness(broker: broker, http: http, clock: clock, stateDirectory: directory)
        let live = try await TopicRecorder(port: broker.port, filter: "energyclock/#")
        _ = await live.wait(for: "energyclock/price") { !$0.isEmpty }
        try live.client.publish("energyclock/settings/set", #"{"surcharge":0.1,"vat_percent":9}"#)
        _ = await live.wait(for: "energyclock/settings/result")
        await first.stop()
        #expect(await live.wait(for: "energyclock/status") { $0 == "offline" } == "offline")

        // The API is now down; the restart must serve the cache and not even ask.
        let requestsBefore = http.requests.count
        http.respond { _ in TestHTTPServer.Response(status: 500) }
        let second = try ServiceHarness(broker: broker, http: http, clock: clock, stateDirectory: directory)
        #expect(await live.wait(for: "energyclock/status") { $0 == "online" } == "online")
        let expected = (FixtureTruth.hourMean(at("2025-12-17T09:00:00Z")) + 0.1) * 1.09
        #expect(await live.wait(for: "energyclock/price") { abs((Double($0) ?? 0) - expected) < 5e-7 } != nil)
        #expect(object(live.last("energyclock/settings"))?["surcharge"] as? Double == 0.1)
        #expect(object(await live.wait(for: "energyclock/current") { !$0.isEmpty })?["stale"] as? Bool == false)
        #expect(http.requests.count == requestsBefore)
        await live.stop()
        await second.stop()
    }

    @Test func aBrokerRestartGetsEveryRetainedTopicBack() async throws {
        var broker = try await TestBroker.start()
        let port = broker.port
        let harness = try ServiceHarness(
            broker: broker, http: try fixtureServer(), clock: ManualClock(start: at("2025-12-17T10:20:00+01:00")))
        var live = try await TopicRecorder(port: port, filter: "energyclock/#")
        let price = try #require(await live.wait(for: "energyclock/price") { !$0.isEmpty })
        await live.stop()

        // A broker without persistence forgets every retained message when it restarts.
        broker.stop()
        broker = try await TestBroker.start(port: port)
        live = try await TopicRecorder(port: port, filter: "energyclock/#")
        #expect(await live.wait(for: "energyclock/price", timeout: 10) == price)
        #expect(await live.wait(for: "energyclock/status") == "online")
        #expect(array(await live.wait(for: "energyclock/prices/today"))?.count == 24)
        // And it listens to settings again.
        try live.client.publish("energyclock/settings/vat_percent/set", "9")
        #expect(object(await live.wait(for: "energyclock/settings/result"))?["ok"] as? Bool == true)
        await live.stop()
        await harness.stop()
        _ = broker
    }

    @Test func switchingBackToTheOnlySourceKeepsItsCache() async throws {
        // With one source, "switching" to itself changes nothing and fetches nothing.
        let broker = try await TestBroker.start()
        let http = try fixtureServer()
        let harness = try ServiceHarness(broker: broker, http: http, clock: ManualClock(start: at("2025-12-17T10:20:00+01:00")))
        let live = try await TopicRecorder(port: broker.port, filter: "energyclock/#")
        _ = await live.wait(for: "energyclock/price") { !$0.isEmpty }
        // The history days are fetched after today is shown: counted once they are.
        #expect(await harness.settle())
        let count = http.requests.count
        try live.client.publish("energyclock/settings/source/set", "energyzero")
        #expect(object(await live.wait(for: "energyclock/settings/result"))?["ok"] as? Bool == true)
        try live.client.publish("energyclock/settings/source/set", "nosuchsource")
        let refused = await live.wait(count: 2, on: "energyclock/settings/result")
        #expect((object(refused.last)?["error"] as? String)?.contains("source must be one of energyzero") == true)
        #expect(http.requests.count == count)
        await live.stop()
        await harness.stop()
    }
}
