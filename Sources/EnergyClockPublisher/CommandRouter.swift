import EnergyClockDomain
import MQTTClient

/// Turns messages on the topics energyclock listens to into commands.
package struct CommandRouter: Sendable {
    /// What a message asks for.
    package enum Command: Sendable {
        /// A settings change; `replyRefused` says why its MQTT 5 response topic gets no answer.
        case settings(SettingsRequest, replyRefused: String?)
        /// Fetch prices now: every profile's when sent to the first, else the profile's own.
        case refresh(profile: String)
        /// Home Assistant (re)started.
        case homeAssistantOnline
        /// Another client wrote to a topic under the daemon's prefix that is no command.
        case foreign(topic: String)
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
        let (profile, topic) = topics.addressee(of: message.topic)
        if topic == topics.refresh, !message.retain { return .refresh(profile: profile) }
        if message.topic == homeAssistantStatus { return message.text == "online" ? .homeAssistantOnline : nil }
        if let reserved = topics.reservedProfile(of: message.topic) {
            // `<prefix>/price/settings/set` names no profile: answered on its own result topic.
            return routed(
                message, to: reserved.profile, reserved.topic, refusal: .profile(reserved.profile, reason: Self.reserved(reserved.profile))
            )
            .map { .settings($0.request, replyRefused: $0.replyRefused) }
        }
        if let routed = routed(message, to: profile, topic) { return .settings(routed.request, replyRefused: routed.replyRefused) }
        return message.topic.hasPrefix(topics.prefix + "/") ? .foreign(topic: message.topic) : nil
    }

    /// Why the first level `name` of a command's topic names no profile.
    static func reserved(_ name: String) -> String {
        "\(name) is a topic of the first profile, not a profile (\(TopicTree.leaves.sorted().joined(separator: ", ")) are taken); "
            + "the first profile's settings are at settings/set, another profile's at <profile>/settings/set"
    }

    /// The request `message` carries, or nil when it is not a settings command.
    ///
    /// An empty retained message is how a retained message is deleted, not a command: it is ignored.
    package func request(from message: MQTTMessage) -> SettingsRequest? {
        let (profile, topic) = topics.addressee(of: message.topic)
        return routed(message, to: profile, topic)?.request
    }

    /// The request `message` carries, and why its response topic gets no answer, if it does not;
    /// `topic` is its topic in the tree of `profile`, the profile it addresses.
    private func routed(_ message: MQTTMessage, to profile: String, _ topic: String, refusal: SettingsError? = nil) -> (
        request: SettingsRequest, replyRefused: String?
    )? {
        guard let command = topics.settingsCommand(topic) else { return nil }
        if message.retain, message.payload.isEmpty { return nil }
        let address = message.responseTopic.flatMap { $0.isEmpty ? nil : $0 }
        let replyRefused = address.flatMap(replies.refusal(for:))
        let reply = address.flatMap { replyRefused == nil ? ReplyRoute(address: $0, correlation: message.correlationData) : nil }
        var update: Result<SettingsUpdate, SettingsError>
        if let refusal {
            update = .failure(refusal)
        } else if message.retain {
            // A retained command would be replayed on every reconnect and undo later changes.
            update = .failure(
                .notAllowed(
                    field: message.topic,
                    reason:
                        "retained commands are refused; publish without the retain flag, and delete the retained message with an empty retained publish (mosquitto_pub -r -n -t '\(message.topic)')"
                ))
        } else {
            switch command {
            case .object:
                update = Result { () throws(SettingsError) in
                    try SettingsUpdate.parse(object: message.payload, sources: sources, profile: profile)
                }
            case let .field(name):
                update = Result { () throws(SettingsError) in
                    try SettingsUpdate.parse(field: name, plain: message.payload, sources: sources, profile: profile)
                }
            }
        }
        // Whoever can publish here must not point the daemon at any URL unless the owner allowed it.
        if case let .success(parsed) = update, !allowRemoteURL, parsed.setsCustomURL {
            update = .failure(
                .notAllowed(
                    field: "custom_url",
                    reason: "changing it over MQTT is disabled; start energyclock with --allow-remote-url to allow it"))
        }
        return (SettingsRequest(update: update, profile: profile, reply: reply), replyRefused)
    }
}
