import EnergyClockDomain

/// The manager's view of the outside world: it hands over state and answers, and knows nothing of MQTT.
public protocol ManagerOutput: Sendable {
    /// Shows `snapshot`; called after every change and at every slot boundary.
    func publish(_ snapshot: Snapshot) async
    /// Shows the snapshots of every profile, the first first; an output that sends them one by one
    /// need not implement it.
    func publish(all snapshots: [Snapshot]) async
    /// Shows what describes now of `snapshots` (a settings change's) and may show the rest later,
    /// in its own time, so that the colour leaves first and a change that comes meanwhile can go
    /// before the rest; an output that shows everything at once need not implement it.
    func publishCurrent(all snapshots: [Snapshot]) async
    /// The profile `name` was removed: whatever showed it is to go.
    func removed(profile name: String) async
    /// Answers one settings request; an output that still owes the rest of a change answers after it.
    func report(_ outcome: SettingsOutcome) async
}

extension ManagerOutput {
    /// Shows each snapshot in turn.
    public func publish(all snapshots: [Snapshot]) async {
        for snapshot in snapshots { await publish(snapshot) }
    }

    /// Shows everything at once, with ``publish(all:)``.
    public func publishCurrent(all snapshots: [Snapshot]) async { await publish(all: snapshots) }
}
