import EnergyClockCore
import Foundation
import Synchronization

/// A price source backed by a list in memory, whose answers a test can change.
final class MemorySource: PriceSource {
    let id: String
    let answersIncludeNextDay: Bool
    private let state: Mutex<(slots: [PriceSlot], failing: Bool, requests: [LocalDay])>

    init(id: String = "energyzero", slots: [PriceSlot] = [], answersIncludeNextDay: Bool = false) {
        self.id = id
        self.answersIncludeNextDay = answersIncludeNextDay
        state = Mutex((slots, false, []))
    }

    var requests: [LocalDay] { state.withLock { $0.requests } }
    func set(_ slots: [PriceSlot]) { state.withLock { $0.slots = slots } }
    func fail(_ failing: Bool) { state.withLock { $0.failing = failing } }

    /// Answers like EnergyZero: the requested day with its neighbours.
    func fetch(day: LocalDay, calendar: LocalCalendar, settings: Settings) async throws(SourceError) -> [PriceSlot] {
        let (slots, failing) = state.withLock { s in
            s.requests.append(day)
            return (s.slots, s.failing)
        }
        if failing { throw SourceError(source: id, problem: .httpStatus(500, detail: "test failure")) }
        let span = DateInterval(start: calendar.start(of: day.adding(days: -1)), end: calendar.start(of: day.adding(days: 2)))
        return Array(slots.overlapping(span))
    }
}

/// Records what the manager hands to the outside world.
final class RecordingOutput: ManagerOutput {
    private let state = Mutex<(snapshots: [Snapshot], outcomes: [SettingsOutcome])>(([], []))

    var snapshots: [Snapshot] { state.withLock { $0.snapshots } }
    var outcomes: [SettingsOutcome] { state.withLock { $0.outcomes } }
    var last: Snapshot? { snapshots.last }

    func publish(_ snapshot: Snapshot) async { state.withLock { $0.snapshots.append(snapshot) } }
    func report(_ outcome: SettingsOutcome) async { state.withLock { $0.outcomes.append(outcome) } }

    /// Waits (on real time, briefly) until `condition` holds for the recorded state.
    func wait(timeout: Double = 20, until condition: (RecordingOutput) -> Bool) async -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if condition(self) { return true }
            try? await Task.sleep(for: .milliseconds(2))
        }
        return condition(self)
    }
}

/// A fresh state directory under the temporary folder.
func temporaryDirectory() -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("energyclock-test-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// Three local days of quarter-hour prices around `day`: price = hour-of-slot index / 100.
func quarterDays(around day: LocalDay, calendar: LocalCalendar = amsterdam, days: Int = 3) -> [PriceSlot] {
    let start = calendar.start(of: day.adding(days: -1))
    let end = calendar.start(of: day.adding(days: days - 1))
    let count = Int(end.timeIntervalSince(start) / 900)
    return slots(from: start, count: count, minutes: 15) { Double($0 / 4 % 24) / 100 }
}

/// A manager with a memory source and recording output over a fresh store.
func makeManager(
    clock: ManualClock, source: MemorySource, others: [MemorySource] = [], directory: URL = temporaryDirectory(),
    policy: RefreshSchedule.Policy = .init()
) throws -> (PriceManager, RecordingOutput) {
    let output = RecordingOutput()
    let manager = try PriceManager(
        configuration: .init(calendar: amsterdam, policy: policy),
        store: try PriceStore(directory: directory), catalog: SourceCatalog([source] + others), clock: clock,
        output: output, logger: Logger(label: "test", level: .error), jitter: { 0 }
    )
    return (manager, output)
}

/// Starts `manager.run()` and waits until it sleeps on the clock.
func start(_ manager: PriceManager, _ clock: ManualClock) async -> Task<Void, any Error> {
    let task = Task { try await manager.run() }
    await settle(clock)
    return task
}

/// Waits (briefly, in real time) until the run loop is asleep on the clock again.
func settle(_ clock: ManualClock) async {
    let deadline = Date().addingTimeInterval(5)
    while clock.sleeperCount == 0, Date() < deadline { try? await Task.sleep(for: .milliseconds(1)) }
}

/// A settings request parsed from a JSON object.
func request(_ json: String, sources: [String] = ["energyzero"]) -> SettingsRequest {
    SettingsRequest(patch: Result { () throws(SettingsError) in try SettingsPatch.parse(object: Array(json.utf8), sources: sources) })
}
