import EnergyClockDomain
import FoundationEssentials

/// What the publisher keeps of the topics other clients overwrote: each is put back at once,
/// and then at most once a second, so that a client that writes in a loop costs a message a second.
struct StateGuard {
    /// When each topic was last put back.
    var lastRestored: [String: Date] = [:]
    /// Topics overwritten again within that second, put back when it is over.
    var waiting: Set<String> = []
    /// Topics already named in the log.
    var logged: Set<String> = []

    /// Seconds between two restorings of one topic.
    static let interval = 1.0
}

extension PublisherState {
    /// Another client wrote `topic`: the payload the daemon holds there goes back, when it holds
    /// one (a topic it cleared gets its deletion again); anything else under its prefix is left be.
    mutating func restore(_ topic: String, _ now: Date, _ actions: inout [Action]) {
        guard connected, let held = heldPayload(topic) else { return }
        if restored.logged.insert(topic).inserted {
            actions.append(
                .log(
                    .warning,
                    "another client wrote \(Quote.clip(topic)), which energyclock publishes; putting its own back (let only energyclock's user write \(topics.prefix)/#, see docs/brokers.md)"
                ))
        }
        if let last = restored.lastRestored[topic], now.timeIntervalSince(last) < StateGuard.interval {
            if restored.waiting.isEmpty { actions.append(.wake(.restore, at: last.addingTimeInterval(StateGuard.interval))) }
            restored.waiting.insert(topic)
            return
        }
        restored.lastRestored[topic] = now
        if restored.lastRestored.count > 4096 {
            restored.lastRestored = restored.lastRestored.filter { now.timeIntervalSince($0.value) < 60 }
        }
        if let payload = held.text {
            actions.append(.send(OutgoingMessage(topic, payload, retain: true)))
            return
        }
        // A long payload is held as a digest: its profile's day is rendered again, and that topic
        // is what differs from what the broker holds.
        guard let name = held.name, let latest = views[name]?.latest else { return }
        updateView(name) { $0.retained.unsent(topic) }
        sendParts([latest], DayPiece.allCases.map(RetainedTopics.Part.day), &actions)
    }

    /// The second is over: the topics overwritten within it go back, as the daemon holds them now.
    mutating func restoreWaiting(_ now: Date, _ actions: inout [Action]) {
        let waiting = restored.waiting
        restored.waiting = []
        for topic in waiting.sorted() {
            restored.lastRestored[topic] = nil
            restore(topic, now, &actions)
        }
    }

    /// What the daemon holds on `topic`: `online` on `status`, the list of profiles, or a
    /// profile's retained payload (empty for one it cleared); nil for a topic it does not publish.
    /// A long payload is held as a digest (``HeldPayload``), and `text` is nil: the profile `name`
    /// renders it again.
    func heldPayload(_ topic: String) -> (text: String?, name: String?)? {
        if topic == topics.status { return ("online", nil) }
        if topic == topics.profiles { return (profilesShown ?? (order.count > 1 ? nil : "")).map { ($0, nil) } }
        for name in order {
            guard let index = views.index(forKey: name) else { continue }
            if let held = views.values[index].retained.held(topic) { return (held.text, name) }
        }
        return nil
    }
}
