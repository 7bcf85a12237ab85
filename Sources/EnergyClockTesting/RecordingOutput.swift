import EnergyClockCore
import Foundation
import Synchronization

/// Records what the manager hands to the outside world.
package final class RecordingOutput: ManagerOutput {
    package init() {}

    private let state = Mutex<(snapshots: [Snapshot], outcomes: [SettingsOutcome])>(([], []))

    package var snapshots: [Snapshot] { state.withLock { $0.snapshots } }
    package var outcomes: [SettingsOutcome] { state.withLock { $0.outcomes } }
    package var last: Snapshot? { snapshots.last }

    package func publish(_ snapshot: Snapshot) async { state.withLock { $0.snapshots.append(snapshot) } }
    package func report(_ outcome: SettingsOutcome) async { state.withLock { $0.outcomes.append(outcome) } }

    /// Waits (on real time, briefly) until `condition` holds for the recorded state.
    package func wait(timeout: Double = 20, until condition: (RecordingOutput) -> Bool) async -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if condition(self) { return true }
            try? await Task.sleep(for: .milliseconds(2))
        }
        return condition(self)
    }
}
