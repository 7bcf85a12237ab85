import EnergyClockCore
import MQTTClient

/// Turns messages on the topics energyclock listens to into commands.
package struct CommandRouter: Sendable {
    /// What a message asks for.
    package enum Command: Sendable {
        /// A settings change; `replyRefused` says why its MQTT 5 response topic gets no answer.
        case settings(SettingsRequest, replyRefused: String?)
        /// Fetch prices now.
        case refresh
        /// Home Assistant (re)started.
        case homeAssistantOnline
    }

    /// The topic tree in use.
    package var topics: TopicTree
    /// Source ids users may choose.
    package var sources: [String]
    /// Whether `custom_url` may be changed over MQTT (`--allow-remote-url`).
    package var allowRemoteURL: Bool
    /// Home Assistant's status topic, when discovery is on.
    package var homeAssistantStatus: String?
    /// Where answers to MQTT 5 requests may go.
    package var replies: ReplyPolicy

    /// A router for `topics` accepting `sources`; answers go only where `replies` allows.
    package init(
        topics: TopicTree, sources: [String], allowRemoteURL: Bool = false, homeAssistantStatus: String? = nil,
        replies: ReplyPolicy? = nil
    ) {
        self.topics = topics
        self.sources = sources
        self.allowRemoteURL = allowRemoteURL
        self.homeAssistantStatus = homeAssistantStatus
        self.replies = replies ?? ReplyPolicy(topics: topics, options: PublisherOptions())
    }

    /// The command `message` carries, or nil when it carries none.
    package func command(from message: MQTTMessage) -> Command? {
        if message.topic == topics.refresh, !message.retain { return .refresh }
        if message.topic == homeAssistantStatus { return message.text == "online" ? .homeAssistantOnline : nil }
        return routed(message).map { .settings($0.request, replyRefused: $0.replyRefused) }
    }

    /// The request `message` carries, or nil when it is not a settings command.
    ///
    /// An empty retained message is how a retained message is deleted, not a command: it is ignored.
    package func request(from message: MQTTMessage) -> SettingsRequest? {
        routed(message)?.request
    }

    /// The request `message` carries, and why its response topic gets no answer, if it does not.
    private func routed(_ message: MQTTMessage) -> (request: SettingsRequest, replyRefused: String?)? {
        guard let command = topics.settingsCommand(message.topic) else { return nil }
        if message.retain, message.payload.isEmpty { return nil }
        let address = message.responseTopic.flatMap { $0.isEmpty ? nil : $0 }
        let replyRefused = address.flatMap(replies.refusal(for:))
        let reply = address.flatMap { replyRefused == nil ? ReplyRoute(address: $0, correlation: message.correlationData) : nil }
        var patch: Result<SettingsPatch, SettingsError>
        if message.retain {
            // A retained command would be replayed on every reconnect and undo later changes.
            patch = .failure(
                .notAllowed(
                    field: message.topic,
                    reason:
                        "retained commands are refused; publish without the retain flag, and delete the retained message with an empty retained publish (mosquitto_pub -r -n -t '\(message.topic)')"
                ))
        } else {
            switch command {
            case .object:
                patch = Result { () throws(SettingsError) in try SettingsPatch.parse(object: message.payload, sources: sources) }
            case let .field(name):
                patch = Result { () throws(SettingsError) in try SettingsPatch.parse(field: name, plain: message.payload, sources: sources)
                }
            }
        }
        // Whoever can publish here must not point the daemon at any URL unless the owner allowed it.
        if case let .success(parsed) = patch, parsed.values[.customURL] != nil, !allowRemoteURL {
            patch = .failure(
                .notAllowed(
                    field: "custom_url",
                    reason: "changing it over MQTT is disabled; start energyclock with --allow-remote-url to allow it"))
        }
        return (SettingsRequest(patch: patch, reply: reply), replyRefused)
    }
}
