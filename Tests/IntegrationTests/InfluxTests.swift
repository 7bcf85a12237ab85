import EnergyClockDomain
import EnergyClockPublisher
import EnergyClockSources
import EnergyClockSupport
import EnergyClockTesting
import Foundation
import Testing

/// A real InfluxDB 1.x (Debian's `influxd`) on loopback.
final class TestInflux: Sendable {
    let port: Int
    private let process: ChildProcess

    static func start() async throws -> TestInflux {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/influxd") else {
            throw BrokerError("influxd is not installed (apt-get install influxdb)")
        }
        let directory = temporaryDirectory()
        for _ in 0..<5 {
            let http = try TestBroker.freePort()
            let rpc = try TestBroker.freePort()
            let config = directory.appendingPathComponent("influxdb.conf")
            try """
            reporting-disabled = true
            bind-address = "127.0.0.1:\(rpc)"
            [meta]
              dir = "\(directory.path)/meta"
            [data]
              dir = "\(directory.path)/data"
              wal-dir = "\(directory.path)/wal"
              query-log-enabled = false
            [http]
              bind-address = "127.0.0.1:\(http)"
              log-enabled = false
            [monitor]
              store-enabled = false
            """.write(to: config, atomically: true, encoding: .utf8)
            let process = try ChildProcess("/usr/bin/influxd", ["-config", config.path])
            let influx = TestInflux(port: http, process: process)
            let deadline = Date().addingTimeInterval(30)
            while Date() < deadline {
                if let ping = try? await HTTPClient(timeout: 1).get(influx.url("/ping")), ping.status == 204 {
                    return influx
                }
                guard process.isRunning else { break }
                try await Task.sleep(for: .milliseconds(20))
            }
            process.kill()
        }
        throw BrokerError("influxd did not start")
    }

    private init(port: Int, process: ChildProcess) {
        self.port = port
        self.process = process
    }

    func url(_ path: String) -> URL { URL(string: "http://127.0.0.1:\(port)\(path)")! }

    /// Runs an InfluxQL statement and returns the decoded JSON answer.
    func query(_ q: String, db: String? = nil) async throws -> [String: Any] {
        var components = URLComponents(url: url("/query"), resolvingAgainstBaseURL: false)!
        components.queryItems = [URLQueryItem(name: "q", value: q)] + (db.map { [URLQueryItem(name: "db", value: $0)] } ?? [])
        let response = try await HTTPClient(timeout: 5).post(components.url!, body: [], headers: [])
        return try #require(object(String(decoding: response.body, as: UTF8.self)))
    }

    /// The rows of a `SELECT`, as column name → value.
    func rows(_ q: String, db: String) async throws -> [[String: Any]] {
        let answer = try await query(q, db: db)
        guard let result = (answer["results"] as? [[String: Any]])?.first,
            let series = (result["series"] as? [[String: Any]])?.first,
            let columns = series["columns"] as? [String], let values = series["values"] as? [[Any]]
        else { return [] }
        return values.map { Dictionary(uniqueKeysWithValues: zip(columns, $0)) }
    }
}

@Suite(.timeLimit(.minutes(1)))
struct InfluxTests {
    @Test func escapingFollowsTheLineProtocol() {
        #expect(LineProtocol.measurement("energy price,x") == #"energy\ price\,x"#)
        #expect(LineProtocol.key("a=b, c") == #"a\=b\,\ c"#)
        #expect(LineProtocol.string(#"say "hi" \ bye"#) == #""say \"hi\" \\ bye""#)
        let line = LineProtocol.line(
            measurement: "m", tags: [("zone", "IT North,=1"), ("empty", "")], fields: [("f", "1.5")],
            time: Date(timeIntervalSince1970: 1.5))
        #expect(line == #"m,zone=IT\ North\,\=1 f=1.5 1500000000"#)
        // A CR LF is one Character in Swift, and each of its bytes still becomes an escaped space;
        // the bytes of a character beyond ASCII pass unchanged.
        #expect(LineProtocol.key("Zürich\r\nSüd") == #"Zürich\ \ Süd"#)
        #expect(LineProtocol.string("a\r\nb\n\"c\"") == #""a  b \"c\"""#)
        #expect(LineProtocol.measurement("plain") == "plain")
        // An instant beyond what nanoseconds in an Int64 hold is clamped, and no time at all is 0.
        let far = LineProtocol.line(
            measurement: "m", tags: [], fields: [("f", "1"), ("g", "2i")], time: Date(timeIntervalSince1970: 1e300))
        #expect(far == "m f=1,g=2i 9200000000000000000")
        let none = LineProtocol.line(measurement: "m", tags: [("t", "x")], fields: [("f", "1")], time: Date(timeIntervalSince1970: .nan))
        #expect(none == "m,t=x f=1 0")
    }

    @Test func linesWrittenByTheDaemonAreQueryable() async throws {
        let influx = try await TestInflux.start()
        _ = try await influx.query("CREATE DATABASE energy")
        let writer = InfluxWriter(
            target: .init(url: influx.url("/write?db=energy"), authorization: nil),
            logger: Logger(label: "influx", level: .error, handler: StandardErrorLogHandler()))
        let broker = try await TestBroker.start()
        let harness = try ServiceHarness(
            broker: broker, http: try fixtureServer(), clock: ManualClock(start: at("2025-12-17T10:20:00+01:00")),
            options: PublisherOptions(influx: writer))
        // An odd tag value, written the same way, must come back intact.
        await writer.enqueue([
            LineProtocol.line(
                measurement: "odd test", tags: [("zone", "IT North,=1")], fields: [("v", "2")],
                time: Date(timeIntervalSince1970: 1_700_000_000))
        ])
        var rows: [[String: Any]] = []
        for _ in 0..<250 where rows.isEmpty {
            rows = try await influx.rows("SELECT price, market_price, band, source, green_max FROM energy_price", db: "energy")
            if rows.isEmpty { try await Task.sleep(for: .milliseconds(20)) }
        }
        let row = try #require(rows.first)
        let market = FixtureTruth.hourMean(at("2025-12-17T09:00:00Z"))
        #expect(abs((row["market_price"] as! Double) - market) < 5e-7)
        #expect(abs((row["price"] as! Double) - market * 1.21) < 5e-7)
        #expect(row["source"] as? String == "energyzero")
        #expect(row["green_max"] as? Double == 0.1)
        #expect(row["time"] as? String == "2025-12-17T09:00:00Z")
        let odd = try await influx.rows(#"SELECT * FROM "odd test""#, db: "energy")
        #expect(odd.first?["zone"] as? String == "IT North,=1")
        #expect(await writer.pending == 0)
        await harness.stop()
    }

    @Test func aFailingInfluxDBNeverStopsMQTTAndKeepsABoundedBuffer() async throws {
        let port = try TestBroker.freePort()
        let writer = InfluxWriter(
            target: .init(url: URL(string: "http://127.0.0.1:\(port)/write?db=x")!, authorization: nil),
            http: HTTPClient(timeout: 1), capacity: 3, logger: Logger(label: "influx", level: .error, handler: StandardErrorLogHandler()))
        let broker = try await TestBroker.start()
        let clock = ManualClock(start: at("2025-12-17T10:20:00+01:00"))
        let harness = try ServiceHarness(broker: broker, http: try fixtureServer(), clock: clock, options: PublisherOptions(influx: writer))
        let live = try await TopicRecorder(port: broker.port, filter: "energyclock/#")
        #expect(await live.wait(for: "energyclock/price") { !$0.isEmpty } != nil)
        await writer.enqueue((0..<10).map { "m v=\($0) \($0)" })
        #expect(await writer.pending <= 3)
        // Slots keep changing on time while the writes fail.
        #expect(await clock.waitForSleeper(until: at("2025-12-17T10:30:00+01:00")))  // The next quarter boundary.
        await clock.advance(to: at("2025-12-17T11:00:00+01:00"))
        #expect(await live.wait(for: "energyclock/current") { (object($0)?["start"] as? String)?.contains("T11:00") == true } != nil)
        await live.stop()
        await harness.stop()
    }
}
