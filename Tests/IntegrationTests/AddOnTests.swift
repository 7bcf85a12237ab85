import EnergyClockTesting
import Foundation
import MQTTClient
import Testing

/// The Home Assistant add-on's way in: an options file, the Supervisor's MQTT service, and the
/// health check a container runs.
@Suite(.timeLimit(.minutes(1)))
struct AddOnTests {
    @Test func anOptionsFileAndTheSupervisorsBrokerStartTheDaemon() async throws {
        let broker = try await TestBroker.start()
        // A stand-in for the Supervisor: the MQTT service points at the test broker.
        let supervisor = try TestHTTPServer { target in
            guard target.hasPrefix("/services/mqtt") else { return TestHTTPServer.Response(status: 404) }
            return .json(
                Array(
                    #"{"result":"ok","data":{"host":"127.0.0.1","port":\#(broker.port),"ssl":false,"protocol":"3.1.1","username":"","password":""}}"#
                        .utf8))
        }
        let state = temporaryDirectory()
        let options = state.appendingPathComponent("options.json")
        try Data(
            #"{"source":"energycharts","zone":"BE","entsoe_token":"","mqtt_host":"","mqtt_port":1883,"leds":["json:a/led"],"ha_discovery":false,"log_level":"info","signal":"grid","carbon_source":"stromgedacht","carbon_area":"70173"}"#
                .utf8
        ).write(to: options)
        let live = try await TopicRecorder(port: broker.port, filter: "#")
        let daemon = try ChildProcess(
            ProcessTests.binary,
            [
                "run", "--state-dir", state.appendingPathComponent("data").path, "--energycharts-url", "http://127.0.0.1:9",
                "--stromgedacht-url", "http://127.0.0.1:9",
            ],
            environment: daemonEnvironment([
                "ENERGYCLOCK_OPTIONS_FILE": options.path, "SUPERVISOR_TOKEN": "token-42",
                "ENERGYCLOCK_SUPERVISOR_URL": supervisor.baseURL.absoluteString,
            ]))
        let settings = try #require(object(await live.wait(for: "energyclock/settings")), "\(daemon.log)")
        #expect(settings["source"] as? String == "energycharts")
        #expect(settings["zone"] as? String == "BE")
        // The carbon options arrive together, as one update: a grid profile needs its source.
        #expect(settings["signal"] as? String == "grid" && settings["carbon_source"] as? String == "stromgedacht")
        #expect(settings["carbon_area"] as? String == "70173")
        #expect(supervisor.heads.contains { $0.contains("Authorization: Bearer token-42") })
        #expect(!live.messages.contains { $0.topic.hasPrefix("homeassistant/") }, "ha_discovery false")

        // The health check sees a connected daemon, and none once it is stopped.
        let dataDir = state.appendingPathComponent("data").path
        #expect(try await Self.health(["--state-dir", dataDir]).status == 0)
        daemon.signal(SIGTERM)
        #expect(await daemon.waitForExit(timeout: 20) == 0, "\(daemon.log.suffix(2000))")
        let after = try await Self.health(["--state-dir", dataDir])
        #expect(after.status == 1 && after.output.contains("no energyclock runs"))
        await live.stop()
    }

    @Test func anUnknownOptionOrAMissingSupervisorIsAClearError() async throws {
        let state = temporaryDirectory()
        let options = state.appendingPathComponent("options.json")
        try Data(#"{"mqtt_hots":"broker"}"#.utf8).write(to: options)
        let typo = try ChildProcess(
            ProcessTests.binary, ["run", "--state-dir", state.path, "--options-file", options.path], environment: daemonEnvironment())
        #expect(await typo.waitForExit(timeout: 20) == 2)
        #expect(typo.log.contains("unknown option \"mqtt_hots\""), "\(typo.log)")

        try Data(#"{"log_level":"info"}"#.utf8).write(to: options)
        let lonely = try ChildProcess(
            ProcessTests.binary, ["run", "--state-dir", state.path, "--options-file", options.path],
            environment: daemonEnvironment(["SUPERVISOR_TOKEN": "x", "ENERGYCLOCK_SUPERVISOR_URL": "http://127.0.0.1:9"]))
        #expect(await lonely.waitForExit(timeout: 30) == 2)
        #expect(lonely.log.contains("set mqtt_host in the options"), "\(lonely.log)")
    }

    @Test func theHealthCheckTurnsUnhealthyWhenTheBrokerIsGoneForLong() async throws {
        let broker = try await TestBroker.start()
        let state = temporaryDirectory().path
        let daemon = try ChildProcess(
            ProcessTests.binary,
            [
                "run", "--mqtt-host", "127.0.0.1", "--mqtt-port", "\(broker.port)", "--state-dir", state, "--energyzero-url",
                "http://127.0.0.1:9",
            ],
            environment: daemonEnvironment())
        let deadline = Date().addingTimeInterval(20)
        var healthy = try await Self.health(["--state-dir", state])
        while healthy.status != 0, Date() < deadline {
            try await Task.sleep(for: .milliseconds(100))
            healthy = try await Self.health(["--state-dir", state])
        }
        #expect(healthy.status == 0 && healthy.output.hasPrefix("healthy: connected"), "\(healthy.output) \(daemon.log)")
        broker.stop()
        // The daemon notes the outage in health.json; until the limit has passed it is healthy.
        var noted = try await Self.health(["--state-dir", state, "--max-offline", "10"])
        while !noted.output.contains("reconnecting"), Date() < deadline.addingTimeInterval(20) {
            try await Task.sleep(for: .milliseconds(100))
            noted = try await Self.health(["--state-dir", state, "--max-offline", "10"])
        }
        #expect(noted.status == 0 && noted.output.hasPrefix("healthy: reconnecting"), "\(noted.output)")
        // Eleven seconds later, as `health` sees the clock (libfaketime), without waiting for them.
        let gone = try await Self.health(["--state-dir", state, "--max-offline", "10"], later: 11)
        #expect(gone.status == 1 && gone.output.contains("the broker has been unreachable"), "\(gone.output)")
        let longer = try await Self.health(["--state-dir", state, "--max-offline", "60"], later: 11)
        #expect(longer.status == 0, "not yet for a longer limit: \(longer.output)")
        daemon.signal(SIGTERM)
        _ = await daemon.waitForExit(timeout: 20)
    }

    /// Runs `energyclock health` with `arguments`, `later` seconds ahead of the real clock when
    /// given (under libfaketime); its exit status and output.
    static func health(_ arguments: [String], later: Int? = nil) async throws -> (status: Int32?, output: String) {
        let check =
            if let later {
                try ChildProcess(
                    "/usr/bin/faketime", ["-f", "+\(later)", ProcessTests.binary, "health"] + arguments, environment: daemonEnvironment())
            } else {
                try ChildProcess(ProcessTests.binary, ["health"] + arguments, environment: daemonEnvironment())
            }
        let status = await check.waitForExit(timeout: 20)
        return (status, check.log)
    }
}
