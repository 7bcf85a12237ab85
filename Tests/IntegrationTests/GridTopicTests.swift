import EnergyClockDomain
import EnergyClockPublisher
import EnergyClockSources
import EnergyClockSupport
import EnergyClockTesting
import Foundation
import MQTTClient
import Synchronization
import Testing

/// A `grid` profile from StromGedacht's recorded answer and Energy-Charts' Stromampel, through the
/// service and the real binary to a real broker: the operator's light as a step on every topic, in
/// its own colours and words, planned into.
@Suite struct GridTopicTests {
    /// The 70173 answer recorded on 15 September 2025 at 23:31:55 CEST (five periods, 24 hours),
    /// moved a year on: the times keep their hour and offset, only the dates change.
    static let redated: [UInt8] = {
        let text = String(decoding: fixture("signal/stromgedacht_statesRelative_70173_2025-09-16.json"), as: UTF8.self)
        return Array(
            text.replacingOccurrences(of: "2025-09-15T", with: "2026-09-15T").replacingOccurrences(of: "2025-09-16T", with: "2026-09-16T")
                .utf8)
    }()

    @Test func aGridProfileShowsStromGedachtsLightAsStepsInItsOwnColoursAndPlansIntoTheGreenest() async throws {
        let broker = try await TestBroker.start()
        let asked = Atomic(0)
        let strays = Atomic(0)
        let http = try TestHTTPServer { request in
            guard request.contains("/v1/states?zip=70173&") || request.contains("/v1/states?zip=70180&") else {
                strays.add(1, ordering: .relaxed)
                return .json([], status: 404)
            }
            // Today's request, from its local midnight (22:00Z) for three days.
            let decoded = request.removingPercentEncoding ?? request
            if decoded.contains("from=2026-09-15T22:00:00Z&to=2026-09-18T22:00:00Z") {
                asked.add(1, ordering: .relaxed)
            } else {
                strays.add(1, ordering: .relaxed)  // a past day: a grid profile reads no history
            }
            return .json(Self.redated)
        }
        let harness = try ServiceHarness(
            broker: broker, http: http, clock: ManualClock(start: at("2026-09-16T10:10:00Z")),
            // The forecast provider a price profile would ask is not asked: a price forecast has
            // no place on a grid clock.
            settings: [
                .signal: .text("grid"), .carbonSource: .text("stromgedacht"), .carbonArea: .text("70173"),
                .forecastProvider: .text("epex-predictor"),
            ],
            options: PublisherOptions(discovery: HADiscovery(sources: SourceRegistry.ids)),
            calendar: LocalCalendar(identifier: "Europe/Berlin")!)
        let live = try await TopicRecorder(port: broker.port, filter: "#")

        // By hand from the answer: 12:10 CEST lies in the supergreen period from 10:00 to 17:00:
        // step 0, green on StromGedacht's light.
        #expect(await live.wait(for: "energyclock/price") { $0 == "0" } != nil, "\(harness.log.messages(atLeast: .info).suffix(8))")
        #expect(await live.wait(for: "energyclock/color") { $0 == "green" } != nil)
        let current = try #require(object(await live.wait(for: "energyclock/current") { $0.contains("supergreen") }))
        #expect(current["unit"] as? String == "step" && current["level"] as? String == "supergreen")
        #expect(current["market_currency"] as? String == "step" && current["market_price"] as? Double == 0)
        #expect(current["source"] as? String == "stromgedacht" && current["start"] as? String == "2026-09-16T12:00:00+02:00")
        #expect(asked.load(ordering: .relaxed) >= 1)
        let point = try #require(await live.wait(for: "energyclock/influx") { $0.hasPrefix("grid_signal,") })
        #expect(point == "grid_signal,source=stromgedacht,area=70173,state=supergreen,band=green step=0,stale=false 1789552800000000000")
        let thresholds = try #require(object(await live.wait(for: "energyclock/thresholds") { $0.contains("step") }))
        #expect(thresholds["mode"] as? String == "levels" && thresholds["green_max"] is NSNull)

        // The day's hours: supergreen (0) to 05:00, green (1) to 10:00, supergreen to 17:00, green
        // to the answer's end at 23:31:55, whose last whole quarter hour ends at 23:30.
        let today = try ForecastTopicTests.entries(
            try #require(await live.wait(for: "energyclock/prices/today") { (try? ForecastTopicTests.entries($0).count) == 24 }))
        let steps: [Double] = [0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1]
        #expect(today.map { $0["price"] as? Double ?? -1 } == steps)
        #expect(today.allSatisfy { $0["band"] as? String == "green" }, "supergreen and green are both green")
        #expect(today.last?["end"] as? String == "2026-09-16T23:30:00+02:00")
        #expect(today.allSatisfy { $0["forecast"] as? Bool == true && $0["provider"] as? String == "stromgedacht" })

        // Home Assistant: the step without a unit, the state by name, no grid fee.
        let sensor = try #require(object(await live.wait(for: "homeassistant/sensor/energyclock/price/config") { !$0.isEmpty }))
        #expect(sensor["name"] as? String == "Grid signal" && sensor["unit_of_measurement"] == nil)
        let state = try #require(object(await live.wait(for: "homeassistant/sensor/energyclock/grid_state/config") { !$0.isEmpty }))
        #expect(state["device_class"] as? String == "enum" && (state["options"] as? [String])?.contains("congestion") == true)
        #expect(live.last("homeassistant/sensor/energyclock/grid_fee/config") == nil)

        // A job from 16:00 to 20:00 runs in its one supergreen hour, 16:00.
        try live.client.publish("energyclock/settings/set", #"{"jobs":{"wash":{"duration":60,"earliest":"16:00","deadline":"20:00"}}}"#)
        let plan = try #require(object(await live.wait(for: "energyclock/plan/wash") { object($0)?["status"] as? String == "planned" }))
        #expect(plan["start"] as? String == "2026-09-16T16:00:00+02:00", "\(plan)")
        #expect(plan["minimise"] as? String == "grid" && plan["unit"] as? String == "step")

        // A source of the wrong kind is refused with the ones that fit, and nothing changes.
        for (update, reason) in [
            (
                #"{"carbon_source":"gb-carbon-intensity","carbon_area":"GB"}"#,
                "gb-carbon-intensity gives an intensity, but a grid profile shows a traffic light: choose energy-charts-signal or stromgedacht"
            ),
            (
                #"{"signal":"co2"}"#,
                "stromgedacht gives a grid signal, but a co2 profile shows an intensity: choose gb-carbon-intensity or energinet-co2"
            ),
            (#"{"carbon_area":"DE"}"#, "stromgedacht cannot answer for carbon_area: DE is not a five-digit postcode"),
        ] {
            try live.client.publish("energyclock/settings/set", update)
            let result = try #require(object(await live.wait(for: "energyclock/settings/result") { $0.contains(reason) }), "\(update)")
            #expect(result["ok"] as? Bool == false)
        }
        // A postcode as one plain value is a postcode, not a number.
        try live.client.publish("energyclock/settings/carbon_area/set", "70180")
        #expect(await live.wait(for: "energyclock/settings") { object($0)?["carbon_area"] as? String == "70180" } != nil)
        #expect(object(live.last("energyclock/settings"))?["signal"] as? String == "grid")
        #expect(strays.load(ordering: .relaxed) == 0, "only StromGedacht is asked, and only from today")
        await live.stop()
        await harness.stop()
    }

    /// The Stromampel's signal codes by hand: green, yellow, red, congestion as steps 0 to 3.
    static let ampel: [Int: (step: Double, name: String, band: String)] = [
        2: (0, "green", "green"), 1: (1, "yellow", "yellow"), 0: (2, "red", "red"), -1: (3, "congestion", "red"),
    ]

    @Test func theBinaryShowsTheStromampelOfNow() async throws {
        let broker = try await TestBroker.start()
        // The Stromampel answer moved so that now falls in its 41st quarter hour, far from its
        // two rows without a signal at the end.
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(fixture("signal/energy-charts_signal_DE_2024-12-20_constructed.json")))
                as? [String: Any])
        let signals = try #require(document["signal"] as? [Any])
        let quarter = (Date().timeIntervalSince1970 / 900).rounded(.down) * 900
        let base = Int(quarter) - 40 * 900
        let offset = base - 1_734_649_200
        var moved = document
        moved["unix_seconds"] = (document["unix_seconds"] as? [Int] ?? []).map { $0 + offset }
        let answer = try JSONSerialization.data(withJSONObject: moved)
        let http = try TestHTTPServer { request in
            request.contains("/signal?country=de&postal_code=79110") ? .json([UInt8](answer)) : .json([], status: 404)
        }
        let live = try await TopicRecorder(port: broker.port, filter: "energyclock/#")
        let daemon = try ChildProcess(
            ProcessTests.binary,
            [
                "run", "--mqtt-host", "127.0.0.1", "--mqtt-port", "\(broker.port)", "--state-dir", temporaryDirectory().path,
                "--timezone", "Europe/Berlin", "--energy-charts-signal-url", http.baseURL.absoluteString, "--settings",
                #"{"signal":"grid","carbon_source":"energy-charts-signal","carbon_area":"79110","resolution":"native"}"#,
            ], environment: daemonEnvironment())
        let current = try #require(
            object(await live.wait(for: "energyclock/current", timeout: 30) { $0.contains("step") }), "\(daemon.log.suffix(2000))")
        // Whichever quarter hour the daemon published, it is that row of the answer.
        let start = try #require((current["start"] as? String).flatMap(ISO8601.parse))
        let row = Int(start.timeIntervalSince1970) - base
        #expect(row % 900 == 0 && (40...45).contains(row / 900), "\(current)")
        let expected = try #require(Self.ampel[signals[row / 900] as? Int ?? 9])
        #expect(current["price"] as? Double == expected.step && current["level"] as? String == expected.name)
        #expect(current["band"] as? String == expected.band)
        daemon.signal(SIGTERM)
        #expect(await daemon.waitForExit(timeout: 20) == 0, "\(daemon.log.suffix(2000))")
        await live.stop()
    }
}
