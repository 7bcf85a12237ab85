import EnergyClockStore
import EnergyClockTesting
import Foundation
import Glibc
import MQTTClient
import Synchronization
import Testing

/// The real binary against hostile answers, files and helpers: it never crashes, hangs or
/// publishes what it was not given, and SIGTERM always ends it.
@Suite(.timeLimit(.minutes(1)))
struct HostileAnswerTests {
    func run(_ broker: TestBroker, state: URL, _ extra: [String], environment: [String: String] = [:]) throws -> ChildProcess {
        try ChildProcess(
            ProcessTests.binary,
            ["run", "--mqtt-host", "127.0.0.1", "--mqtt-port", "\(broker.port)", "--state-dir", state.path, "--log-level", "debug"]
                + extra, environment: daemonEnvironment(environment))
    }

    /// Waits up to 20 s for `text` in the daemon's log, and expects it there.
    func expectLog(_ daemon: ChildProcess, _ text: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let deadline = Date().addingTimeInterval(20)
        while !daemon.log.contains(text), Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
        #expect(daemon.log.contains(text), "\(daemon.log.suffix(2000))", sourceLocation: sourceLocation)
    }

    /// Sends SIGTERM and expects a clean exit within 5 s, with `offline` on the status topic `live` follows.
    func expectPromptStop(_ daemon: ChildProcess, _ live: TopicRecorder, sourceLocation: SourceLocation = #_sourceLocation) async {
        let stopping = Date()
        daemon.signal(SIGTERM)
        #expect(await daemon.waitForExit(timeout: 20) == 0, sourceLocation: sourceLocation)
        #expect(Date().timeIntervalSince(stopping) < 5, sourceLocation: sourceLocation)
        #expect(await live.wait(for: "energyclock/status") { $0 == "offline" } != nil, sourceLocation: sourceLocation)
    }

    @Test func slotTimesFarOutOfRangeNeitherCrashNorLoop() async throws {
        let broker = try await TestBroker.start()
        let http = try TestHTTPServer { _ in
            TestHTTPServer.Response(contentType: "application/json", body: Array(#"{"unix_seconds":[1e19,1e19],"price":[50,60]}"#.utf8))
        }
        let state = temporaryDirectory()
        let live = try await TopicRecorder(port: broker.port, filter: "energyclock/#")
        let extra = ["--energycharts-url", http.baseURL.absoluteString, "--settings", #"{"source":"energycharts","zone":"DE-LU"}"#]
        // Twice: a bad answer must not become a crash at every start.
        for _ in 0..<2 {
            let daemon = try run(broker, state: state, extra)
            try await expectLog(daemon, "1e+19 s since 1970-01-01T00:00:00Z lies outside")
            #expect(await live.wait(for: "energyclock/stale") { $0 == "true" } != nil)
            daemon.signal(SIGTERM)
            #expect(await daemon.waitForExit(timeout: 20) == 0, "\(daemon.log.suffix(2000))")
        }
        #expect(live.all("energyclock/price").allSatisfy { $0.isEmpty }, "no price was invented")
        await live.stop()
    }

    @Test func aFIFOAsThePriceListNeitherBlocksFetchesNorShutdown() async throws {
        let broker = try await TestBroker.start()
        let state = temporaryDirectory()
        let fifo = state.appendingPathComponent("prices.fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let live = try await TopicRecorder(port: broker.port, filter: "energyclock/status")
        let daemon = try run(broker, state: state, ["--custom-url", "file://\(fifo)", "--settings", #"{"source":"custom"}"#])
        #expect(await live.wait(for: "energyclock/status") { $0 == "online" } != nil)
        try await expectLog(daemon, "is a FIFO, not a regular file")
        await expectPromptStop(daemon, live)
        await live.stop()
    }

    @Test func aHostileXMLAnswerDoesNotHoldUpShutdown() async throws {
        let broker = try await TestBroker.start()
        // 200,000 attributes on one element of a real ENTSO-E answer: minutes of work for libxml2.
        let real = String(decoding: fixture("BE_60M.xml"), as: UTF8.self)
        let hostile = real.replacingOccurrences(
            of: "<TimeSeries>", with: "<TimeSeries" + (0..<200_000).map { " a\($0)='1'" }.joined() + ">")
        let http = try TestHTTPServer { _ in TestHTTPServer.Response(contentType: "text/xml", body: Array(hostile.utf8)) }
        let live = try await TopicRecorder(port: broker.port, filter: "energyclock/status")
        let daemon = try run(
            broker, state: temporaryDirectory(),
            [
                "--entsoe-url", http.baseURL.absoluteString, "--max-body-bytes", "16000000", "--settings",
                #"{"source":"entsoe","zone":"BE"}"#,
            ],
            environment: ["ENERGYCLOCK_ENTSOE_TOKEN": "test-token"])
        #expect(await live.wait(for: "energyclock/status") { $0 == "online" } != nil)
        try await expectLog(daemon, "an element with more than 64 attributes")
        await expectPromptStop(daemon, live)
        #expect(!daemon.log.contains("parser error"), "libxml2 wrote nothing around the logger")
        await live.stop()
    }

    @Test func libxml2WritesNothingAroundTheLogger() async throws {
        let broker = try await TestBroker.start()
        // An encoding libxml2 does not know, and bytes it cannot decode: its own complaints went to stderr.
        let answers = [
            #"<?xml version="1.0" encoding="x-no-such-encoding"?><Publication_MarketDocument/>"#,
            "<?xml version=\"1.0\" encoding=\"UTF-16\"?><a/>",
            "<?xml version=\"1.0\"?><!DOCTYPE a SYSTEM \"http://127.0.0.1:1/x.dtd\"><a>&undefined;</a>",
        ]
        let served = Atomic(0)
        let http = try TestHTTPServer { _ in
            let index = served.add(1, ordering: .relaxed).oldValue % answers.count
            return TestHTTPServer.Response(contentType: "text/xml", body: Array(answers[index].utf8))
        }
        let live = try await TopicRecorder(port: broker.port, filter: "energyclock/status")
        let daemon = try run(
            broker, state: temporaryDirectory(),
            ["--entsoe-url", http.baseURL.absoluteString, "--settings", #"{"source":"entsoe","zone":"BE"}"#],
            environment: ["ENERGYCLOCK_ENTSOE_TOKEN": "test-token"])
        #expect(await live.wait(for: "energyclock/status") { $0 == "online" } != nil)
        let deadline = Date().addingTimeInterval(30)
        while served.load(ordering: .relaxed) < answers.count, Date() < deadline {
            try live.client.publish("energyclock/refresh", "now")
            try await Task.sleep(for: .milliseconds(300))
        }
        try await Task.sleep(for: .milliseconds(300))
        daemon.signal(SIGTERM)
        #expect(await daemon.waitForExit(timeout: 20) == 0)
        #expect(daemon.log.contains("entsoe: unreadable response"), "\(daemon.log.suffix(2000))")
        let stray = daemon.log.split(separator: "\n").filter { !$0.hasPrefix("20") && !$0.hasPrefix("  ") }
        #expect(stray.isEmpty, "every line is the logger's: \(stray)")
        await live.stop()
    }

    @Test func aCustomURLWithCredentialsIsNeverShown() async throws {
        let broker = try await TestBroker.start()
        let http = try TestHTTPServer { _ in TestHTTPServer.Response(status: 500) }
        let url =
            http.baseURL.absoluteString.replacingOccurrences(of: "http://", with: "http://alice:hunter2@")
            + "/prices.json?api_key=s3cr3t-key&day=today&X-Auth-Token=tok%2Bsecret"
        let live = try await TopicRecorder(port: broker.port, filter: "#")
        let daemon = try run(broker, state: temporaryDirectory(), ["--custom-url", url, "--settings", #"{"source":"custom"}"#])
        let shown = try #require(object(await live.wait(for: "energyclock/settings")))
        let expected =
            http.baseURL.absoluteString.replacingOccurrences(of: "http://", with: "http://[redacted]@")
            + "/prices.json?api_key=[redacted]&day=today&X-Auth-Token=[redacted]"
        #expect(shown["custom_url"] as? String == expected)
        try live.client.publish("energyclock/settings/set", #"{"history_days":3}"#)
        let result = try #require(await live.wait(for: "energyclock/settings/result"))
        #expect(result.contains("[redacted]"))
        daemon.signal(SIGTERM)
        #expect(await daemon.waitForExit(timeout: 20) == 0)
        for secret in ["hunter2", "s3cr3t-key", "tok%2Bsecret", "tok+secret"] {
            #expect(!daemon.log.contains(secret), "\(secret) in the log")
            #expect(!live.messages.contains { $0.text.contains(secret) }, "\(secret) on a topic")
        }
        await live.stop()
    }

    @Test func aSupervisorAnsweringAnAbsurdPortIsAClearError() async throws {
        let supervisor = try TestHTTPServer { _ in
            TestHTTPServer.Response(
                contentType: "application/json", body: Array(#"{"result":"ok","data":{"host":"127.0.0.1","port":1e20}}"#.utf8))
        }
        let process = try ChildProcess(
            ProcessTests.binary, ["run", "--state-dir", temporaryDirectory().path],
            environment: daemonEnvironment(["SUPERVISOR_TOKEN": "t", "ENERGYCLOCK_SUPERVISOR_URL": supervisor.baseURL.absoluteString]))
        #expect(await process.waitForExit(timeout: 20) == 2, "\(process.log)")
        #expect(
            process.log.contains("gave the port a number too large to hold") || process.log.contains("gave the port 1"), "\(process.log)")
    }

    @Test func aHealthRecordWithAbsurdTimesIsUnhealthyNotACrash() async throws {
        let state = temporaryDirectory()
        let directory = try StateDirectory(path: state.path)
        let lock = try StateLock(directory)
        for record in [#"{"connected":true,"since":1e300}"#, #"{"connected":true,"since":1764590000,"due_by":1e300}"#] {
            try Data(record.utf8).write(to: state.appendingPathComponent(HealthRecord.fileName))
            let health = try ChildProcess(ProcessTests.binary, ["health", "--state-dir", state.path], environment: daemonEnvironment())
            #expect(await health.waitForExit(timeout: 10) == 1, "\(health.log)")
            #expect(health.log.contains("unhealthy: the daemon has not reported yet"), "\(health.log)")
        }
        withExtendedLifetime(lock) {}
    }
}
