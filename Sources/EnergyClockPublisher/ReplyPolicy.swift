/// Where answers to MQTT 5 requests may go.
///
/// A response topic is chosen by whoever sends the request, so it must not be able to make the
/// daemon publish where its own output lives: never under its topic prefix (the retained topics
/// and the command topics), Home Assistant's discovery prefix, or a topic of a light it drives.
package struct ReplyPolicy: Sendable, Equatable {
    /// Topics that answers never go to, together with every topic below them.
    package var reserved: [String]

    /// A policy that protects `topics`, the discovery prefix and the lights in `options`.
    package init(topics: TopicTree, options: PublisherOptions) {
        var reserved = [topics.prefix, options.discovery?.prefix ?? "homeassistant"]
        for led in options.leds {
            switch led {
            case let .wled(topic), let .json(topic): reserved.append(topic)
            case .z2m: reserved.append(options.z2mBaseTopic)
            case let .tasmota(topic): reserved.append("cmnd/\(topic)")
            case let .wledRing(ring): reserved.append(ring.topic)
            }
        }
        self.reserved = reserved
    }

    /// Why an answer may not go to `topic`, or nil when it may.
    package func refusal(for topic: String) -> String? {
        if topic.contains("+") || topic.contains("#") || topic.contains("\0") { return "it holds a wildcard or NUL" }
        if topic.hasPrefix("$") { return "topics starting with $ belong to the broker" }
        if let owner = reserved.first(where: { topic == $0 || topic.hasPrefix($0 + "/") }) {
            return "answers never go to \(owner) or below it"
        }
        return nil
    }
}
