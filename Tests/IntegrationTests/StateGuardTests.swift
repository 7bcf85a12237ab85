import EnergyClockCore
import EnergyClockTesting
import Foundation
import MQTTClient
import Testing

/// The daemon's retained state is its own: what another client writes over it goes back, at once
/// and then at most once a second; and the recommended ACL keeps such a client out altogether.
@Suite(.timeLimit(.minutes(2)))
struct StateGuardTests {
    func daemon(_ broker: TestBroker, state: URL, _ extra: [String] = [], env: [String: String] = [:]) throws -> ChildProcess {
        try ChildProcess(
            ProcessTests.binary,
            ["run", "--mqtt-host", "127.0.0.1", "--mqtt-port", "\(broker.port)", "--state-dir", state.path] + extra,
            environment: daemonEnvironment(env))
    }

    @Test func anotherClientsRetainedStatusAndColourArePutBack() async throws {
        let broker = try await TestBroker.start()
        let daemon = try daemon(broker, state: try stateWithCurrentPrices())
        let live = try await TopicRecorder(port: broker.port, filter: "energyclock/#")
        let color = try #require(await live.wait(for: "energyclock/color") { !$0.isEmpty }, "\(daemon.log)")
        #expect(await live.wait(for: "energyclock/status") { $0 == "online" } != nil)

        let intruder = try await TopicRecorder(port: broker.port, filter: "intruder/#")
        try intruder.client.publish("energyclock/status", "offline", retain: true)
        try intruder.client.publish("energyclock/color", "purple", retain: true)
        try intruder.client.publish("energyclock/price", "0.0001")  // Not retained: live subscribers saw it all the same.
        #expect(await live.wait(for: "energyclock/status") { $0 == "online" && live.all("energyclock/status").contains("offline") } != nil)
        #expect(await live.wait(for: "energyclock/price") { $0 != "0.0001" && live.all("energyclock/price").contains("0.0001") } != nil)
        // A client subscribing now gets the daemon's state, not the intruder's.
        let later = try await TopicRecorder(port: broker.port, filter: "energyclock/#")
        #expect(await later.wait(for: "energyclock/color") == color)
        #expect(await later.wait(for: "energyclock/status") == "online")
        #expect(daemon.log.components(separatedBy: "another client wrote energyclock/color").count == 2, "named once: \(daemon.log)")

        // A client that writes in a loop gets an answer a second, not one a write.
        let before = live.all("energyclock/color").filter { $0 == color }.count
        let started = Date()
        for _ in 0..<200 { try intruder.client.publish("energyclock/color", "purple", retain: true) }
        try await Task.sleep(for: .seconds(2))
        let seconds = Date().timeIntervalSince(started)
        let restored = live.all("energyclock/color").filter { $0 == color }.count - before
        #expect(restored >= 1 && Double(restored) <= seconds + 2, "\(restored) restorings in \(seconds) s")
        #expect(await live.wait(for: "energyclock/color") { $0 == color } != nil)
        let last = try await TopicRecorder(port: broker.port, filter: "energyclock/color")
        #expect(await last.wait(for: "energyclock/color") == color, "the daemon's colour is the one retained")

        daemon.signal(SIGTERM)
        #expect(await daemon.waitForExit(timeout: 10) == 0, "\(daemon.log.suffix(2000))")
        for recorder in [live, intruder, later, last] { await recorder.stop() }
    }
}
