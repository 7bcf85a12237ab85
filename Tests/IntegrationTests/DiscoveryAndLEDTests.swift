import EnergyClockDomain
import EnergyClockPublisher
import EnergyClockTesting
import Foundation
import MQTTClient
import Testing

/// Home Assistant discovery, LEDs, line protocol and the extra retained topics, on a real broker.
@Suite(.timeLimit(.minutes(1)))
struct DiscoveryAndLEDTests {
    let start = at("2025-12-17T10:20:00+01:00")
    static let sources = ["energyzero", "entsoe", "awattar", "energycharts", "custom"]

    @Test func everyDiscoveryConfigIsCompleteAndHomeAssistantRestartsRepublishIt() async throws {
        let broker = try await TestBroker.start()
        let options = PublisherOptions(discovery: HADiscovery(mode: .on, sources: Self.sources))
        let harness = try ServiceHarness(broker: broker, http: try fixtureServer(), clock: ManualClock(start: start), options: options)
        let ha = try await TopicRecorder(port: broker.port, filter: "homeassistant/#")
        // The refresh button is announced last.
        #expect(await ha.wait(count: 1, on: "homeassistant/button/energyclock/refresh/config").count == 1)
        #expect(ha.all("homeassistant/sensor/energyclock/price/config").count == 1)
        let all = ha.messages.filter { $0.topic.hasSuffix("/config") }
        // The entities documented in docs/integrations.md, written out.
        let expected = [
            "sensor/energyclock/price", "sensor/energyclock/band", "sensor/energyclock/next_price", "sensor/energyclock/today_min",
            "sensor/energyclock/today_max", "sensor/energyclock/today_average", "sensor/energyclock/cheapest_start",
            "sensor/energyclock/dearest_start", "binary_sensor/energyclock/stale", "select/energyclock/color_mode",
            "select/energyclock/source", "select/energyclock/resolution", "select/energyclock/zone", "number/energyclock/green_max",
            "number/energyclock/yellow_max", "number/energyclock/orange_max", "number/energyclock/history_days",
            "number/energyclock/vat_percent", "number/energyclock/surcharge", "button/energyclock/refresh",
            "number/energyclock/markup_percent", "select/energyclock/currency", "switch/energyclock/vat_on_negative",
            "sensor/energyclock/grid_fee", "image/energyclock/clock", "number/energyclock/price_decimals", "select/energyclock/kind",
            "number/energyclock/export_factor", "number/energyclock/export_fee", "switch/energyclock/export_vat",
            "select/energyclock/export_negative", "select/energyclock/direction", "switch/energyclock/negative_band",
            "switch/energyclock/forecast_tail", "select/energyclock/signal", "number/energyclock/co2_green_max",
            "number/energyclock/co2_yellow_max", "number/energyclock/co2_orange_max",
        ]
        .map { "homeassistant/\($0)/config" }
        #expect(Set(all.map(\.topic)) == Set(expected))
        let late = try await TopicRecorder(port: broker.port, filter: "homeassistant/#")
        _ = await late.wait(count: 1, on: "homeassistant/button/energyclock/refresh/config")
        #expect(late.messages.filter(\.retain).count == expected.count)  // Retained, so a late Home Assistant finds them.
        await late.stop()
        var uniqueIDs = Set<String>()
        for message in all {
            let config = try #require(object(message.text), "\(message.topic) is not JSON")
            let parts = message.topic.split(separator: "/")
            #expect(parts.count == 5 && parts[2] == "energyclock")
            #expect(parts[3].allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" })
            for key in ["name", "unique_id", "availability_topic", "device"] {
                #expect(config[key] != nil, "\(message.topic) lacks \(key)")
            }
            #expect(config["state_topic"] != nil || config["command_topic"] != nil || config["image_topic"] != nil)
            if parts[1] == "image" {
                #expect(config["image_topic"] as? String == "energyclock/clock/png")
                #expect(config["content_type"] as? String == "image/png")
            }
            #expect(uniqueIDs.insert(config["unique_id"] as! String).inserted)
            let device = try #require(config["device"] as? [String: Any])
            #expect((device["identifiers"] as? [String]) == ["energyclock_energyclock"])
            #expect(device["sw_version"] as? String == EnergyClockVersion.string)
            if let step = config["step"] as? Double { #expect(step >= 0.001) }
            if parts[1] == "select" || parts[1] == "number" {
                #expect(config["entity_category"] as? String == "config")
                #expect((config["command_topic"] as? String)?.hasPrefix("energyclock/settings/") == true)
            }
        }
        let price = try #require(object(all.first { $0.topic == "homeassistant/sensor/energyclock/price/config" }?.text))
        #expect(price["unit_of_measurement"] as? String == "EUR/kWh")
        #expect(price["state_class"] as? String == "measurement")
        #expect(price["device_class"] == nil)
        #expect(price["json_attributes_topic"] as? String == "energyclock/stats/today")
        let band = try #require(object(all.first { $0.topic == "homeassistant/sensor/energyclock/band/config" }?.text))
        #expect(band["device_class"] as? String == "enum")
        #expect(band["options"] as? [String] == ["negative", "green", "yellow", "orange", "red"])

        // The attributes topic stays small: Home Assistant's recorder refuses attributes over 16 KB.
        let live = try await TopicRecorder(port: broker.port, filter: "energyclock/#")
        let stats = try #require(await live.wait(for: "energyclock/stats/today") { $0.count > 2 })
        #expect(stats.utf8.count < 1024)

        // Home Assistant restarts: configs and states come again.
        try ha.client.publish("homeassistant/status", "online")
        #expect(await ha.wait(count: 2, on: "homeassistant/sensor/energyclock/price/config", timeout: 10).count == 2)
        #expect(await live.wait(count: 2, on: "energyclock/price", timeout: 10).count == 2)
        await live.stop()
        await ha.stop()
        await harness.stop()
    }

    @Test func removeModeClearsTheEntities() async throws {
        let broker = try await TestBroker.start()
        let options = PublisherOptions(discovery: HADiscovery(mode: .remove, sources: Self.sources))
        let ha = try await TopicRecorder(port: broker.port, filter: "homeassistant/#")
        let harness = try ServiceHarness(broker: broker, http: try fixtureServer(), clock: ManualClock(start: start), options: options)
        let cleared = await ha.wait(for: "homeassistant/number/energyclock/green_max/config")
        #expect(cleared == "")
        #expect(ha.messages.filter { $0.topic.hasSuffix("/config") }.allSatisfy { $0.payload.isEmpty })
        await ha.stop()
        await harness.stop()
    }

    @Test func theRefreshButtonFetchesNow() async throws {
        let broker = try await TestBroker.start()
        let http = try fixtureServer()
        let harness = try ServiceHarness(broker: broker, http: http, clock: ManualClock(start: start))
        let live = try await TopicRecorder(port: broker.port, filter: "energyclock/#")
        _ = await live.wait(for: "energyclock/price") { !$0.isEmpty }
        // The history days are fetched after today is shown; the button is pressed once they are.
        #expect(await harness.settle())
        let before = http.requests.filter { $0.contains("date=17-12-2025") }.count
        try live.client.publish("energyclock/refresh", "PRESS")
        let deadline = Date().addingTimeInterval(30)
        while http.requests.filter({ $0.contains("date=17-12-2025") }).count == before, Date() < deadline {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(http.requests.filter { $0.contains("date=17-12-2025") }.count == before + 1)
        await live.stop()
        await harness.stop()
    }

    @Test func everyLEDFormatGetsItsExactPayload() async throws {
        let broker = try await TestBroker.start()
        let leds = ["wled:wled/kitchen", "z2m:Desk lamp", "tasmota:bulb1", "json:home/light"].compactMap(LEDTarget.init)
        #expect(leds.count == 4)
        let options = PublisherOptions(leds: leds, z2mBaseTopic: "z2m")
        let spy = try await TopicRecorder(port: broker.port, filter: "#")
        // Dearer than every threshold: red, drawn in the user's own red at brightness 200.
        let harness = try ServiceHarness(
            broker: broker, http: try fixtureServer(), clock: ManualClock(start: start),
            settings: [
                .greenMax: .number(-0.3), .yellowMax: .number(-0.2), .orangeMax: .number(-0.1),
                .palette: .colors([.red: RGBColor(red: 0xAB, green: 0x01, blue: 0x02)]), .brightness: .levels([.red: 200]),
            ], options: options)
        #expect(await spy.wait(for: "wled/kitchen/col") == "#AB0102")
        #expect(await spy.wait(for: "wled/kitchen") == "200")
        #expect(await spy.wait(for: "z2m/Desk lamp/set") == ##"{"state":"ON","color":{"hex":"#AB0102"},"brightness":200}"##)
        #expect(await spy.wait(for: "cmnd/bulb1/Color") == "#AB0102")
        #expect(await spy.wait(for: "cmnd/bulb1/Dimmer") == "78")
        #expect(await spy.wait(for: "home/light") == ##"{"r":171,"g":1,"b":2,"hex":"#AB0102","band":"red","brightness":200}"##)
        #expect(await spy.wait(for: "energyclock/color/hex") == "#AB0102")
        #expect(spy.messages.filter { $0.topic.hasPrefix("cmnd/") }.allSatisfy { !$0.retain })

        // A palette change reaches the lights at once.
        try spy.client.publish("energyclock/settings/palette/set", "red=#00FF00")
        #expect(await spy.wait(for: "cmnd/bulb1/Color") { $0 == "#00FF00" } != nil)
        await spy.stop()
        await harness.stop()
    }

    @Test func lineProtocolAndCheapestWindowsArePublished() async throws {
        let broker = try await TestBroker.start()
        let harness = try ServiceHarness(
            broker: broker, http: try fixtureServer(), clock: ManualClock(start: start),
            options: PublisherOptions(cheapestHours: [1, 3]))
        let live = try await TopicRecorder(port: broker.port, filter: "energyclock/#")
        let line = try #require(await live.wait(for: "energyclock/influx"))
        let market = FixtureTruth.hourMean(at("2025-12-17T09:00:00Z"))
        #expect(line.hasPrefix("energy_price,source=energyzero,zone=NL,band=\(FixtureTruth.band(market * 1.21)) price="))
        // (0.13144 + 0.12239 + 0.11712 + 0.11105) / 4, from the recorded answer.
        #expect(line.contains(",market_price=0.1205,green_max=0.1,yellow_max=0.2,orange_max=0.3,stale=false "))
        #expect(line.hasSuffix(" \(Int64(at("2025-12-17T10:00:00+01:00").timeIntervalSince1970) * 1_000_000_000)"))
        #expect(live.messages.first { $0.topic == "energyclock/influx" }?.retain == false)

        let three = try #require(object(await live.wait(for: "energyclock/cheapest/3h") { !$0.isEmpty }))
        #expect(three["hours"] as? Int == 3)
        // Checked against a plain scan of the fixture: every run of three hours from 10:00 to the end of the 18th.
        let hours = (0..<38).map { at("2025-12-17T09:00:00Z").addingTimeInterval(Double($0) * 3600) }
        let best = (0...(hours.count - 3)).min { a, b in
            (a..<(a + 3)).map { FixtureTruth.hourMean(hours[$0]) }.reduce(0, +)
                < (b..<(b + 3)).map { FixtureTruth.hourMean(hours[$0]) }.reduce(0, +)
        }!
        #expect(at(three["start"] as! String) == hours[best])
        let mean = (best..<(best + 3)).map { FixtureTruth.hourMean(hours[$0]) * 1.21 }.reduce(0, +) / 3
        #expect(abs((three["mean_price"] as! Double) - mean) < 5e-7)
        #expect(await live.wait(for: "energyclock/stale") == "false")
        let stats = try #require(object(live.last("energyclock/stats/today")))
        #expect(stats["count"] as? Int == 24)
        #expect(stats["rank"] is Int && stats["quantile"] is Double)
        await live.stop()
        await harness.stop()
    }
}
