import EnergyClockPublisher
import Synchronization

/// A message sink that keeps what it is given and holds retained messages as a broker would, so
/// the publisher's rules are tested without one.
package final class RecordingSink: MessageSink {
    private struct State {
        var sent: [OutgoingMessage] = []
        var subscriptions: [String] = []
        var retained: [String: [UInt8]] = [:]
        var connected = true
        var failing: [String: SinkFailure] = [:]
        var nextID: Int32 = 0
        var expectations: [Double] = []
    }

    private let state = Mutex(State())

    /// A sink that takes everything until told otherwise.
    package init() {}

    /// Every message taken, in order.
    package var sent: [OutgoingMessage] { state.withLock { $0.sent } }
    /// The topics of every message taken, in order.
    package var topics: [String] { sent.map(\.topic) }
    /// Every filter subscribed to, in order.
    package var subscriptions: [String] { state.withLock { $0.subscriptions } }
    /// What a broker would now hold retained, by topic, as text.
    package var retained: [String: String] { state.withLock { $0.retained.mapValues { String(decoding: $0, as: UTF8.self) } } }

    /// Every ``expectSend(in:)``, in seconds, in order.
    package var expectations: [Double] { state.withLock { $0.expectations } }

    /// Returns the messages taken so far and forgets them.
    package func take() -> [OutgoingMessage] {
        state.withLock { state in
            defer { state.sent = [] }
            return state.sent
        }
    }

    /// Whether the sink takes messages, as a connection that is up or down.
    package func setConnected(_ connected: Bool) { state.withLock { $0.connected = connected } }

    /// Makes every message to `topic` fail with `failure` (nil takes them again).
    package func fail(_ topic: String, with failure: SinkFailure?) { state.withLock { $0.failing[topic] = failure } }

    package func subscribe(_ filter: String, retainAsPublished: Bool, othersOnly: Bool) throws(SinkFailure) {
        try state.withLock { state throws(SinkFailure) in
            guard state.connected else { throw .notConnected }
            state.subscriptions.append(filter)
        }
    }

    package func send(_ message: OutgoingMessage) throws(SinkFailure) -> Int32 {
        try state.withLock { state throws(SinkFailure) in
            guard state.connected else { throw .notConnected }
            if let failure = state.failing[message.topic] { throw failure }
            state.sent.append(message)
            if message.retain { state.retained[message.topic] = message.body.isEmpty ? nil : message.body }
            state.nextID &+= 1
            return state.nextID
        }
    }

    package func expectSend(in seconds: Double) { state.withLock { $0.expectations.append(seconds) } }

    package func sendAcknowledged(_ message: OutgoingMessage, timeout: Double) async throws(SinkFailure) -> Bool {
        _ = try send(message)
        return true
    }
}
