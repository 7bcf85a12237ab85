import EnergyClockTesting
import Foundation
import MQTTClient
import Testing

/// The real `energyclock` binary, as users run it.
@Suite(.timeLimit(.minutes(1)))
struct ProcessTests {
    /// The executable SwiftPM built beside this test bundle.
    static var binary: String {
        builtExecutable("energyclock")
    }

    @Test func daemonRunsPersistsAndStopsGracefullyOnSIGTERM() async throws {
        let broker = try await TestBroker.start()
        let http = try fixtureServer()
        let state = temporaryDirectory()
        // Options through flags and through the environment alike.
        let env = daemonEnvironment(["ENERGYCLOCK_MQTT_PORT": "\(broker.port)", "ENERGYCLOCK_TOPIC_PREFIX": "home/ec"])
        let arguments = [
            "run", "--mqtt-host", "127.0.0.1", "--state-dir", state.path, "--energyzero-url", http.baseURL.absoluteString,
            "--mqtt-client-id", "ec-\(UUID().uuidString)",
        ]
        let live = try await TopicRecorder(port: broker.port, filter: "home/ec/#")

        let daemon = try ChildProcess(Self.binary, arguments, environment: env)
        #expect(await live.wait(for: "home/ec/status") { $0 == "online" } != nil, "\(daemon.log)")
        #expect(await live.wait(for: "home/ec/settings") != nil)
        try live.client.publish("home/ec/settings/set", #"{"color_mode":"relative","history_days":3}"#)
        #expect(object(await live.wait(for: "home/ec/settings/result"))?["ok"] as? Bool == true)

        let stopping = Date()
        daemon.signal(SIGTERM)
        let status = await daemon.waitForExit(timeout: 20)
        #expect(status == 0, "\(daemon.log)")
        #expect(Date().timeIntervalSince(stopping) < 10, "far less than the hanging fetch or the broker outage would take")
        #expect(await live.wait(for: "home/ec/status") { $0 == "offline" } != nil)
        #expect(daemon.log.contains("received signal 15"))

        // A new process starts with the saved settings.
        let again = try ChildProcess(Self.binary, arguments, environment: env)
        #expect(await live.wait(for: "home/ec/status") { $0 == "online" } != nil)
        let settings = await live.wait(for: "home/ec/settings") { object($0)?["history_days"] as? Int == 3 }
        #expect(object(settings)?["color_mode"] as? String == "relative")
        again.signal(SIGINT)
        #expect(await again.waitForExit(timeout: 20) == 0, "\(again.log.suffix(3000))")
        await live.stop()
    }

    @Test func aHangingPriceAPIDoesNotDelayShutdown() async throws {
        let broker = try await TestBroker.start()
        let http = try TestHTTPServer { _ in TestHTTPServer.Response(body: Array("{}".utf8), delay: 30) }
        let live = try await TopicRecorder(port: broker.port, filter: "energyclock/status")
        let daemon = try ChildProcess(
            Self.binary,
            [
                "run", "--mqtt-host", "127.0.0.1", "--mqtt-port", "\(broker.port)", "--state-dir", temporaryDirectory().path,
                "--energyzero-url", http.baseURL.absoluteString, "--fetch-timeout", "60",
            ], environment: daemonEnvironment())
        #expect(await live.wait(for: "energyclock/status") { $0 == "online" } != nil)
        while http.requests.isEmpty { try await Task.sleep(for: .milliseconds(5)) }
        let stopping = Date()
        daemon.signal(SIGTERM)
        #expect(await daemon.waitForExit(timeout: 20) == 0, "\(daemon.log)")
        #expect(Date().timeIntervalSince(stopping) < 10, "far less than the hanging fetch or the broker outage would take")
        #expect(await live.wait(for: "energyclock/status") { $0 == "offline" } != nil)
        await live.stop()
    }

    @Test func startsBeforeTheBrokerAndStopsQuicklyWhileItIsGone() async throws {
        let port = try TestBroker.freePort()
        let daemon = try ChildProcess(
            Self.binary,
            [
                "run", "--mqtt-host", "127.0.0.1", "--mqtt-port", "\(port)", "--state-dir", temporaryDirectory().path,
                "--energyzero-url", "http://127.0.0.1:9",
            ], environment: daemonEnvironment())
        while !daemon.log.contains("no connection to 127.0.0.1:\(port)") { try await Task.sleep(for: .milliseconds(10)) }

        // The broker appears later: the daemon connects by itself.
        let broker = try await TestBroker.start(port: port)
        let live = try await TopicRecorder(port: port, filter: "energyclock/status")
        #expect(await live.wait(for: "energyclock/status", timeout: 10) { $0 == "online" } != nil, "\(daemon.log)")
        await live.stop()

        // The broker goes away again; a stop during the outage is still quick and clean.
        broker.stop()
        // Wait for the daemon to notice: its second outage line.
        while daemon.log.components(separatedBy: "no connection to").count - 1 < 2 {
            try await Task.sleep(for: .milliseconds(10))
        }
        let stopping = Date()
        daemon.signal(SIGTERM)
        #expect(await daemon.waitForExit(timeout: 20) == 0, "\(daemon.log)")
        #expect(Date().timeIntervalSince(stopping) < 10, "far less than the hanging fetch or the broker outage would take")
        // One line per outage, not one per retry.
        #expect(daemon.log.components(separatedBy: "no connection").count - 1 <= 3, "\(daemon.log)")
    }

    @Test func credentialsComeFromTheEnvironmentOrAFileNeverAFlag() async throws {
        let directory = temporaryDirectory()
        let passwords = directory.appendingPathComponent("passwd").path
        let maker = try ChildProcess("/usr/bin/mosquitto_passwd", ["-c", "-b", passwords, "clock", "s3cret word"])
        #expect(await maker.waitForExit(timeout: 10) == 0, "\(maker.log)")
        let broker = try await TestBroker.start(extraConfig: "allow_anonymous false\npassword_file \(passwords)")
        let arguments = [
            "run", "--mqtt-host", "127.0.0.1", "--mqtt-port", "\(broker.port)", "--mqtt-username", "clock",
            "--state-dir", temporaryDirectory().path, "--energyzero-url", "http://127.0.0.1:9",
        ]

        // Wrong password: a clear refusal in the log, and the password itself nowhere.
        let refused = try ChildProcess(Self.binary, arguments, environment: daemonEnvironment(["ENERGYCLOCK_MQTT_PASSWORD": "wrong"]))
        while !refused.log.contains("refused the connection") { try await Task.sleep(for: .milliseconds(10)) }
        refused.signal(SIGTERM)
        #expect(await refused.waitForExit(timeout: 20) == 0, "\(refused.log.suffix(3000))")
        #expect(refused.log.contains("Not authorized"), "\(refused.log)")
        #expect(!refused.log.contains("wrong"))

        // The right password from a file (with its trailing newline) gets in.
        let file = directory.appendingPathComponent("password").path
        try "s3cret word\n".write(toFile: file, atomically: true, encoding: .utf8)
        let daemon = try ChildProcess(Self.binary, arguments + ["--mqtt-password-file", file], environment: daemonEnvironment())
        while !daemon.log.contains("connected to") { try await Task.sleep(for: .milliseconds(10)) }
        daemon.signal(SIGTERM)
        #expect(await daemon.waitForExit(timeout: 20) == 0, "\(daemon.log.suffix(3000))")
        #expect(!daemon.log.contains("s3cret"))
    }

    @Test func theLastWillSaysOfflineWhenTheDaemonDies() async throws {
        let broker = try await TestBroker.start()
        let live = try await TopicRecorder(port: broker.port, filter: "energyclock/status")
        let daemon = try ChildProcess(
            Self.binary,
            [
                "run", "--mqtt-host", "127.0.0.1", "--mqtt-port", "\(broker.port)", "--mqtt-keepalive", "5",
                "--state-dir", temporaryDirectory().path, "--energyzero-url", "http://127.0.0.1:9",
            ], environment: daemonEnvironment())
        #expect(await live.wait(for: "energyclock/status") { $0 == "online" } != nil)
        daemon.signal(SIGKILL)
        _ = await daemon.waitForExit(timeout: 20)
        #expect(await live.wait(for: "energyclock/status", timeout: 10) { $0 == "offline" } != nil)
        await live.stop()
    }

    @Test(arguments: [
        (["run", "--bogus"], "unknown option --bogus"),
        (["run", "--mqtt-port", "99999"], "--mqtt-port must be a whole number from 1 to 65535"),
        (["run", "--mqtt-password", "hunter2"], "--mqtt-password is not accepted"),
        (["run", "--timezone", "Mars/Olympus"], "unknown time zone \"Mars/Olympus\""),
        (["run", "--mqtt-version", "4.2"], "--mqtt-version must be 5 or 3.1.1"),
        (["run", "--energyzero-url", "ftp://x"], "must be an http:// or https:// URL"),
        (["run", "--mqtt-host"], "--mqtt-host needs a value"),
        (["fly"], "unknown command \"fly\""),
        (["run", "--palette", "purple=#000000"], "--palette: palette must be one of negative, green, yellow, orange, red"),
        (["run", "--custom-url", "ftp://example.org/p.json"], "--custom-url: custom_url must be an http://, https:// or file:// URL"),
        (["run", "--topic-prefix", "/"], "--topic-prefix cannot be \"/\": it is empty"),
        (["run", "--topic-prefix", "$SYS/x"], "--topic-prefix cannot be \"$SYS/x\": topics starting with $ belong to the broker"),
        (["run", "--topic-prefix", "$share/g/x"], "topics starting with $ belong to the broker"),
        (["run", "--topic-prefix", "a//b"], "it has an empty level"),
        (["run", "--reply-topic-prefix", "reply/#"], "--reply-topic-prefix cannot be \"reply/#\": it holds a wildcard"),
        (["run", "--custom-url", "ftp://u:hunter2@example.org/p.json"], "ftp://[redacted]@example.org/p.json"),
        (["run", "--led", "wled:$SYS/x"], "topics starting with $ belong to the broker"),
        (["run", "--led", "json:a//b"], "it has an empty level"),
        (["run", "--led", "wled-ring:ring/#"], "wled-ring cannot use the topic \"ring/#\""),
        (["run", "--z2m-base-topic", "/"], "--z2m-base-topic cannot be \"/\": it is empty"),
    ])
    func badFlagsExitWithStatus2AndSayWhy(arguments: [String], message: String) async throws {
        let process = try ChildProcess(Self.binary, arguments, environment: daemonEnvironment())
        #expect(await process.waitForExit(timeout: 10) == 2)
        #expect(process.log.contains(message), "\(process.log)")
        #expect(!process.log.contains("hunter2"))
    }

    @Test func badEnvironmentValuesNameTheVariable() async throws {
        let process = try ChildProcess(Self.binary, ["run"], environment: daemonEnvironment(["ENERGYCLOCK_MQTT_KEEPALIVE": "soon"]))
        #expect(await process.waitForExit(timeout: 10) == 2)
        #expect(process.log.contains("ENERGYCLOCK_MQTT_KEEPALIVE must be a whole number"), "\(process.log)")
    }

    @Test func versionAndHelp() async throws {
        let version = try ChildProcess(Self.binary, ["--version"])
        #expect(await version.waitForExit(timeout: 10) == 0)
        #expect(version.log.hasPrefix("energyclock "))
        let help = try ChildProcess(Self.binary, ["--help"])
        #expect(await help.waitForExit(timeout: 10) == 0)
        for flag in [
            "--mqtt-host", "--mqtt-port", "--mqtt-username", "--mqtt-password-file", "--mqtt-client-id", "--mqtt-version",
            "--topic-prefix", "--state-dir", "--timezone", "--energyzero-url", "--log-level", "--json",
        ] {
            #expect(help.log.contains(flag), "\(flag)")
        }
    }

    @Test func pricesForAnyDayAndSource() async throws {
        let http = try TestHTTPServer { target in
            if target.hasPrefix("/api") { return TestHTTPServer.Response(contentType: "text/xml", body: fixture("BE_60M.xml")) }
            return .json(ServiceHarness.quarterFixture)
        }
        let state = temporaryDirectory().path
        let energyzero = try ChildProcess(
            Self.binary,
            [
                "prices", "--json", "--date", "2025-12-17", "--state-dir", state, "--energyzero-url", http.baseURL.absoluteString,
            ], environment: daemonEnvironment())
        #expect(await energyzero.waitForExit(timeout: 20) == 0, "\(energyzero.log)")
        let day = try #require(object(energyzero.log.split(separator: "\n").last { $0.hasPrefix("{") }.map(String.init)))
        let today = try #require(day["today"] as? [[String: Any]])
        #expect(today.count == 24)
        #expect(today.first?["start"] as? String == "2025-12-17T00:00:00+01:00")
        #expect((day["tomorrow"] as? [Any])?.count == 24)

        // Another source for one run, through its own cache, in another zone.
        let entsoe = try ChildProcess(
            Self.binary,
            [
                "prices", "--json", "--date", "2024-10-08", "--source", "entsoe", "--timezone", "Europe/Brussels",
                "--state-dir", state, "--entsoe-url", http.baseURL.absoluteString,
            ], environment: daemonEnvironment(["ENERGYCLOCK_ENTSOE_TOKEN": "secret-token"]))
        #expect(await entsoe.waitForExit(timeout: 20) == 0, "\(entsoe.log)")
        // The zone is still NL here, so ENTSO-E is asked for the Dutch zone; the recorded answer is Belgian but serves.
        let other = try #require(object(entsoe.log.split(separator: "\n").last { $0.hasPrefix("{") }.map(String.init)))
        #expect((other["today"] as? [Any])?.count == 24)
        #expect(other["source"] as? String == "entsoe")
        #expect(!entsoe.log.contains("secret-token"))

        let bad = try ChildProcess(Self.binary, ["prices", "--date", "2025-02-30"], environment: daemonEnvironment())
        #expect(await bad.waitForExit(timeout: 10) == 2)
        #expect(bad.log.contains("--date must be a date as YYYY-MM-DD"))
    }

    @Test func pricesTableShowsTheRepeatedAutumnHourFromACustomFile() async throws {
        // Quarter-hours for 25 October 2026 in a file of the user's own, in EUR/MWh.
        let start = at("2026-10-24T22:00:00Z").timeIntervalSince1970
        let items = (0..<100).map { #"{"start":\#(Int(start) + $0 * 900),"price":\#(50 + $0)}"# }.joined(separator: ",")
        let file = temporaryDirectory().appendingPathComponent("prices.json")
        try #"{"unit":"EUR/MWh","prices":["#.appending(items).appending("]}").write(to: file, atomically: true, encoding: .utf8)
        let process = try ChildProcess(
            Self.binary,
            [
                "prices", "--date", "2026-10-25", "--source", "custom", "--custom-url", file.absoluteString,
                "--state-dir", temporaryDirectory().path, "--log-level", "error",
            ], environment: daemonEnvironment())
        #expect(await process.waitForExit(timeout: 20) == 0, "\(process.log)")
        let rows = process.log.split(separator: "\n").filter { $0.hasPrefix("  ") && $0.contains(":00 +0") }
        #expect(rows.count == 25)
        #expect(rows.contains { $0.hasPrefix("  02:00 +02:00") } && rows.contains { $0.hasPrefix("  02:00 +01:00") })
        #expect(!process.log.contains("\u{1B}["))  // No colour codes when not on a terminal.
        // The first hour is the mean of its four quarters, 50…53 EUR/MWh, plus 21 % VAT.
        // 0.0515 × 1.21 = 0.062315, shown with four decimals.
        #expect(rows.first?.contains("0.0623") == true, "\(rows.first ?? "")")
    }

    @Test func pricesCommandPrintsJSONFromTheSource() async throws {
        // A source that has nothing for any day: the command must say so, not show made-up prices.
        let http = try TestHTTPServer { _ in .json(Array(#"{"Prices":[],"base":[]}"#.utf8)) }
        let process = try ChildProcess(
            Self.binary,
            [
                "prices", "--json", "--state-dir", temporaryDirectory().path, "--energyzero-url", http.baseURL.absoluteString,
            ], environment: daemonEnvironment())
        #expect(await process.waitForExit(timeout: 20) == 0, "\(process.log)")
        let json = try #require(object(String(process.log.split(separator: "\n").last { $0.hasPrefix("{") } ?? "")))
        #expect((json["today"] as? [Any])?.isEmpty == true)
        #expect((json["tomorrow"] as? [Any])?.isEmpty == true)
        #expect(json["source"] as? String == "energyzero")
        #expect(json["stale"] as? Bool == false)
        #expect(http.requests.contains { $0.contains("interval=INTERVAL_QUARTER") })
    }
}
