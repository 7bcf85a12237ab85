import EnergyClockTesting
import Foundation
import MQTTClient
import Testing

@testable import energyclock

/// A broker that is more than one host: `--mqtt-host` as a list, tried in turn.
@Suite struct BrokerListTests {
    func brokers(_ text: String) throws -> [MQTTBroker] {
        let options = try ParsedOptions(arguments: ["--mqtt-host", text], specs: RunConfiguration.specs, environment: ["HOME": "/tmp"])
        return try RunConfiguration.brokers(options, defaultPort: 1883)
    }

    @Test func aListNamesEachBrokerWithItsOwnPortOrTheDefault() throws {
        #expect(try brokers("broker.lan") == [MQTTBroker(host: "broker.lan", port: 1883)])
        #expect(
            try brokers("a.lan, b.lan:1884,[fd00::1]:8883,::1")
                == [
                    MQTTBroker(host: "a.lan", port: 1883), MQTTBroker(host: "b.lan", port: 1884),
                    MQTTBroker(host: "fd00::1", port: 8883), MQTTBroker(host: "::1", port: 1883),
                ])
        #expect(MQTTBroker(host: "fd00::1", port: 8883).description == "[fd00::1]:8883")
    }

    @Test(arguments: [
        ("", "must not be empty"), ("a,,b", "must not be empty"), ("a,", "must not be empty"), ("a:0", "port from 1 to 65535"),
        ("a:65536", "port from 1 to 65535"), ("a:x", "port from 1 to 65535"), ("a:", "port from 1 to 65535"),
        ("[::1", "without closing"), ("[::1]x", "not :port"), ("[]:1883", "has no host"), ("a b", "space or a control"),
        ("a,a:1883", "twice"), (Array(repeating: "h", count: 17).enumerated().map { "h\($0.offset)" }.joined(separator: ","), "at most 16"),
    ])
    func badListsAreRefusedWithTheReason(text: String, reason: String) {
        #expect {
            try brokers(text)
        } throws: { error in
            String(describing: error).contains("--mqtt-host") && String(describing: error).contains(reason)
        }
    }

    @Test func theDaemonMovesToTheNextBrokerWhenOneIsGoneAndStaysThere() async throws {
        let first = try await TestBroker.start()
        let second = try await TestBroker.start()
        let watchFirst = try await TopicRecorder(port: first.port, filter: "energyclock/status")
        let watchSecond = try await TopicRecorder(port: second.port, filter: "energyclock/status")
        // A dead address first: the daemon does not wait for it to come back.
        // Port 1 on loopback: nothing listens there, and no other test's broker can take it.
        let dead = 1
        let state = try stateWithCurrentPrices().path
        let daemon = try ChildProcess(
            ProcessTests.binary,
            [
                "run", "--mqtt-host", "127.0.0.1:\(dead),127.0.0.1:\(first.port),127.0.0.1:\(second.port)", "--state-dir",
                state, "--energyzero-url", "http://127.0.0.1:9", "--ha-discovery", "false",
                "--clock-image=false",
            ], environment: daemonEnvironment())
        #expect(await watchFirst.wait(for: "energyclock/status") { $0 == "online" } != nil, "\(daemon.log)")
        #expect(daemon.log.contains("connected to 127.0.0.1:\(first.port)"), "\(daemon.log)")
        // The broker in use goes away: the next one takes over within seconds, without the dead one
        // in between holding it up for long.
        first.stop()
        #expect(await watchSecond.wait(for: "energyclock/status", timeout: 30) { $0 == "online" } != nil, "\(daemon.log)")
        #expect(daemon.log.contains("connected to 127.0.0.1:\(second.port)"))
        // `energyclock health` names the broker in use.
        let health = try ChildProcess(ProcessTests.binary, ["health", "--state-dir", state], environment: daemonEnvironment())
        #expect(await health.waitForExit(timeout: 20) == 0)
        #expect(health.log.contains("connected to 127.0.0.1:\(second.port)"), "\(health.log)")
        daemon.signal(SIGTERM)
        #expect(await daemon.waitForExit(timeout: 20) == 0, "\(daemon.log.suffix(3000))")
        #expect(await watchSecond.wait(for: "energyclock/status") { $0 == "offline" } != nil, "offline is left on the broker in use")
        await watchFirst.stop()
        await watchSecond.stop()
    }
}
