/// The manager's view of the outside world: it hands over state and answers, and knows nothing of MQTT.
public protocol ManagerOutput: Sendable {
    /// Shows `snapshot`; called after every change and at every slot boundary.
    func publish(_ snapshot: Snapshot) async
    /// Answers one settings request.
    func report(_ outcome: SettingsOutcome) async
}
