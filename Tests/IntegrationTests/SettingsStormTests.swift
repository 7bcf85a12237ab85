import EnergyClockTesting
import Foundation
import MQTTClient
import Testing

/// The daemon's MQTT thread runs the work its messages start (see `IdleTests`); under a storm it
/// must still read as fast as the broker sends.
@Suite(.timeLimit(.minutes(1)))
struct SettingsStormTests {
    /// Thousands of changes sent at once all reach the manager, which folds them, and the last
    /// one is what the daemon shows. Read only between runs of the work, one change at a time, the
    /// daemon fell behind, and the broker dropped what overflowed its queue for the daemon (1,000
    /// messages): the last changes never arrived.
    @Test func aStormOfChangesEndsWithTheLastOne() async throws {
        let broker = try await TestBroker.start()
        let (daemon, live) = try await daemonSettledOnAFailedFetch(broker)
        try live.client.subscribe("energyclock/settings")
        let count = 3000
        for k in 1...count { try live.client.publish("energyclock/settings/surcharge/set", String(format: "%.6f", Double(k) / 1e6)) }
        let last = await live.wait(for: "energyclock/settings", timeout: 40) { object($0)?["surcharge"] as? Double == Double(count) / 1e6 }
        #expect(last != nil, "the last change shows: \(live.last("energyclock/settings")?.prefix(200) ?? "nothing")")
        daemon.signal(SIGTERM)
        #expect(await daemon.waitForExit(timeout: 20) == 0, "\(daemon.log.suffix(3000))")
        await live.stop()
    }
}
