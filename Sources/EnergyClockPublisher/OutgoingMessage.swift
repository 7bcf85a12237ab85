/// One message for the broker, as an output decides it; ``MQTTPublisher`` sends it.
package struct OutgoingMessage: Sendable, Equatable {
    /// Where it goes.
    package var topic: String
    /// The payload text; empty and retained, it deletes a retained message.
    package var payload: String
    /// Whether the broker keeps it for later subscribers.
    package var retain: Bool
    /// MQTT 5 correlation data, for an answer to a request.
    package var correlation: [UInt8]?
    /// A binary payload (a PNG), sent instead of ``payload`` when set.
    package var bytes: [UInt8]?

    /// A message for `topic`.
    package init(_ topic: String, _ payload: String, retain: Bool, correlation: [UInt8]? = nil) {
        self.topic = topic
        self.payload = payload
        self.retain = retain
        self.correlation = correlation
    }

    /// A binary message for `topic`.
    package init(_ topic: String, bytes: [UInt8], retain: Bool) {
        self.init(topic, "", retain: retain)
        self.bytes = bytes
    }

    /// What goes on the wire.
    package var body: [UInt8] { bytes ?? Array(payload.utf8) }
}
