import EnergyClockDomain
import EnergyClockTesting
import Foundation
import MQTTClient
import Synchronization
import Testing

/// Secrets stay secret: not in any log line at debug level, any topic, `settings`, an error or
/// `--help`, even when a server echoes them back.
@Suite(.timeLimit(.minutes(1)))
struct SecretsTests {
    static let mqttPassword = "mqtt-Pa55-7Qx"
    static let entsoeToken = "entsoe-T0ken-4f9a"
    static let influxToken = "influx-T0ken-b81c"
    static let influxPassword = "influx-Pa55-e2d7"
    static var all: [String] { [mqttPassword, entsoeToken, influxToken, influxPassword] }

    @Test func noSecretReachesALogATopicOrTheHelp() async throws {
        let directory = temporaryDirectory()
        let passwords = directory.appendingPathComponent("passwd").path
        let maker = try ChildProcess("/usr/bin/mosquitto_passwd", ["-c", "-b", passwords, "clock", Self.mqttPassword])
        #expect(await maker.waitForExit(timeout: 10) == 0)
        chmod(passwords, 0o644)
        chmod(directory.path, 0o755)
        let broker = try await TestBroker.start(extraConfig: "password_file \(passwords)")

        // ENTSO-E fails twice, quoting the request and the token as some servers do, then heals;
        // InfluxDB refuses once, quoting the credentials.
        let entsoeCalls = Atomic(0)
        let influxCalls = Atomic(0)
        let http = try TestHTTPServer { target in
            if target.contains("securityToken") {
                guard entsoeCalls.add(1, ordering: .relaxed).newValue > 2 else {
                    let ack = """
                        <?xml version="1.0" encoding="UTF-8"?><Acknowledgement_MarketDocument xmlns="urn:iec62325.351:tc57wg16:451-1:acknowledgementdocument:7:0">
                        <mRID>1</mRID><Reason><code>B11</code><text>Bad request \(target.replacingOccurrences(of: "&", with: "&amp;")) with token \(Self.entsoeToken)</text></Reason></Acknowledgement_MarketDocument>
                        """
                    return TestHTTPServer.Response(status: 400, contentType: "text/xml", body: Array(ack.utf8))
                }
                // The recorded day, moved to yesterday: slots far from now are refused as broken.
                let day = { (offset: Double) in String(ISO8601DateFormatter().string(from: Date(timeIntervalSinceNow: offset)).prefix(10)) }
                let moved = String(decoding: fixture("BE_60M.xml"), as: UTF8.self)
                    .replacingOccurrences(of: "2024-10-07T22:00Z", with: day(-2 * 86_400) + "T22:00Z")
                    .replacingOccurrences(of: "2024-10-08T22:00Z", with: day(-86_400) + "T22:00Z")
                return TestHTTPServer.Response(contentType: "text/xml", body: Array(moved.utf8))
            }
            if target.contains("write") {
                guard influxCalls.add(1, ordering: .relaxed).newValue > 2 else {
                    // Each writer's own credential, quoted back.
                    let credential = target.hasPrefix("/api/v2") ? Self.influxToken : Self.influxPassword
                    return TestHTTPServer.Response(status: 401, contentType: "text/plain", body: Array("unauthorized: \(credential)".utf8))
                }
                return TestHTTPServer.Response(status: 204, body: [])
            }
            return TestHTTPServer.Response(status: 404)
        }

        // ENTSO-E chosen, a price list of the user's own for now as the fallback.
        func preparedState() throws -> URL {
            try stateWithCurrentPrices { settings in
                settings.source = "entsoe"
                settings.fallbackSources = ["custom"]
            }
        }

        var env = daemonEnvironment()
        env["ENERGYCLOCK_ENTSOE_TOKEN"] = Self.entsoeToken
        env["ENERGYCLOCK_INFLUX_TOKEN"] = Self.influxToken
        env["ENERGYCLOCK_INFLUX_PASSWORD"] = Self.influxPassword
        let live = try await TopicRecorder(port: broker.port, filter: "#")
        let common = [
            "run", "--mqtt-host", "127.0.0.1", "--mqtt-port", "\(broker.port)", "--mqtt-username", "clock", "--log-level", "debug",
            "--entsoe-url", http.baseURL.absoluteString, "--energyzero-url", "http://127.0.0.1:9",
        ]

        // A refused login, with InfluxDB 1.x credentials that the server echoes.
        env["ENERGYCLOCK_MQTT_PASSWORD"] = "not-\(Self.mqttPassword)"
        let refused = try ChildProcess(
            ProcessTests.binary,
            common + [
                "--state-dir", try preparedState().path, "--influx-url", http.baseURL.absoluteString + "/write?db=energy",
                "--influx-username", "u",
            ], environment: env.filter { $0.key != "ENERGYCLOCK_INFLUX_TOKEN" })
        // The daemon that gets in: the failing and healed source, the refused and accepted InfluxDB writes.
        env["ENERGYCLOCK_MQTT_PASSWORD"] = Self.mqttPassword
        let daemon = try ChildProcess(
            ProcessTests.binary,
            common + [
                "--state-dir", try preparedState().path, "--influx-url", http.baseURL.absoluteString + "/api/v2/write?org=o&bucket=b",
            ], environment: env)
        let deadline = Date().addingTimeInterval(40)
        while Date() < deadline,
            !(entsoeCalls.load(ordering: .relaxed) > 2 && daemon.log.contains("InfluxDB answered HTTP 401")
                && refused.log.contains("InfluxDB answered HTTP 401"))
        {
            try live.client.publish("energyclock/refresh", "now")
            try await Task.sleep(for: .milliseconds(500))
        }
        #expect(daemon.log.contains("fetch failed: entsoe: HTTP 400: acknowledgement B11"), "\(daemon.log)")
        #expect(daemon.log.contains("[redacted]"))
        #expect(daemon.log.contains("fetched"), "the source healed: \(daemon.log)")
        #expect(daemon.log.contains("InfluxDB answered HTTP 401"), "\(daemon.log)")
        #expect(refused.log.contains("refused the connection"))
        #expect(live.all("energyclock/price").contains { !$0.isEmpty }, "the fallback served a price")
        let help = try ChildProcess(ProcessTests.binary, ["run", "--help"], environment: env)
        #expect(await help.waitForExit(timeout: 10) == 0)

        for process in [daemon, refused] {
            process.signal(SIGTERM)
            #expect(await process.waitForExit(timeout: 20) == 0, "\(process.log.suffix(3000))")
        }
        let published = live.messages.map { "\($0.topic) \($0.text)" }.joined(separator: "\n")
        for secret in Self.all {
            for (name, text) in [("daemon", daemon.log), ("refused", refused.log), ("help", help.log), ("topics", published)] {
                #expect(!text.contains(secret), "\(secret) in \(name)")
            }
        }
        await live.stop()
    }

    @Test func aTokenOfAnyBytesIsSentStrictlyEncodedAndNeverShownInAnyForm() async throws {
        let token = "Tk+/x=y&z~ä 1-secret"
        let encoded = QueryString.component(token)
        // The server quotes the request as it came (the exact bytes sent), decoded, escaped for
        // JSON and for HTML, and cut short.
        let http = try TestHTTPServer { target in
            let decoded = URLRedaction.percentDecoded(target)
            let json = decoded.replacingOccurrences(of: "/", with: "\\/").replacingOccurrences(of: "&", with: "\\u0026")
            let html = decoded.replacingOccurrences(of: "&", with: "&amp;amp;").replacingOccurrences(of: "+", with: "&amp;#43;")
            let ack = """
                <?xml version="1.0" encoding="UTF-8"?><Acknowledgement_MarketDocument xmlns="urn:iec62325.351:tc57wg16:451-1:acknowledgementdocument:7:0">
                <mRID>1</mRID><Reason><code>B11</code><text>\(target.replacingOccurrences(of: "&", with: "&amp;")) | \(json.replacingOccurrences(of: "&", with: "&amp;")) | \(html) | \(String(repeating: ".", count: 150))\(target.replacingOccurrences(of: "&", with: "&amp;"))</text></Reason></Acknowledgement_MarketDocument>
                """
            return TestHTTPServer.Response(status: 400, contentType: "text/xml", body: Array(ack.utf8))
        }
        var env = daemonEnvironment()
        env["ENERGYCLOCK_ENTSOE_TOKEN"] = token
        let prices = try ChildProcess(
            ProcessTests.binary,
            [
                "prices", "--json", "--source", "entsoe", "--entsoe-url", http.baseURL.absoluteString, "--state-dir",
                temporaryDirectory().path,
            ],
            environment: env)
        #expect(await prices.waitForExit(timeout: 20) == 1, "\(prices.log)")
        let sent = try #require(http.requests.first)
        #expect(sent.contains("securityToken=\(encoded)&"), "sent strictly encoded: \(sent)")
        #expect(prices.log.contains("acknowledgement B11") && prices.log.contains("[redacted]"), "\(prices.log)")
        for form in [token, encoded, "Tk+/x", "Tk%2B", "Tk%2b", #"Tk+\/x"#, "Tk&amp;#43;", "secret"] {
            #expect(!prices.log.contains(form), "\(form) in \(prices.log)")
        }
    }
}
