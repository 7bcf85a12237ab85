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
        #expect(await live.wait(for: "energyclock/color") { $0 == color && live.all("energyclock/color").contains("purple") } != nil)
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

    @Test func theExampleACLKeepsOtherClientsOffTheStateAndLetsTheirCommandsThrough() async throws {
        let directory = temporaryDirectory()
        let passwords = directory.appendingPathComponent("passwd").path
        for (user, password) in [("energyclock", "clock-pw"), ("homeassistant", "ha-pw"), ("phone", "phone-pw")] {
            let maker = try ChildProcess(
                "/usr/bin/mosquitto_passwd",
                (FileManager.default.fileExists(atPath: passwords) ? [] : ["-c"]) + ["-b", passwords, user, password])
            #expect(await maker.waitForExit(timeout: 10) == 0, "\(maker.log)")
        }
        // The example as it is, and the topic on which the test's recorders tell they are ready.
        let example = try String(contentsOf: ReferenceTests.root.appendingPathComponent("examples/mosquitto.acl"), encoding: .utf8)
        let acl = directory.appendingPathComponent("acl").path
        try ("pattern readwrite recorder/#\n" + example).write(toFile: acl, atomically: true, encoding: .utf8)
        chmod(acl, 0o644)
        chmod(passwords, 0o644)
        chmod(directory.path, 0o755)
        let broker = try await TestBroker.start(extraConfig: "allow_anonymous false\npassword_file \(passwords)\nacl_file \(acl)")
        let daemon = try daemon(
            broker, state: try stateWithCurrentPrices(), ["--mqtt-username", "energyclock"], env: ["ENERGYCLOCK_MQTT_PASSWORD": "clock-pw"])
        let phone = try await TopicRecorder(port: broker.port, filter: "energyclock/#", username: "phone", password: "phone-pw")
        let color = try #require(await phone.wait(for: "energyclock/color") { !$0.isEmpty }, "\(daemon.log)")
        // The phone reads everything and sends a command, which is answered.
        try phone.client.publish("energyclock/settings/set", #"{"vat_percent":9}"#)
        #expect(object(await phone.wait(for: "energyclock/settings/result"))?["ok"] as? Bool == true)
        // Its writes to the state are refused by the broker: nothing of them reaches anyone.
        try phone.client.publish("energyclock/color", "purple", retain: true)
        try phone.client.publish("energyclock/status", "offline", retain: true)
        // The broker handles the phone's messages in order: by the answer to its next command, any
        // of those writes it had let through would have reached the phone.
        try phone.client.publish("energyclock/settings/set", #"{"vat_percent":9}"#)
        #expect(await phone.wait(count: 2, on: "energyclock/settings/result").count == 2)
        #expect(!phone.all("energyclock/color").contains("purple") && !phone.all("energyclock/status").contains("offline"))
        let later = try await TopicRecorder(port: broker.port, filter: "energyclock/#", username: "homeassistant", password: "ha-pw")
        #expect(await later.wait(for: "energyclock/color") == color)
        #expect(await later.wait(for: "energyclock/status") == "online")
        #expect(!daemon.log.contains("refused a publish"), "energyclock's own user writes all it needs: \(daemon.log)")
        daemon.signal(SIGTERM)
        #expect(await daemon.waitForExit(timeout: 10) == 0, "\(daemon.log.suffix(2000))")
        await phone.stop()
        await later.stop()
    }
}
