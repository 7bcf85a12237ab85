import EnergyClockDomain
import EnergyClockPublisher
import EnergyClockSources
import EnergyClockTesting
import Foundation
import MQTTClient
import Testing

@Suite(.timeLimit(.minutes(1)))
struct ProfileTopicTests {
    let noon = at("2025-12-17T10:20:00+01:00")

    /// The first profile's retained topics as a newcomer finds them: every topic under the prefix
    /// but those of other profiles and the list of profiles.
    func firstProfileTopics(_ port: Int, profiles: Set<String>) async throws -> [String: String] {
        let fresh = try await TopicRecorder(port: port, filter: "energyclock/#")
        // A recorder is ready once the broker has sent it every retained message (TopicRecorder).
        #expect(fresh.last("energyclock/prices/today") != nil)
        await fresh.stop()
        var topics: [String: String] = [:]
        for message in fresh.messages where message.retain {
            let level = message.topic.split(separator: "/").dropFirst().first.map(String.init) ?? ""
            guard !profiles.contains(level), level != "profiles" else { continue }
            topics[message.topic] = message.text
        }
        return topics
    }

    @Test func aSecondProfileAppearsUnderItsOwnPrefixAndGoesWithoutATrace() async throws {
        let broker = try await TestBroker.start()
        // Without the clock picture, drawn in its own time, what the first profile shows is settled
        // once the manager is.
        var options = PublisherOptions(discovery: HADiscovery(sources: SourceRegistry.ids))
        options.clockImage = false
        let harness = try ServiceHarness(broker: broker, http: try fixtureServer(), clock: ManualClock(start: noon), options: options)
        let live = try await TopicRecorder(port: broker.port, filter: "#")
        _ = await live.wait(for: "energyclock/price") { !$0.isEmpty }
        _ = await live.wait(for: "homeassistant/button/energyclock/refresh/config") { !$0.isEmpty }
        #expect(await harness.settle())
        let before = try await firstProfileTopics(broker.port, profiles: ["export"])
        #expect(before["energyclock/price"] != nil && before["energyclock/settings"] != nil)

        try live.client.publish("energyclock/export/settings/set", #"{"kind":"export","export_factor":0.9,"export_fee":-0.02}"#)
        let answer = try #require(object(await live.wait(for: "energyclock/export/settings/result")))
        #expect(answer["ok"] as? Bool == true)
        #expect(answer["profile"] as? String == "export")
        let market = FixtureTruth.hourMean(at("2025-12-17T09:00:00Z"))
        let expected = DecimalFormat.rounded(market * 0.9 - 0.02)
        let price = await live.wait(for: "energyclock/export/price") { Double($0) == expected }
        #expect(price != nil, "export price \(live.last("energyclock/export/price") ?? "none"), expected \(expected)")
        let band = Band.of(expected, under: Settings.defaults.thresholds, reversed: true)
        #expect(await live.wait(for: "energyclock/export/color") { $0 == band.rawValue } != nil)
        #expect(object(live.last("energyclock/export/settings"))?["kind"] as? String == "export")
        let device = try #require(object(await live.wait(for: "homeassistant/sensor/energyclock-export/price/config") { !$0.isEmpty }))
        #expect(device["state_topic"] as? String == "energyclock/export/price")
        #expect(device["availability_topic"] as? String == "energyclock/status")
        #expect((device["device"] as? [String: Any])?["name"] as? String == "energyclock export")
        let list = try #require(object(await live.wait(for: "energyclock/profiles")))
        #expect(Set(list.keys) == ["default", "export"])

        // The first profile's topics are untouched, byte for byte.
        #expect(try await firstProfileTopics(broker.port, profiles: ["export"]) == before)

        // Removing it clears every retained topic it had, and its entities.
        let held = Set(
            live.messages.filter { $0.topic.hasPrefix("energyclock/export/") && !$0.payload.isEmpty && !$0.topic.hasSuffix("result") }.map(
                \.topic))
        try live.client.publish("energyclock/export/settings/set", "null")
        let removal = await live.wait(for: "energyclock/export/settings/result") { object($0)?["removed"] as? Bool == true }
        #expect(removal == #"{"ok":true,"profile":"export","removed":true}"#)
        #expect(await live.wait(for: "homeassistant/sensor/energyclock-export/price/config") { $0.isEmpty } != nil)
        #expect(await live.wait(for: "energyclock/profiles") { $0.isEmpty } != nil)
        let fresh = try await TopicRecorder(port: broker.port, filter: "#")
        #expect(fresh.last("energyclock/price") != nil)
        let left = fresh.messages.filter {
            $0.retain && ($0.topic.hasPrefix("energyclock/export/") || $0.topic.contains("/energyclock-export/"))
        }
        #expect(left.isEmpty, "left behind: \(left.map(\.topic))")
        #expect(!fresh.messages.contains { $0.topic == "energyclock/profiles" })
        #expect(held.count > 20, "it had its own tree: \(held.count) topics")
        await fresh.stop()
        let after = try await firstProfileTopics(broker.port, profiles: ["export"])
        #expect(after == before, "changed: \(after.filter { before[$0.key] != $0.value }.keys.sorted())")
        await live.stop()
        await harness.stop()
    }

    @Test func twoProfilesOnOneZoneMakeOneRequestPerPoll() async throws {
        let broker = try await TestBroker.start()
        let http = try fixtureServer()
        let harness = try ServiceHarness(broker: broker, http: http, clock: ManualClock(start: noon))
        let live = try await TopicRecorder(port: broker.port, filter: "energyclock/#")
        _ = await live.wait(for: "energyclock/price") { !$0.isEmpty }
        try live.client.publish("energyclock/settings/set", #"{"profiles":{"export":{"kind":"export"}}}"#)
        _ = await live.wait(for: "energyclock/export/price") { !$0.isEmpty }
        let fetched = { harness.log.logged.filter { $0.message.hasPrefix("fetched ") }.count }
        #expect(await harness.settle(), "the history days are fetched after today is shown")
        let (requests, fetches) = (http.requests.count, fetched())
        #expect(fetches == 1, "the new profile reads the feed the first one has")

        try live.client.publish("energyclock/refresh", "")
        #expect(await harness.advance { fetched() == fetches + 1 })
        try await Task.sleep(for: .milliseconds(300))
        #expect(http.requests.count == requests + 1, "one request for both profiles: \(http.requests.suffix(3))")
        #expect(fetched() == fetches + 1)
        await live.stop()
        await harness.stop()
    }

    @Test func aRestartBringsBackEveryProfile() async throws {
        let broker = try await TestBroker.start()
        let directory = temporaryDirectory()
        let first = try ServiceHarness(
            broker: broker, http: try fixtureServer(), clock: ManualClock(start: noon), stateDirectory: directory)
        let live = try await TopicRecorder(port: broker.port, filter: "energyclock/#")
        _ = await live.wait(for: "energyclock/price") { !$0.isEmpty }
        try live.client.publish("energyclock/settings/set", #"{"profiles":{"export":{"kind":"export"},"heat":{"vat_percent":9}}}"#)
        _ = await live.wait(for: "energyclock/heat/price") { !$0.isEmpty }
        await first.stop()

        // Cleared by hand, so that what comes back comes from the second daemon.
        for topic in ["energyclock/heat/settings", "energyclock/export/settings"] { try live.client.publish(topic, "", retain: true) }
        let second = try ServiceHarness(
            broker: broker, http: try fixtureServer(), clock: ManualClock(start: noon), stateDirectory: directory)
        #expect(await live.wait(for: "energyclock/heat/settings") { object($0)?["vat_percent"] as? Double == 9 } != nil)
        #expect(await live.wait(for: "energyclock/export/settings") { object($0)?["kind"] as? String == "export" } != nil)
        #expect(await live.wait(for: "energyclock/export/price") { !$0.isEmpty } != nil)
        await live.stop()
        await second.stop()
    }
}
