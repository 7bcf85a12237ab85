import MQTTClient

/// Where the publisher's messages go: the broker in the daemon, a recording in tests, so the
/// publisher's rules can be tested without a broker.
package protocol MessageSink: Sendable {
    /// Subscribes to `filter`; with `retainAsPublished`, retained messages keep their retain flag
    /// (MQTT 5), so a live retained command can be told apart; with `othersOnly`, only what other
    /// clients publish from now on comes (MQTT 5; with 3.1.1 nothing does).
    func subscribe(_ filter: String, retainAsPublished: Bool, othersOnly: Bool) throws(SinkFailure)
    /// Hands `message` to the connection and returns its message id, by which the broker may
    /// later refuse it.
    func send(_ message: OutgoingMessage) throws(SinkFailure) -> Int32
    /// Hands `message` over and waits up to `timeout` seconds for the broker to take it; false
    /// when it did not in time.
    func sendAcknowledged(_ message: OutgoingMessage, timeout: Double) async throws(SinkFailure) -> Bool
    /// Runs `body`, whose messages the connection may hold until it returns and then send
    /// together (``MQTTClient/publishing(_:)``).
    func together(_ body: () -> Void)
    /// Notes that the next messages will be sent in about `seconds` (the next slot boundary), so
    /// the connection can be ready to send them the moment they come
    /// (``MQTTClient/expectPublish(in:)``).
    func expectSend(in seconds: Double)
}

extension MessageSink {
    /// Runs `body`: a sink without a connection has nothing to hold.
    package func together(_ body: () -> Void) { body() }
    /// Nothing: a sink without a connection has nothing to make ready.
    package func expectSend(in seconds: Double) {}
}

/// Why a sink did not take a message.
package enum SinkFailure: Error, Equatable, CustomStringConvertible {
    /// There is no connection; everything is sent again after the next one.
    case notConnected
    /// The connection refused it; `reason` says why (too large, bad UTF-8, out of memory).
    case failed(String)

    /// The reason, for the log.
    package var description: String {
        switch self {
        case .notConnected: "mqtt: not connected"
        case let .failed(reason): reason
        }
    }
}

extension MQTTClient: MessageSink {
    package func subscribe(_ filter: String, retainAsPublished: Bool, othersOnly: Bool) throws(SinkFailure) {
        do { try subscribe(filter, qos: 1, retainAsPublished: retainAsPublished, othersOnly: othersOnly) } catch {
            throw SinkFailure(error)
        }
    }

    package func send(_ message: OutgoingMessage) throws(SinkFailure) -> Int32 {
        do {
            return try publish(message.topic, message.body, retain: message.retain, correlation: message.correlation)
        } catch {
            throw SinkFailure(error)
        }
    }

    package func sendAcknowledged(_ message: OutgoingMessage, timeout: Double) async throws(SinkFailure) -> Bool {
        let messageID = try send(message)
        return await waitForAcknowledgement(of: messageID, timeout: timeout)
    }

    package func together(_ body: () -> Void) { publishing(body) }

    package func expectSend(in seconds: Double) { expectPublish(in: seconds) }
}

extension SinkFailure {
    init(_ error: MQTTError) {
        self = error.isNotConnected ? .notConnected : .failed(error.description)
    }
}
