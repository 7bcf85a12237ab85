import EnergyClockPublisher
import EnergyClockSources
import EnergyClockTesting
import Foundation
import MQTTClient
import Synchronization
import Testing

/// Plans against a real broker on the test clock: the switch flips at the plan's boundaries, a
/// plan in progress stays when new prices arrive, and a deleted job leaves nothing behind.
@Suite(.timeLimit(.minutes(1)))
struct PlanTests {
    /// The fixture with the quarters of the hour from `start` (UTC) priced at `price`.
    static func fixture(cheapening start: Date, to price: Double) throws -> [UInt8] {
        var json = try JSONSerialization.jsonObject(with: Data(ServiceHarness.quarterFixture)) as! [String: Any]
        json["base"] = (json["base"] as! [[String: Any]]).map { item in
            var item = item
            let begin = at(item["start"] as! String)
            if begin >= start, begin < start.addingTimeInterval(3600) { item["price"] = ["value": String(price)] }
            return item
        }
        return Array(try JSONSerialization.data(withJSONObject: json))
    }

    @Test func theSwitchFlipsOnTimeAStartedPlanStaysAndADeletedJobIsGone() async throws {
        let broker = try await TestBroker.start()
        let cheaper = Atomic(false)
        // Later, 17:00 local (16:00 UTC) becomes by far the cheapest hour of the window.
        let later = try Self.fixture(cheapening: at("2025-12-17T16:00:00Z"), to: -0.5)
        let http = try TestHTTPServer { _ in .json(cheaper.load(ordering: .relaxed) ? later : ServiceHarness.quarterFixture) }
        let clock = ManualClock(start: at("2025-12-17T10:20:00+01:00"))
        let harness = try ServiceHarness(
            broker: broker, http: http, clock: clock, options: PublisherOptions(discovery: HADiscovery(sources: SourceRegistry.ids)))
        let live = try await TopicRecorder(port: broker.port, filter: "#")
        _ = await live.wait(for: "energyclock/price") { !$0.isEmpty }

        // The cheapest hour from 12:00 to 18:00, worked out from the fixture.
        let hours = (11..<17).map { at("2025-12-17T\(String(format: "%02d", $0)):00:00Z") }
        let best = hours.min { FixtureTruth.hourMean($0) < FixtureTruth.hourMean($1) }!
        try live.client.publish("energyclock/settings/set", #"{"jobs":{"dish":{"duration":60,"earliest":"12:00","deadline":"18:00"}}}"#)
        #expect(object(await live.wait(for: "energyclock/settings/result"))?["ok"] as? Bool == true)
        let planned = try #require(object(await live.wait(for: "energyclock/plan/dish") { object($0)?["status"] as? String == "planned" }))
        #expect(planned["start"].flatMap { $0 as? String }.map(at) == best)
        #expect(live.last("energyclock/plan/dish/active") == "OFF")
        #expect(await live.wait(for: "homeassistant/binary_sensor/energyclock/job-dish-running/config") { !$0.isEmpty } != nil)

        // ON exactly at its start, not a boundary before.
        #expect(await harness.advance(until: { live.last("energyclock/plan/dish/active") == "ON" }, limit: best))
        #expect(clock.now == best)
        #expect(object(await live.wait(for: "energyclock/plan/dish") { object($0)?["status"] as? String == "running" }) != nil)

        // New prices make 17:00 cheapest: the running block is neither moved nor cut.
        let fetches = http.requests.count
        cheaper.store(true, ordering: .relaxed)
        try live.client.publish("energyclock/refresh", "")
        _ = await live.wait(for: "energyclock/prices/today") { $0.contains("-0.") }
        #expect(http.requests.count > fetches)
        let during = try #require(object(live.last("energyclock/plan/dish")))
        #expect(during["start"].flatMap { $0 as? String }.map(at) == best)
        #expect(during["status"] as? String == "running")

        // OFF at its end, and done.
        let end = best.addingTimeInterval(3600)
        #expect(await harness.advance(until: { live.last("energyclock/plan/dish/active") == "OFF" }, limit: end))
        #expect(clock.now == end)
        #expect(object(await live.wait(for: "energyclock/plan/dish") { object($0)?["status"] as? String == "done" }) != nil)

        // Deleted: its topics and entities are cleared from the broker.
        try live.client.publish("energyclock/settings/set", #"{"jobs":{"dish":null}}"#)
        #expect(await live.wait(for: "energyclock/plan/dish") { $0.isEmpty } != nil)
        #expect(await live.wait(for: "homeassistant/text/energyclock/job-dish-deadline/config") { $0.isEmpty } != nil)
        let fresh = try await TopicRecorder(port: broker.port, filter: "#")
        #expect(fresh.last("energyclock/price") != nil, "every retained message is in once the recorder is ready")
        let left = fresh.messages.filter { $0.retain && ($0.topic.contains("/plan/dish") || $0.topic.contains("job-dish")) }
        #expect(left.isEmpty, "left behind: \(left.map(\.topic))")
        await fresh.stop()
        await live.stop()
        await harness.stop()
    }
}
