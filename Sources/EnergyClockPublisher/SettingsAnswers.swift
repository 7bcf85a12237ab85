import EnergyClockDomain
import EnergyClockSupport

/// Answers to settings requests: the result topic, a requester's own response topic, and, after a
/// refusal, the unchanged settings again so that a Home Assistant control snaps back.
struct SettingsAnswers {
    let topics: TopicTree
    /// Refusals of one kind are logged once per interval.
    private(set) var refusals = LogThrottle()

    init(topics: TopicTree) {
        self.topics = topics
    }

    /// The messages that answer `outcome` in the tree of the profile it was sent to (`tree`),
    /// given that profile's settings in force and their JSON as the `settings` topic shows it.
    func messages(for outcome: SettingsOutcome, topics tree: TopicTree, settings: (value: Settings, json: String)?) -> [OutgoingMessage] {
        let json = outcome.json { shown in
            if let settings, shown == settings.value { settings.json } else { shown.shownJSON }
        }
        var messages: [OutgoingMessage] = []
        if case .failure = outcome.result, let settings {
            messages.append(OutgoingMessage(tree.settings, settings.json, retain: true))
        }
        messages.append(OutgoingMessage(tree.settingsResult, json, retain: false))
        if let reply = outcome.reply {
            messages.append(OutgoingMessage(reply.address, json, retain: false, correlation: reply.correlation))
        }
        return messages
    }

    /// The log line for a refusal, or nil while refusals of its kind are held back.
    mutating func logLine(for error: SettingsError) -> String? {
        let admitted = refusals.admit(error.kind)
        guard admitted.allowed else { return nil }
        let held =
            admitted.suppressed > 0 ? " (\(admitted.suppressed) more like it in the last \(Int(refusals.interval)) s were not logged)" : ""
        return "settings update refused: \(error)\(held)"
    }
}
