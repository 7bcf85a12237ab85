import EnergyClockDomain
import EnergyClockRuntime
import EnergyClockSources
import EnergyClockStore
import EnergyClockSupport
import EnergyClockTesting
import Foundation
import Synchronization
import Testing

/// A manager with a memory source and recording output over a fresh store.
func makeManager(
    clock: ManualClock, source: MemorySource, others: [MemorySource] = [], directory: URL = temporaryDirectory(),
    policy: RefreshSchedule.Policy = .init(), output: RecordingOutput = RecordingOutput(),
    logger: Logger = Logger(label: "test", level: .error, handler: StandardErrorLogHandler())
) throws -> (PriceManager, RecordingOutput) {
    let manager = try PriceManager(
        configuration: .init(calendar: amsterdam, policy: policy),
        store: try PriceStore(directory: directory), catalog: SourceCatalog([source] + others), clock: clock,
        output: output, logger: logger, jitter: { 0 }
    )
    return (manager, output)
}

/// Starts `manager.run()` and waits until it is settled.
func start(_ manager: PriceManager, _ clock: ManualClock) async -> Task<Void, any Error> {
    let task = Task { try await manager.run() }
    await settle(clock, manager)
    return task
}

/// Returns once the manager is settled (both its tasks asleep on the clock, the clock's knowing of
/// every change: see `PriceManager.isSettled`), or after a minute of real time.
///
/// A minute, not the clock's default 20 s: under the whole suite on two cores the tasks of other
/// suites hold the cooperative threads for the first 10-20 s, and a manager started then fell
/// asleep only after that wait had run out (twice in about a dozen runs).
func settle(_ clock: ManualClock, _ manager: PriceManager) async {
    let deadline = Date().addingTimeInterval(60)
    while Date() < deadline {
        if await manager.isSettled, clock.sleeperCount >= 2 { return }
        try? await Task.sleep(for: .milliseconds(1))
    }
    Issue.record("the manager did not settle within a minute")
}

/// A settings request parsed from a JSON object for the first profile's `settings/set`.
func request(_ json: String, sources: [String] = ["energyzero"]) -> SettingsRequest {
    SettingsRequest(update: Result { () throws(SettingsError) in try SettingsUpdate.parse(object: Array(json.utf8), sources: sources) })
}

/// The snapshot derived afresh at the instant `output` last showed, from every slot `source` has
/// and the first profile's settings: what a boundary or a change must show, however it got there.
func derivedAfresh(_ output: RecordingOutput, _ manager: PriceManager, _ source: MemorySource) async throws -> Snapshot {
    let shown = try #require(output.last)
    return Snapshot.derive(
        now: shown.now, calendar: amsterdam, settings: await manager.settings, slots: source.slots.stamped(.official(source.id)),
        source: shown.source,
        stale: shown.stale, updatedAt: shown.updatedAt)
}
