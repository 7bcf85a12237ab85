import EnergyClockTesting
import Foundation
import Synchronization
import Testing

@testable import EnergyClockDomain
@testable import EnergyClockRuntime
@testable import EnergyClockSources
@testable import EnergyClockStore
@testable import EnergyClockSupport

/// An output that shows the rest of every settings change later, as the MQTT publisher does, and
/// notes each call; while it shows the first change, `meanwhile` runs, as a message read then.
private actor OwingOutput: ManagerOutput {
    var calls: [String] = []
    var meanwhile: (@Sendable () -> String)?

    func setMeanwhile(_ body: @escaping @Sendable () -> String) { meanwhile = body }
    func publish(_ snapshot: Snapshot) { calls.append("whole \(snapshot.settings.historyDays)") }
    func publishCurrent(all snapshots: [Snapshot]) {
        calls.append("now \(snapshots.map { String($0.settings.historyDays) }.joined())")
        if let meanwhile {
            self.meanwhile = nil
            calls.append(meanwhile())
        }
    }
    func removed(profile name: String) {}
    func report(_ outcome: SettingsOutcome) { calls.append((try? outcome.result.get()).map { "answer \($0.historyDays)" } ?? "refused") }
}

@Suite struct SettingsCatchUpTests {
    /// A manager over a fresh store whose output owes, as the MQTT publisher does.
    private func owingManager() throws -> (PriceManager, OwingOutput) {
        let output = OwingOutput()
        let manager = try PriceManager(
            configuration: .init(calendar: amsterdam), store: try PriceStore(directory: temporaryDirectory()),
            catalog: SourceCatalog([MemorySource()]), clock: ManualClock(start: at("2025-12-17T10:00:00+01:00")),
            output: output, logger: Logger(label: "test", level: .error, handler: StandardErrorLogHandler()), jitter: { 0 })
        return (manager, output)
    }

    @Test func aRequestThatComesWhileAChangeIsShownWaitsVisiblyAndIsAppliedNext() async throws {
        let (manager, output) = try owingManager()
        await output.setMeanwhile {
            let before = manager.hasSubmitted
            manager.submit(request(#"{"history_days":9}"#))
            return "waiting \(before) → \(manager.hasSubmitted)"
        }
        let applying = Task { await manager.applySubmitted() }
        defer { applying.cancel() }
        manager.submit(request(#"{"history_days":8}"#))
        let expected = ["now 8", "waiting false → true", "answer 8", "now 9", "answer 9"]
        for _ in 0..<2000 where await output.calls.count < expected.count { try await Task.sleep(for: .milliseconds(2)) }
        #expect(await output.calls == expected)
        #expect(await manager.settings.historyDays == 9)
    }

    @Test func applyCalledDirectlyShowsEverythingAtOnce() async throws {
        let (manager, output) = try owingManager()
        await manager.apply([request(#"{"history_days":8}"#)])
        #expect(await output.calls == ["whole 8", "answer 8"])
    }
}
