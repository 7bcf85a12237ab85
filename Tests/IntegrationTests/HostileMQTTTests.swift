import EnergyClockDomain
import EnergyClockPublisher
import EnergyClockTesting
import Foundation
import MQTTClient
import Testing

/// What other clients on the broker can make the daemon do: only what they should.
@Suite(.timeLimit(.minutes(1)))
struct HostileMQTTTests {
    let noon = at("2025-12-17T10:20:00+01:00")

    @Test func answersNeverGoToTheDaemonsOwnTopicsOrItsLights() async throws {
        let broker = try await TestBroker.start()
        let options = PublisherOptions(discovery: HADiscovery(sources: []), leds: [.z2m("lamp"), .wled("wled/ring"), .tasmota("bulb")])
        let harness = try ServiceHarness(broker: broker, http: try fixtureServer(), clock: ManualClock(start: noon), options: options)
        let live = try await TopicRecorder(port: broker.port, filter: "#")
        _ = await live.wait(for: "energyclock/price") { !$0.isEmpty }
        let before = live.messages.count

        let hostile = [
            "energyclock/price", "energyclock/settings/set", "energyclock/settings/green_max/set", "energyclock",
            "homeassistant/sensor/energyclock/price/config", "zigbee2mqtt/lamp/set", "wled/ring/api", "cmnd/bulb/Color",
            "$SYS/x", "zigbee2mqtt/bridge/request/restart", "cmnd/tasmotas/Backlog", "wled/all/api", "app/reply",
        ]
        for (index, address) in hostile.enumerated() {
            try live.client.publish("energyclock/settings/history_days/set", "\(index + 2)", responseTopic: address, correlation: [1])
        }
        try live.client.publish("energyclock/settings/history_days/set", "30", responseTopic: "reply/app", correlation: [7, 8])
        let reply = await live.wait(for: "reply/app") { object($0)?["ok"] as? Bool == true }
        #expect(object(reply)?["settings"].flatMap { ($0 as? [String: Any])?["history_days"] as? Int } == 30)
        #expect(await live.wait(count: hostile.count + 1, on: "energyclock/settings/result").count == hostile.count + 1)

        // Nothing but the regular output reached any of the reserved topics: no {"ok":…} anywhere.
        let answers = live.messages.dropFirst(before).filter { $0.text.hasPrefix(#"{"ok""#) }
        #expect(Set(answers.map(\.topic)) == ["energyclock/settings/result", "reply/app"])
        #expect(live.all("energyclock/price").allSatisfy { $0.isEmpty || Double($0) != nil })
        await live.stop()
        await harness.stop()
    }

    @Test func theReplyPolicyNamesWhatItRefuses() {
        let options = PublisherOptions(
            discovery: HADiscovery(prefix: "ha", sources: []), leds: [.z2m("lamp"), .json("home/light")],
            z2mBaseTopic: "z2m")
        let policy = ReplyPolicy(topics: TopicTree(prefix: "home/ec"), options: options)
        #expect(policy.refusal(for: "home/ec/price")?.contains("home/ec") == true)
        #expect(policy.refusal(for: "home/ec") != nil)
        #expect(policy.refusal(for: "ha/sensor/x/config") != nil)
        #expect(policy.refusal(for: "z2m/other/set") != nil)
        #expect(policy.refusal(for: "home/light") != nil)
        #expect(policy.refusal(for: "a/+/b")?.contains("wildcard") == true)
        #expect(policy.refusal(for: "$SYS/broker") != nil)
        // Only the reply trees are open: the daemon's own and `reply/`, or the ones configured.
        #expect(policy.refusal(for: "home/ec/reply/phone") == nil)
        #expect(policy.refusal(for: "reply/phone") == nil)
        #expect(policy.refusal(for: "home/ecx/reply")?.contains("--reply-topic-prefix") == true)
        #expect(policy.refusal(for: "zigbee2mqtt/bridge/request/restart")?.contains("home/ec/reply, reply") == true)
        #expect(policy.refusal(for: "replyx") != nil)
        var custom = options
        custom.replyPrefixes = ["apps/answers", "ha"]
        let chosen = ReplyPolicy(topics: TopicTree(prefix: "home/ec"), options: custom)
        #expect(chosen.refusal(for: "apps/answers/1") == nil)
        #expect(chosen.refusal(for: "reply/phone") != nil)
        #expect(chosen.refusal(for: "ha/sensor/x/config")?.contains("never go to ha") == true, "a reserved topic stays closed")

        // An empty response topic is no address at all: the request is answered on settings/result only.
        let router = CommandRouter(topics: TopicTree(prefix: "home/ec"), sources: ["energyzero"], replies: policy)
        let empty = router.request(
            from: MQTTMessage(topic: "home/ec/settings/set", payload: Array(#"{"history_days":3}"#.utf8), responseTopic: ""))
        #expect(empty?.reply == nil)
        #expect((try? empty?.update.get()) != nil)
        let allowed = router.request(from: MQTTMessage(topic: "home/ec/settings/set", payload: Array("{}".utf8), responseTopic: "reply/x"))
        #expect(allowed?.reply?.address == "reply/x")
    }

    @Test func retainedCommandsAreRefusedLiveAndDeletionsIgnored() async throws {
        let broker = try await TestBroker.start()
        let harness = try ServiceHarness(
            broker: broker, http: try fixtureServer(), clock: ManualClock(start: noon),
            settings: [.fallbackSources: .list(["energycharts"])])
        let live = try await TopicRecorder(port: broker.port, filter: "energyclock/#")
        _ = await live.wait(for: "energyclock/settings") { object($0)?["fallback_sources"] as? [String] == ["energycharts"] }

        // A retained command that arrives live (MQTT 5 retain-as-published) is refused.
        let topic = "energyclock/settings/set"
        try live.client.publish(topic, #"{"green_max":0.111}"#, retain: true)
        let refused = try #require(object(await live.wait(for: "energyclock/settings/result")))
        #expect(refused["ok"] as? Bool == false)
        #expect((refused["error"] as? String)?.contains("mosquitto_pub -r -n -t '\(topic)'") == true, "\(refused)")

        // Deleting retained messages, the usual way, is no command: no answer, nothing changes.
        try live.client.publish(topic, "", retain: true)
        try live.client.publish("energyclock/settings/fallback_sources/set", "", retain: true)
        // A plain-topic empty field name is answered like any unknown field; it also marks the end.
        try live.client.publish("energyclock/settings//set", "1")
        let results = await live.wait(count: 2, on: "energyclock/settings/result")
        #expect(results.count == 2)
        #expect((object(results.last)?["error"] as? String)?.contains(#"unknown field """#) == true, "\(results)")
        let settings = try #require(object(live.last("energyclock/settings")))
        #expect(settings["fallback_sources"] as? [String] == ["energycharts"])
        #expect(settings["green_max"] as? Double == 0.1)
        await live.stop()
        await harness.stop()
    }

    @Test func manyHomeAssistantRestartsLeadToOneRepublish() async throws {
        let broker = try await TestBroker.start()
        // A delay long enough for a loaded machine (two cores, the whole suite in parallel) to
        // take in the 200 onlines before it is over; the rule itself is timed in
        // PublisherStateTests and MQTTPublisherTests on a test clock.
        var options = PublisherOptions(discovery: HADiscovery(sources: ["energyzero"]))
        options.homeAssistantDelay = 8000...8000
        let harness = try ServiceHarness(broker: broker, http: try fixtureServer(), clock: ManualClock(start: noon), options: options)
        let config = "homeassistant/sensor/energyclock/price/config"
        let ha = try await TopicRecorder(port: broker.port, filter: "homeassistant/#")
        #expect(await ha.wait(count: 1, on: config).count == 1)
        for _ in 0..<200 { try ha.client.publish("homeassistant/status", "online") }
        #expect(await ha.wait(count: 2, on: config).count == 2)
        // Every online was taken in before the delay ended, so no second republish is on its way;
        // one republish is one turn, whose every message is out before the answer to a later command.
        let answers = try await TopicRecorder(port: broker.port, filter: "energyclock/settings/result")
        try answers.client.publish("energyclock/settings/set", #"{"green_max":"x"}"#)
        #expect(await answers.wait(for: "energyclock/settings/result") != nil)
        #expect(ha.all(config).count == 2)
        await answers.stop()
        await ha.stop()
        await harness.stop()
    }

    @Test func topicsNoLongerPublishedAreClearedAfterARestart() async throws {
        let broker = try await TestBroker.start()
        let directory = temporaryDirectory()
        let first = try ServiceHarness(
            broker: broker, http: try fixtureServer(), clock: ManualClock(start: noon), stateDirectory: directory,
            options: PublisherOptions(cheapestHours: [1, 2, 3, 4], discovery: HADiscovery(sources: ["energyzero"])))
        let live = try await TopicRecorder(port: broker.port, filter: "#")
        _ = await live.wait(for: "energyclock/cheapest/4h") { !$0.isEmpty }
        _ = await live.wait(for: "homeassistant/button/energyclock/refresh/config") { !$0.isEmpty }
        await first.stop()
        let windowsOfTheFirst = live.all("energyclock/cheapest/2h").count

        let second = try ServiceHarness(
            broker: broker, http: try fixtureServer(), clock: ManualClock(start: noon), stateDirectory: directory,
            options: PublisherOptions(cheapestHours: [1, 2]))
        #expect(await live.wait(for: "energyclock/cheapest/4h") { $0.isEmpty } != nil)
        #expect(await live.wait(for: "energyclock/cheapest/3h") { $0.isEmpty } != nil)
        // Every configuration the first announced is cleared, one message each, in no set order.
        let announced = Set(live.messages.map(\.topic).filter { $0.hasPrefix("homeassistant/") && $0.hasSuffix("/config") })
        #expect(announced.count > 10)
        for topic in announced.sorted() {
            #expect(await live.wait(for: topic) { $0.isEmpty } != nil, "\(topic) is not cleared")
        }

        // A newcomer finds only what is published now; it comes once the second daemon has published
        // its windows and cleared the rest, so that all of it reaches it as retained messages.
        #expect(await live.wait(count: windowsOfTheFirst + 1, on: "energyclock/cheapest/2h").count > windowsOfTheFirst)
        #expect(await live.wait(for: "energyclock/cheapest/2h") { !$0.isEmpty } != nil)
        let fresh = try await TopicRecorder(port: broker.port, filter: "#")
        let retained = Set(fresh.messages.filter(\.retain).map(\.topic))
        #expect(retained.contains("energyclock/cheapest/1h"))
        #expect(!retained.contains("energyclock/cheapest/3h"))
        #expect(!retained.contains { $0.hasPrefix("homeassistant/") })
        await fresh.stop()
        await live.stop()
        await second.stop()
    }
}
