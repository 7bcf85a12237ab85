import EnergyClockDomain
import EnergyClockRuntime
import EnergyClockTesting
import Foundation
import Synchronization
import Testing

@Suite struct SettingsFoldTests {
    @Test func burstFoldsIntoOneCommitAndOnePublishWithAResultEach() async throws {
        let directory = temporaryDirectory()
        let clock = ManualClock(start: at("2025-12-17T10:00:00+01:00"))
        let (manager, output) = try makeManager(clock: clock, source: MemorySource(), directory: directory)
        let burst = [
            request(#"{"green_max":0.15}"#),
            request(#"{"yellow_max":0.1}"#),  // invalid against the state before it
            request(#"{"history_days":"x"}"#),  // invalid type
            request(#"{"yellow_max":0.25,"orange_max":0.35}"#),
            request(#"{"green_max":0.2}"#),  // valid only because of the one before
        ]
        await manager.apply(burst)
        #expect(await output.wait { $0.outcomes.count == 5 })
        #expect(output.snapshots.count == 1)
        let oks = output.outcomes.map { (try? $0.result.get()) != nil }
        #expect(oks == [true, false, false, true, true])
        let final = Thresholds(greenMax: 0.2, yellowMax: 0.25, orangeMax: 0.35)
        #expect(await manager.settings.thresholds == final)
        #expect(output.snapshots.first?.settings.thresholds == final)
        guard case let .failure(error) = output.outcomes[1].result else {
            Issue.record("expected a failure")
            return
        }
        #expect(error == .thresholdsNotIncreasing(green: 0.15, yellow: 0.1, orange: 0.3))

        // Committed durably: a new manager on the same store starts with it.
        await manager.close()
        let (reopened, _) = try makeManager(clock: clock, source: MemorySource(), directory: directory)
        #expect(await reopened.settings.thresholds == final)
    }

    @Test func anAllInvalidBurstChangesAndPublishesNothing() async throws {
        let clock = ManualClock(start: at("2025-12-17T10:00:00+01:00"))
        let (manager, output) = try makeManager(clock: clock, source: MemorySource())
        await manager.apply([request(#"{"green_max":1}"#), request("nonsense")])
        #expect(await output.wait { $0.outcomes.count == 2 })
        #expect(output.snapshots.isEmpty)
        #expect(await manager.settings == .defaults)
        #expect(
            output.outcomes.map(\.json) == [
                #"{"ok":false,"error":"thresholds must increase strictly: green_max 1 < yellow_max 0.2 < orange_max 0.3 does not hold"}"#,
                #"{"ok":false,"error":"payload is not valid JSON"}"#,
            ])
    }

    @Test func aChangeIsLoggedAfterItIsPublished() async throws {
        let clock = ManualClock(start: at("2025-12-17T10:00:00+01:00"))
        let output = RecordingOutput()
        let logs = PublishedWhenLogged(output: output)
        let (manager, _) = try makeManager(
            clock: clock, source: MemorySource(), output: output, logger: Logger(label: "test", level: .info, handler: logs))
        await manager.apply([request(#"{"green_max":0.15}"#)])
        let changed = logs.lines.filter { $0.message.hasPrefix("settings changed: ") }
        #expect(changed.map(\.message) == ["settings changed: \(await manager.settings.shownJSON)"])
        // The line is the whole settings object: written while the change waits to be shown, it
        // delayed the change's colour by a write to the log.
        #expect(changed.map(\.published) == [1])
    }
}

/// Keeps each line with how many snapshots `output` had been shown when it was logged.
private final class PublishedWhenLogged: LogHandler {
    struct Line { var message: String, published: Int }
    let output: RecordingOutput
    private let kept = Mutex<[Line]>([])
    init(output: RecordingOutput) { self.output = output }
    var lines: [Line] { kept.withLock { $0 } }
    func log(_ severity: LogLevel, label: String, message: String) {
        let published = output.snapshots.count
        kept.withLock { $0.append(Line(message: message, published: published)) }
    }
}
