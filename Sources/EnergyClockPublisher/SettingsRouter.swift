import EnergyClockCore
import MQTTClient

/// Turns a message on a settings topic into a request for the manager.
public struct SettingsRouter: Sendable {
    /// The topic tree in use.
    public var topics: TopicTree
    /// Source ids users may choose.
    public var sources: [String]
    /// Whether `custom_url` may be changed over MQTT (`--allow-remote-url`).
    public var allowRemoteURL: Bool

    /// A router for `topics` accepting `sources`.
    public init(topics: TopicTree, sources: [String], allowRemoteURL: Bool = false) {
        self.topics = topics
        self.sources = sources
        self.allowRemoteURL = allowRemoteURL
    }

    /// The request `message` carries, or nil when it is not a settings command.
    public func request(from message: MQTTMessage) -> SettingsRequest? {
        guard let command = topics.settingsCommand(message.topic) else { return nil }
        let reply = message.responseTopic.map { ReplyRoute(address: $0, correlation: message.correlationData) }
        var patch: Result<SettingsPatch, SettingsError>
        if message.retain {
            // A retained command would be replayed on every reconnect and undo later changes.
            patch = .failure(.notAllowed(field: message.topic, reason: "retained commands are ignored; publish without the retain flag"))
        } else {
            switch command {
            case .object:
                patch = Result { () throws(SettingsError) in try SettingsPatch.parse(object: message.payload, sources: sources) }
            case let .field(name):
                patch = Result { () throws(SettingsError) in try SettingsPatch.parse(field: name, plain: message.payload, sources: sources) }
            }
        }
        // Whoever can publish here must not point the daemon at any URL unless the owner allowed it.
        if case let .success(parsed) = patch, parsed.values[.customURL] != nil, !allowRemoteURL {
            patch = .failure(.notAllowed(field: "custom_url",
                                         reason: "changing it over MQTT is disabled; start energyclock with --allow-remote-url to allow it"))
        }
        return SettingsRequest(patch: patch, reply: reply)
    }
}
