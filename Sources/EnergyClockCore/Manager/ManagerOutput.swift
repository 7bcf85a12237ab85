/// The manager's view of the outside world: it hands over state and answers, and knows nothing of MQTT.
public protocol ManagerOutput: Sendable {
    /// Shows `snapshot`; called after every change and at every slot boundary.
    func publish(_ snapshot: Snapshot) async
    /// Shows the snapshots of every profile, the first first; an output that sends them one by one
    /// need not implement it.
    func publish(all snapshots: [Snapshot]) async
    /// The profile `name` was removed: whatever showed it is to go.
    func removed(profile name: String) async
    /// Answers one settings request.
    func report(_ outcome: SettingsOutcome) async
}

extension ManagerOutput {
    /// Shows each snapshot in turn.
    public func publish(all snapshots: [Snapshot]) async {
        for snapshot in snapshots { await publish(snapshot) }
    }
}
