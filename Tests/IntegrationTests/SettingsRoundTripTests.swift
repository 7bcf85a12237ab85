import EnergyClockStore
import EnergyClockTesting
import Foundation
import MQTTClient
import Testing

@Suite(.timeLimit(.minutes(1)))
struct SettingsRoundTripTests {
    let noon = at("2025-12-17T10:20:00+01:00")

    @Test func aSettingsChangeIsRecomputedAndRepublished() async throws {
        let broker = try await TestBroker.start()
        let harness = try ServiceHarness(broker: broker, http: try fixtureServer(), clock: ManualClock(start: noon))
        let live = try await TopicRecorder(port: broker.port, filter: "energyclock/#")
        _ = await live.wait(for: "energyclock/price") { !$0.isEmpty }
        let market = FixtureTruth.hourMean(at("2025-12-17T09:00:00Z"))

        // Thresholds that put the current price in another band.
        let consumer = market * 1.21
        let green = consumer + 0.01
        try live.client.publish(
            "energyclock/settings/set", #"{"green_max":\#(green),"yellow_max":\#(green + 1),"orange_max":\#(green + 2)}"#)
        let result = try #require(object(await live.wait(for: "energyclock/settings/result")))
        #expect(result["ok"] as? Bool == true)
        #expect((result["settings"] as? [String: Any])?["green_max"] as? Double == green)
        #expect(await live.wait(for: "energyclock/color") { $0 == "green" } != nil)
        #expect(object(live.last("energyclock/thresholds"))?["green_max"] as? Double == green)

        // One plain field: VAT 0 makes the consumer price the market price.
        try live.client.publish("energyclock/settings/vat_percent/set", "0")
        let price = await live.wait(for: "energyclock/price") { abs((Double($0) ?? -1) - market) < 5e-7 }
        #expect(price != nil)
        // The colour and the price first; the settings topic follows with the day's payloads.
        #expect(await live.wait(for: "energyclock/settings") { object($0)?["vat_percent"] as? Double == 0 } != nil)

        // Relative mode: the thresholds become the quartiles of the history (16 and 17 December).
        try live.client.publish("energyclock/settings/color_mode/set", "relative")
        let thresholds = try #require(
            object(await live.wait(for: "energyclock/thresholds") { object($0)?["mode"] as? String == "relative" }))
        let hours = (0..<48).map { FixtureTruth.hourMean(at("2025-12-15T23:00:00Z").addingTimeInterval(Double($0) * 3600)) }.sorted()
        #expect(thresholds["samples"] as? Int == 48)
        // numpy linear: h = 47 · 0.5 = 23.5
        let median = hours[23] + 0.5 * (hours[24] - hours[23])
        #expect(abs((thresholds["yellow_max"] as! Double) - median) < 5e-7)
        await live.stop()
        await harness.stop()
    }

    @Test func aRejectedUpdateChangesNothing() async throws {
        let broker = try await TestBroker.start()
        let directory = temporaryDirectory()
        let harness = try ServiceHarness(
            broker: broker, http: try fixtureServer(), clock: ManualClock(start: noon), stateDirectory: directory)
        let live = try await TopicRecorder(port: broker.port, filter: "energyclock/#")
        _ = await live.wait(for: "energyclock/price") { !$0.isEmpty }
        try live.client.publish("energyclock/settings/green_max/set", "0.05")
        #expect(await live.wait(count: 1, on: "energyclock/settings/result").count == 1)
        _ = await live.wait(for: "energyclock/thresholds") { object($0)?["green_max"] as? Double == 0.05 }
        let settingsBefore = live.all("energyclock/settings")
        let thresholdsBefore = live.all("energyclock/thresholds")
        let colorBefore = live.all("energyclock/color")

        let refusals: [(String, String, String)] = [
            ("energyclock/settings/set", #"{"green_max":0.25}"#, "thresholds must increase strictly"),
            ("energyclock/settings/set", #"{"green_max":0.01,"history_days":0}"#, "history_days must be a whole number from 1 to 60"),
            ("energyclock/settings/set", #"{"green_max":0.01,"colour":"red"}"#, "unknown field \"colour\""),
            ("energyclock/settings/set", "{oops", "payload is not valid JSON"),
            ("energyclock/settings/surcharge/set", "lots", "surcharge must be a number"),
            ("energyclock/settings/vat_percent/set", "1e999", "vat_percent must be"),
            ("energyclock/settings/set", String(repeating: " ", count: 70_000), "larger than the limit of 65536 bytes"),
        ]
        for (index, (topic, payload, reason)) in refusals.enumerated() {
            try live.client.publish(topic, payload)
            let results = await live.wait(count: index + 2, on: "energyclock/settings/result")
            let result = try #require(object(results.last))
            #expect(result["ok"] as? Bool == false)
            #expect((result["error"] as? String)?.contains(reason) == true, "\(result)")
        }
        // Refusals resend the unchanged settings (so Home Assistant controls snap back), never other ones.
        let settingsAfter = live.all("energyclock/settings")
        #expect(settingsAfter.count == settingsBefore.count + refusals.count)
        #expect(Set(settingsAfter.dropFirst(settingsBefore.count)) == [settingsBefore.last!])
        #expect(live.all("energyclock/thresholds") == thresholdsBefore)
        #expect(live.all("energyclock/color") == colorBefore)
        await live.stop()
        await harness.stop()

        let store = try PriceStore(directory: directory)
        #expect(try store.settingsJSON()?.contains(#""green_max":0.05"#) == true)
    }

    @Test func aBurstEndsInTheLastValidStateWithOneResultEach() async throws {
        let broker = try await TestBroker.start()
        let harness = try ServiceHarness(broker: broker, http: try fixtureServer(), clock: ManualClock(start: noon), prefix: "burst")
        let live = try await TopicRecorder(port: broker.port, filter: "burst/#")
        _ = await live.wait(for: "burst/price") { !$0.isEmpty }
        for i in 1...40 {
            let value = i % 7 == 0 ? "bad" : String(format: "%.3f", 0.05 + Double(i) / 1000)
            try live.client.publish("burst/settings/green_max/set", value)
        }
        let results = await live.wait(count: 40, on: "burst/settings/result")
        #expect(results.count == 40)
        let oks = results.compactMap { object($0)?["ok"] as? Bool }
        #expect(oks.filter { !$0 }.count == 5)
        #expect(await live.wait(for: "burst/settings") { object($0)?["green_max"] as? Double == 0.09 } != nil)
        await live.stop()
        await harness.stop()
    }

    @Test func mqtt5RequestsGetAnAnswerOnTheirResponseTopic() async throws {
        let broker = try await TestBroker.start()
        let harness = try ServiceHarness(broker: broker, http: try fixtureServer(), clock: ManualClock(start: noon))
        let reply = "reply/\(UUID().uuidString)"
        // `online` follows the daemon's subscriptions, so a request after it is heard.
        let status = try await TopicRecorder(port: broker.port, filter: "energyclock/status")
        _ = await status.wait(for: "energyclock/status") { $0 == "online" }
        await status.stop()
        let requester = try await TopicRecorder(port: broker.port, filter: reply)
        try requester.client.publish(
            "energyclock/settings/set", #"{"history_days":14}"#, responseTopic: reply, correlation: Array("req-42".utf8))
        _ = await requester.wait(for: reply)
        let answer = try #require(requester.messages.last { $0.topic == reply })
        #expect(answer.correlationData == Array("req-42".utf8))
        #expect((object(answer.text)?["settings"] as? [String: Any])?["history_days"] as? Int == 14)
        await requester.stop()
        await harness.stop()
    }

    @Test func mqtt311WorksWithoutResponseTopics() async throws {
        let broker = try await TestBroker.start()
        let harness = try ServiceHarness(broker: broker, http: try fixtureServer(), clock: ManualClock(start: noon), version: .v311)
        let live = try await TopicRecorder(port: broker.port, filter: "energyclock/#", version: .v311)
        _ = await live.wait(for: "energyclock/price") { !$0.isEmpty }
        try live.client.publish("energyclock/settings/resolution/set", "native")
        let today = await live.wait(for: "energyclock/prices/today") { (array($0)?.count ?? 0) == 96 }
        #expect(today != nil)
        await live.stop()
        await harness.stop()
    }

    @Test func retainedCommandsAreRefusedNotReplayed() async throws {
        // A command someone published with the retain flag would come back on every reconnect.
        let broker = try await TestBroker.start()
        let publisher = try await TopicRecorder(port: broker.port, filter: "energyclock/settings/result")
        try publisher.client.publish("energyclock/settings/vat_percent/set", "9", retain: true)
        let harness = try ServiceHarness(broker: broker, http: try fixtureServer(), clock: ManualClock(start: noon))
        let result = object(await publisher.wait(for: "energyclock/settings/result"))
        #expect(result?["ok"] as? Bool == false)
        #expect((result?["error"] as? String)?.contains("publish without the retain flag") == true)
        let live = try await TopicRecorder(port: broker.port, filter: "energyclock/settings")
        #expect(object(await live.wait(for: "energyclock/settings"))?["vat_percent"] as? Double == 21)
        try publisher.client.publish("energyclock/settings/vat_percent/set", "", retain: true)
        await live.stop()
        await publisher.stop()
        await harness.stop()
    }

    @Test func aBandChangeGoesOutBeforeTheDaysPayloads() async throws {
        let broker = try await TestBroker.start()
        let harness = try ServiceHarness(broker: broker, http: try fixtureServer(), clock: ManualClock(start: noon), prefix: "order")
        let live = try await TopicRecorder(port: broker.port, filter: "order/#")
        let before = try #require(await live.wait(for: "order/color") { !$0.isEmpty })
        let start = live.messages.count
        // The price is about 0.15 EUR/kWh: below 0.01 nothing is green, below 0.5 everything is.
        try live.client.publish(
            "order/settings/set", before == "green" ? #"{"green_max":0.01}"# : #"{"green_max":0.5,"yellow_max":0.6,"orange_max":0.7}"#)
        _ = await live.wait(for: "order/thresholds") { $0 != live.all("order/thresholds").first }
        #expect(await live.wait(for: "order/settings/result") != nil)
        let order = live.messages.dropFirst(start).map(\.topic)
        let color = try #require(order.firstIndex(of: "order/color"), "\(order)")
        let thresholds = try #require(order.firstIndex(of: "order/thresholds"), "\(order)")
        #expect(color < thresholds, "\(order)")
        await live.stop()
        await harness.stop()
    }
}
