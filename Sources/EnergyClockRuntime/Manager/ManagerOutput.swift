import EnergyClockDomain

/// The manager's view of the outside world: it hands over state and answers, and knows nothing of MQTT.
public protocol ManagerOutput: Sendable {
    /// Shows `snapshot`; called after every change and at every slot boundary.
    func publish(_ snapshot: Snapshot) async
    /// Shows the snapshots of every profile, the first first; an output that sends them one by one
    /// need not implement it.
    func publish(all snapshots: [Snapshot]) async
    /// Shows what describes now of `snapshots` (a settings change's) and may owe the rest to
    /// ``catchUp(unless:)``, so that the colour leaves first and a change that comes meanwhile can go
    /// before the rest; an output that shows everything at once need not implement it.
    func publishCurrent(all snapshots: [Snapshot]) async
    /// Shows what ``publishCurrent(all:)`` owes, step by step, with the answers that wait for it;
    /// returns false as soon as `interrupted` is true between steps, true once nothing is owed.
    func catchUp(unless interrupted: @Sendable () -> Bool) async -> Bool
    /// The profile `name` was removed: whatever showed it is to go.
    func removed(profile name: String) async
    /// Answers one settings request; an output that owes the stages of a change answers after them.
    func report(_ outcome: SettingsOutcome) async
}

extension ManagerOutput {
    /// Shows each snapshot in turn.
    public func publish(all snapshots: [Snapshot]) async {
        for snapshot in snapshots { await publish(snapshot) }
    }

    /// Shows everything at once, with ``publish(all:)``.
    public func publishCurrent(all snapshots: [Snapshot]) async { await publish(all: snapshots) }

    /// Nothing is owed.
    public func catchUp(unless interrupted: @Sendable () -> Bool) async -> Bool { true }
}
