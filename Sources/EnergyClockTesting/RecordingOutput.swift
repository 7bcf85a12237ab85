import EnergyClockDomain
import EnergyClockRuntime
import EnergyClockSupport
import Foundation
import Synchronization

/// Records what the manager hands to the outside world.
package final class RecordingOutput: ManagerOutput {
    package init() {}

    private let state = Mutex<(snapshots: [Snapshot], outcomes: [SettingsOutcome], removed: [String])>(([], [], []))

    package var snapshots: [Snapshot] { state.withLock { $0.snapshots } }
    package var outcomes: [SettingsOutcome] { state.withLock { $0.outcomes } }
    package var last: Snapshot? { snapshots.last { $0.profile == Profiles.firstName } }
    /// The newest snapshot of the profile `name`.
    package func last(of name: String) -> Snapshot? { snapshots.last { $0.profile == name } }
    /// The profiles removed, in order.
    package var removed: [String] { state.withLock { $0.removed } }

    package func publish(_ snapshot: Snapshot) async { state.withLock { $0.snapshots.append(snapshot) } }
    package func removed(profile name: String) async { state.withLock { $0.removed.append(name) } }
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

/// A log handler that keeps every line, for tests that check what was logged; with `echo` it
/// also writes them to standard error as the daemon would.
package final class CapturingLogHandler: LogHandler {
    /// One logged message.
    package struct Line: Sendable, Equatable {
        package var severity: LogLevel
        package var label: String
        package var message: String
        /// When it was logged, for the message of a failed test.
        package var time = Date()
    }

    private let lines = Mutex<[Line]>([])
    private let echo: Bool

    /// A handler that keeps what it is given.
    package init(echo: Bool = false) {
        self.echo = echo
    }

    /// Keeps the line, and writes it on with `echo`.
    package func log(_ severity: LogLevel, label: String, message: String) {
        lines.withLock { $0.append(Line(severity: severity, label: label, message: message)) }
        if echo { StandardErrorLogHandler().log(severity, label: label, message: message) }
    }

    /// Every line so far.
    package var logged: [Line] { lines.withLock { $0 } }

    /// The messages so far at `severity` or above.
    package func messages(atLeast severity: LogLevel) -> [String] {
        logged.filter { $0.severity >= severity }.map(\.message)
    }
}
