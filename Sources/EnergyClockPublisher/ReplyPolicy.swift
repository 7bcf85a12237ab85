/// Where answers to MQTT 5 requests may go.
///
/// A response topic is chosen by whoever sends the request, so it must not be able to make the
/// daemon publish to another device's command topic (`zigbee2mqtt/bridge/request/restart`,
/// `cmnd/tasmotas/Backlog`) or where the daemon's own output lives. Answers therefore go only to
/// a topic at or below one of the allowed prefixes (by default `<prefix>/reply` and `reply`,
/// `--reply-topic-prefix` to choose others), and never to the daemon's own topics, Home
/// Assistant's discovery prefix or a topic of a light it drives, whatever the prefixes allow.
package struct ReplyPolicy: Sendable, Equatable {
    /// The topics answers may go to, together with every topic below them.
    package var allowed: [String]
    /// Topics that answers never go to, together with every topic below them.
    package var reserved: [String]
    /// The one subtree of the daemon's own prefix that is not its output: `<prefix>/reply`.
    package var ownReplyTree: String

    /// A policy that allows `options.replyPrefixes` (or the default ones) and protects `topics`,
    /// the discovery prefix and the lights in `options`.
    package init(topics: TopicTree, options: PublisherOptions) {
        allowed = options.replyPrefixes.isEmpty ? [topics.reply, "reply"] : options.replyPrefixes
        ownReplyTree = topics.reply
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
        guard allowed.contains(where: { Self.topic(topic, isAtOrBelow: $0) }) else {
            return "answers go only to \(allowed.joined(separator: ", ")) and below (--reply-topic-prefix)"
        }
        if !Self.topic(topic, isAtOrBelow: ownReplyTree),
            let owner = reserved.first(where: { Self.topic(topic, isAtOrBelow: $0) })
        {
            return "answers never go to \(owner) or below it"
        }
        return nil
    }

    private static func topic(_ topic: String, isAtOrBelow prefix: String) -> Bool {
        topic == prefix || topic.hasPrefix(prefix + "/")
    }
}
