import EnergyClockDomain
import EnergyClockPublisher
import EnergyClockSupport
import EnergyClockTesting
import Foundation
import MQTTClient
import Testing

/// Promises docs/options.md and docs/running.md make about options and the broker connection, each checked on the binary
/// or the service.
@Suite(.timeLimit(.minutes(1)))
struct OptionPromiseTests {

    @Test func aFlagBeatsTheEnvironment() async throws {
        let http = try TestHTTPServer { _ in .json(Array(#"{"Prices":[],"base":[]}"#.utf8)) }
        let process = try ChildProcess(
            ProcessTests.binary,
            [
                "prices", "--json", "--timezone", "Europe/Brussels", "--state-dir", temporaryDirectory().path,
            ],
            environment: daemonEnvironment([
                "ENERGYCLOCK_TIMEZONE": "Asia/Tokyo", "ENERGYCLOCK_ENERGYZERO_URL": http.baseURL.absoluteString,
            ]))
        #expect(await process.waitForExit(timeout: 20) == 0, "\(process.log)")
        let json = try #require(object(String(process.log.split(separator: "\n").last { $0.hasPrefix("{") } ?? "")))
        #expect(json["timezone"] as? String == "Europe/Brussels")
        #expect(!http.requests.isEmpty, "the variable without a flag still counts")
    }

    @Test func ledListDiscoveryOffWindowsAndARemoteURL() async throws {
        let broker = try await TestBroker.start()
        let live = try await TopicRecorder(port: broker.port, filter: "#")
        let daemon = try ChildProcess(
            ProcessTests.binary,
            [
                "run", "--mqtt-host", "127.0.0.1", "--mqtt-port", "\(broker.port)", "--state-dir", try stateWithCurrentPrices().path,
                "--energyzero-url", "http://127.0.0.1:9", "--ha-discovery", "false", "--cheapest-hours", "2,5", "--allow-remote-url",
            ], environment: daemonEnvironment(["ENERGYCLOCK_LED": "json:a/led, wled-ring:c/ring,leds=12,reverse, json:b/led"]))
        for topic in ["a/led", "b/led"] {
            #expect(object(await live.wait(for: topic))?["band"] as? String == "green", "\(topic): \(daemon.log)")
        }
        // The ring's options stay with it in the comma-separated variable: 12 LEDs, all known.
        let ring = try #require(object(await live.wait(for: "c/ring/api")), "\(daemon.log)")
        let leds = try #require((ring["seg"] as? [String: Any])?["i"] as? [Any])
        #expect(leds.compactMap { $0 as? Int }.max().map { $0 <= 12 } == true, "\(leds)")
        #expect(await live.wait(for: "energyclock/cheapest/5h") { object($0)?["hours"] as? Int == 5 } != nil)
        #expect(live.last("energyclock/cheapest/2h") != nil)
        #expect(live.last("energyclock/cheapest/1h") == nil)
        #expect(!live.messages.contains { $0.topic.hasPrefix("homeassistant/") })

        // With --allow-remote-url, custom_url may be changed over MQTT.
        try live.client.publish("energyclock/settings/custom_url/set", "http://127.0.0.1:9/prices.json")
        let result = try #require(object(await live.wait(for: "energyclock/settings/result")))
        #expect(result["ok"] as? Bool == true, "\(result)")
        #expect((result["settings"] as? [String: Any])?["custom_url"] as? String == "http://127.0.0.1:9/prices.json")
        daemon.signal(SIGTERM)
        #expect(await daemon.waitForExit(timeout: 20) == 0, "\(daemon.log.suffix(3000))")
        await live.stop()
    }

    @Test func tomorrowIsAskedForFromTheTomorrowHour() async throws {
        // From hour 0 tomorrow is always due, so the first poll also asks for it, whatever the time.
        let http = try TestHTTPServer { _ in .json(Array(#"{"Prices":[],"base":[]}"#.utf8)) }
        let broker = try await TestBroker.start()
        let daemon = try ChildProcess(
            ProcessTests.binary,
            [
                "run", "--mqtt-host", "127.0.0.1", "--mqtt-port", "\(broker.port)", "--state-dir", temporaryDirectory().path,
                "--energyzero-url", http.baseURL.absoluteString, "--tomorrow-hour", "0", "--poll-interval", "30", "--timezone", "UTC",
            ], environment: daemonEnvironment())
        let tomorrow = LocalCalendar(identifier: "UTC")!.day(containing: Date()).adding(days: 1)
        let asked = "date=\(String(format: "%02d-%02d-%04d", tomorrow.day, tomorrow.month, tomorrow.year))&"
        let deadline = Date().addingTimeInterval(20)
        while !http.requests.contains(where: { $0.contains(asked) }), Date() < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(http.requests.contains { $0.contains(asked) }, "\(http.requests)")
        daemon.signal(SIGTERM)
        #expect(await daemon.waitForExit(timeout: 20) == 0, "\(daemon.log.suffix(3000))")
    }

    @Test func nothingIsQueuedWhileDisconnectedAndLightsAreSetAgainAfterwards() async throws {
        let broker = try await TestBroker.start()
        let clock = ManualClock(start: at("2025-12-17T10:20:00+01:00"))
        // It reconnects at least 6 s after the broker goes, so the observer below is subscribed first
        // and sees the lamp's (not retained) command, even when starting a broker is slow on a loaded machine.
        let harness = try ServiceHarness(
            broker: broker, http: try fixtureServer(), clock: clock,
            options: PublisherOptions(leds: [.json("home/lamp")]), reconnectDelay: (6, 8))
        let live = try await TopicRecorder(port: broker.port, filter: "#")
        _ = await live.wait(for: "home/lamp")
        _ = await live.wait(for: "energyclock/price") { !$0.isEmpty }
        await live.stop()

        // The broker goes; three slot boundaries pass while it is away; it comes back empty.
        let port = broker.port
        broker.stop()
        let later = at("2025-12-17T13:00:00+01:00")
        while clock.now < later {
            while clock.nextDeadline == nil { try await Task.sleep(for: .milliseconds(2)) }
            await clock.advance(to: min(clock.nextDeadline!, later))
        }
        let back = try await TestBroker.start(port: port)
        let after = try await TopicRecorder(port: back.port, filter: "#")
        #expect(await after.wait(for: "home/lamp") != nil, "the lamp is set again after the reconnect")
        let expected = DecimalFormatTruth.price(FixtureTruth.hourMean(at("2025-12-17T12:00:00Z")) * 1.21)
        #expect(await after.wait(for: "energyclock/price") { $0 == expected } != nil)
        // A command the daemon answers after all it had to send since the reconnect.
        try after.client.publish("energyclock/settings/set", #"{"green_max":"x"}"#)
        #expect(await after.wait(for: "energyclock/settings/result") != nil)
        // Only the state of now: one price, not one per boundary missed.
        #expect(after.all("energyclock/price") == [expected])
        #expect(after.all("home/lamp").count == 1)
        await after.stop()
        await harness.stop()
        _ = back
    }

    @Test func influxDB2GetsTheTokenAndTheV2Path() async throws {
        let server = try TestHTTPServer { _ in TestHTTPServer.Response(status: 204, body: []) }
        let url = URL(string: server.baseURL.absoluteString + "/api/v2/write?org=home&bucket=energy&precision=ns")!
        let writer = InfluxWriter(
            target: InfluxWriter.Target(url: url, authorization: "Token t0ken-2x"),
            logger: Logger(label: "influx", level: .error, handler: StandardErrorLogHandler()))
        let run = Task { await writer.run() }
        await writer.enqueue(["energy_price price=0.25 1"])
        let deadline = Date().addingTimeInterval(20)
        while server.heads.isEmpty, Date() < deadline { try await Task.sleep(for: .milliseconds(10)) }
        run.cancel()
        let head = try #require(server.heads.first)
        #expect(head.hasPrefix("POST /api/v2/write?org=home&bucket=energy&precision=ns HTTP/1.1\r\n"))
        #expect(head.contains("\r\nAuthorization: Token t0ken-2x\r\n"))
    }
}

/// The published form of a price, written out independently of the code under test: six decimals,
/// trailing zeros dropped.
enum DecimalFormatTruth {
    static func price(_ value: Double) -> String {
        var text = String(format: "%.6f", value)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }
}
