import EnergyClockTesting
import Foundation
import Synchronization
import Testing

@testable import EnergyClockDomain
@testable import EnergyClockRuntime
@testable import EnergyClockSources
@testable import EnergyClockStore
@testable import EnergyClockSupport

/// An output that owes the rest of every settings change, as the MQTT publisher does, and notes
/// each call; its first catch-up hands the manager another request, as a message read meanwhile.
private actor OwingOutput: ManagerOutput {
    var calls: [String] = []
    var owed = false
    var meanwhile: (@Sendable () -> Void)?

    func setMeanwhile(_ body: @escaping @Sendable () -> Void) { meanwhile = body }
    func publish(_ snapshot: Snapshot) { calls.append("whole \(snapshot.settings.historyDays)") }
    func publishCurrent(all snapshots: [Snapshot]) {
        calls.append("now \(snapshots.map { String($0.settings.historyDays) }.joined())")
        owed = true
    }
    func catchUp(unless interrupted: @Sendable () -> Bool) async -> Bool {
        guard owed else { return true }
        if let meanwhile {
            self.meanwhile = nil
            meanwhile()
        }
        if interrupted() {
            calls.append("gave way")
            return false
        }
        owed = false
        calls.append("caught up")
        return true
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

    @Test func aRequestThatComesDuringTheCatchUpIsAppliedBeforeItGoesOn() async throws {
        let (manager, output) = try owingManager()
        await output.setMeanwhile { manager.submit(request(#"{"history_days":9}"#)) }
        let applying = Task { await manager.applySubmitted() }
        defer { applying.cancel() }
        manager.submit(request(#"{"history_days":8}"#))
        let expected = ["now 8", "answer 8", "gave way", "now 9", "answer 9", "caught up"]
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
