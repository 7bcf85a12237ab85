import EnergyClockDomain
import EnergyClockPublisher
import EnergyClockRuntime
import EnergyClockSources
import EnergyClockStore
import EnergyClockSupport
import EnergyClockTesting
import Foundation
import MQTTClient

/// A whole energyclock service against a real broker and a loopback price API, on a test clock.
final class ServiceHarness: Sendable {
    let broker: TestBroker
    let http: TestHTTPServer
    let clock: ManualClock
    let stateDirectory: URL
    let service: EnergyClockService
    let topics: TopicTree
    /// What the service logged, from info up; written to standard error too with `ENERGYCLOCK_TEST_LOG`.
    let log: CapturingLogHandler
    private let running: Task<Void, any Error>

    /// The bundled EnergyZero quarter-hour answer for 16–18 December 2025.
    static let quarterFixture: [UInt8] = fixture("electricity_quarter_response.json")

    init(
        broker: TestBroker, http: TestHTTPServer, clock: ManualClock, stateDirectory: URL = temporaryDirectory(),
        prefix: String = "energyclock", version: MQTTVersion = .v5, settings: [SettingsField: SettingValue] = [:],
        fetchTimeout: Double = 30, options: PublisherOptions = PublisherOptions(), allowRemoteURL: Bool = false,
        reconnectDelay: (min: Int, max: Int) = (1, 2), calendar: LocalCalendar = LocalCalendar(identifier: "Europe/Amsterdam")!
    ) throws {
        self.broker = broker
        self.http = http
        self.clock = clock
        self.stateDirectory = stateDirectory
        topics = TopicTree(prefix: prefix)
        let level = ProcessInfo.processInfo.environment["ENERGYCLOCK_TEST_LOG"].flatMap(LogLevel.init(rawValue:))
        let log = CapturingLogHandler(echo: level != nil)
        self.log = log
        let client = HTTPClient(timeout: fetchTimeout)
        // Every source and forecast provider of the registries, all at the loopback server.
        let catalog = SourceRegistry.catalog(
            baseURLs: Dictionary(
                uniqueKeysWithValues: (SourceRegistry.ids + ForecastRegistry.ids + CarbonRegistry.ids).map { ($0, http.baseURL) }),
            tokens: SourceTokens(entsoe: "test-token", tibber: "test-tibber-token"),
            http: client, ratesURL: http.baseURL.appendingPathComponent("eurofxref-daily.xml"))
        let mqtt = MQTTOptions(
            host: "127.0.0.1", port: broker.port, clientID: "energyclock-test-\(UUID().uuidString)", version: version,
            will: MQTTWill(topic: topics.status, payload: Array("offline".utf8)), reconnectDelay: reconnectDelay
        )
        var parts = EnergyClockService.Parts(
            mqtt: mqtt, topics: topics, catalog: catalog, manager: .init(calendar: calendar),
            stateDirectory: try StateDirectory(path: stateDirectory.path), clock: clock, publisher: options,
            logger: Logger(label: "test", level: level ?? .info, handler: log)
        )
        parts.overrides = settings.isEmpty ? nil : SettingsUpdate(SettingsPatch(settings))
        parts.jitter = { 0 }
        parts.allowRemoteURL = allowRemoteURL
        let service = try EnergyClockService(parts)
        self.service = service
        running = Task { try await service.run() }
    }

    /// Moves the test clock from one wake-up of the daemon to the next, never beyond `limit`, until
    /// `condition` holds: a fetch that was slow in real time (a loaded machine) is simply retried
    /// in test time. The clock moves only while the manager is settled (`PriceManager.isSettled`):
    /// while a fetch runs, the clock's task sleeps towards a boundary worked out before it, and the
    /// fetch's answer is to be seen at the instant it was asked for. Gives up after 60 s of real time.
    func advance(until condition: () -> Bool, limit: Date = .distantFuture) async -> Bool {
        let deadline = Date().addingTimeInterval(60)
        while !condition(), Date() < deadline {
            if await isSettled, let next = clock.nextDeadline, next <= limit { await clock.advance(to: next) }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return condition()
    }

    /// Whether the manager is settled: its fetches done and shown, and both its tasks asleep on the
    /// clock, the clock's towards the boundary they leave next (the sleeps are counted too: a task
    /// that is about to sleep has not told the clock its deadline yet).
    var isSettled: Bool {
        get async { await service.manager.isSettled && clock.sleeperCount >= 2 }
    }

    /// Returns once ``isSettled``; false after 60 s of real time.
    func settle() async -> Bool {
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            if await isSettled { return true }
            try? await Task.sleep(for: .milliseconds(2))
        }
        return false
    }

    /// Cancels the service, which shuts down as on SIGTERM.
    func stop() async {
        running.cancel()
        _ = await running.result
    }
}

/// A state directory whose saved settings take hourly `custom` prices of 0.05 EUR/kWh, from two
/// hours ago to two days ahead, from a file; so the binary, on the real clock, has a price now.
func stateWithCurrentPrices(_ change: (inout Settings) -> Void = { _ in }) throws -> URL {
    let state = temporaryDirectory()
    let file = state.appendingPathComponent("prices.json")
    let hour = Int((Date().timeIntervalSince1970 / 3600).rounded(.down)) * 3600
    try "[\((-2..<48).map { #"{"start":\#(hour + $0 * 3600),"price":0.05}"# }.joined(separator: ","))]"
        .write(to: file, atomically: true, encoding: .utf8)
    var settings = Settings.defaults
    settings.source = "custom"
    settings.customURL = file.absoluteString
    change(&settings)
    let store = try PriceStore(directory: state)
    try store.save(settings)
    store.close()
    return state
}

/// A price API that serves the quarter fixture for every request.
func fixtureServer() throws -> TestHTTPServer {
    try TestHTTPServer { _ in .json(ServiceHarness.quarterFixture) }
}

/// This process's environment without any `ENERGYCLOCK_` variable, plus `extra`: what a test hands the binary.
func daemonEnvironment(_ extra: [String: String] = [:]) -> [String: String] {
    ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("ENERGYCLOCK_") }.merging(extra) { $1 }
}

/// The `energyclock` binary on `broker` with EnergyZero unreachable, and a recorder of its `stale`
/// topic, returned once the first fetch has failed: the daemon then has nothing to do until the
/// retry 30 s later and the keepalive 60 s later.
func daemonSettledOnAFailedFetch(_ broker: TestBroker) async throws -> (ChildProcess, TopicRecorder) {
    let live = try await TopicRecorder(port: broker.port, filter: "energyclock/stale")
    let daemon = try ChildProcess(
        ProcessTests.binary,
        [
            "run", "--mqtt-host", "127.0.0.1", "--mqtt-port", "\(broker.port)", "--state-dir", temporaryDirectory().path,
            "--energyzero-url", "http://127.0.0.1:9",
        ], environment: daemonEnvironment())
    guard await live.wait(for: "energyclock/stale", { $0 == "true" }) != nil else {
        throw BrokerError("the daemon never published stale: \(daemon.log)")
    }
    return (daemon, live)
}
