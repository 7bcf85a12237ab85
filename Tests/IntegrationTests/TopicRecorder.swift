import EnergyClockTesting
import Foundation
import MQTTClient
import Synchronization

/// A real MQTT client that subscribes to a filter and remembers everything it receives.
final class TopicRecorder: Sendable {
    let client: MQTTClient
    private let received = Mutex<[MQTTMessage]>([])
    private let connected = Atomic<Bool>(false)
    private let consumer: Mutex<Task<Void, Never>?> = Mutex(nil)
    /// What happened on the connection before it was ready, for the message of a failed start.
    private let history = Mutex<[String]>([])

    init(port: Int, filter: String = "#", version: MQTTVersion = .v5, username: String? = nil, password: String? = nil) async throws {
        let id = "recorder-\(UUID().uuidString)"
        client = try MQTTClient(
            options: MQTTOptions(
                host: "127.0.0.1", port: port, clientID: id,
                username: username, password: password, version: version,
                // A first attempt refused on a loaded machine is tried again within a second, not
                // after the daemon's backoff, which could outlast the 20 s this waits.
                reconnectDelay: (1, 1)))
        // The broker sends the retained messages of a subscription before it handles anything this
        // client sends later, so the echo of a marker says that all of them have arrived.
        let marker = "recorder/\(id)/ready"
        let task = Task { [self] in
            for await event in client.events {
                if !connected.load(ordering: .acquiring) {
                    history.withLock { $0.append("\(ContinuousClock.now): \(event)".prefix(160).description) }
                }
                switch event {
                case .connected:
                    try? client.subscribe(filter)
                    try? client.subscribe(marker)
                    _ = try? client.publish(marker, "ready")
                case let .message(message) where message.topic == marker:
                    connected.store(true, ordering: .releasing)
                case let .message(message):
                    received.withLock { $0.append(message) }
                default:
                    break
                }
            }
        }
        consumer.withLock { $0 = task }
        client.start()
        let deadline = Date().addingTimeInterval(20)
        while !connected.load(ordering: .acquiring), Date() < deadline { try await Task.sleep(for: .milliseconds(5)) }
        guard connected.load(ordering: .acquiring) else {
            let seen = history.withLock { $0 }
            throw BrokerError("recorder could not connect to port \(port) within 20 s (\(ContinuousClock.now)); it saw \(seen)")
        }
    }

    var messages: [MQTTMessage] { received.withLock { $0 } }

    /// The newest payload seen on `topic`.
    func last(_ topic: String) -> String? { messages.last { $0.topic == topic }?.text }

    /// All payloads seen on `topic`, oldest first.
    func all(_ topic: String) -> [String] { messages.filter { $0.topic == topic }.map(\.text) }

    /// Waits until the newest payload on `topic` satisfies `condition`; returns it, or nil on time-out.
    ///
    /// A minute by default: the whole suite on two cores keeps them busy for tens of seconds at its
    /// start, and a wait that ends early only makes a passing test slower to fail. The condition is
    /// looked at once more after the deadline, for a task that was not scheduled for a while.
    @discardableResult
    func wait(for topic: String, timeout: Double = 60, _ condition: (String) -> Bool = { _ in true }) async -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let payload = last(topic), condition(payload) { return payload }
            if Date() >= deadline { return nil }
            try? await Task.sleep(for: .milliseconds(5))
        }
    }

    /// Waits until `count` messages arrived on `topic`.
    func wait(count: Int, on topic: String, timeout: Double = 60) async -> [String] {
        let deadline = Date().addingTimeInterval(timeout)
        while all(topic).count < count, Date() < deadline { try? await Task.sleep(for: .milliseconds(5)) }
        return all(topic)
    }

    func stop() async {
        await client.stop()
        consumer.withLock { $0?.cancel() }
    }
}
