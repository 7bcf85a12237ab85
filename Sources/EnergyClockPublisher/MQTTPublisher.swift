import EnergyClockCore
import MQTTClient

/// Keeps the retained topic tree equal to the manager's latest snapshot and answers settings requests.
///
/// Only topics whose payload changed are sent; after a (re)connect everything is sent again.
/// Nothing is queued while disconnected, so a long outage cannot pile up stale messages.
public actor MQTTPublisher: ManagerOutput {
    let client: MQTTClient
    let topics: TopicTree
    let logger: Logger
    var sent: [String: String] = [:]
    var connected = false
    var latest: Snapshot?

    /// A publisher over `client` for `topics`.
    public init(client: MQTTClient, topics: TopicTree, logger: Logger = Logger(label: "publisher")) {
        self.client = client
        self.topics = topics
        self.logger = logger
    }

    /// Shows `snapshot` on the retained topics.
    public func publish(_ snapshot: Snapshot) {
        latest = snapshot
        guard connected else { return }
        for message in Payloads.render(snapshot, topics: topics) where sent[message.topic] != message.payload {
            guard send(message.topic, message.payload, retain: true) else { return }
            sent[message.topic] = message.payload
        }
    }

    /// Answers a settings request on `settings/result`, and on its own response topic with MQTT 5.
    public func report(_ outcome: SettingsOutcome) {
        let json = outcome.json
        if case let .failure(error) = outcome.result { logger.warning("settings update refused: \(error)") }
        guard connected else { return }
        send(topics.settingsResult, json, retain: false)
        if let reply = outcome.reply {
            send(reply.address, json, retain: false, correlation: reply.correlation)
        }
    }

    /// After a (re)connect: subscribe, announce `online`, then republish every retained topic.
    public func connectionUp() {
        connected = true
        sent.removeAll()
        do {
            try client.subscribe(topics.settingsSet)
            try client.subscribe(topics.settingsFieldFilter)
        } catch {
            logger.error("\(error)")
        }
        send(topics.status, "online", retain: true)
        if let latest { publish(latest) }
    }

    /// The connection dropped; stop sending until it is back.
    public func connectionDown() {
        connected = false
    }

    /// Publishes `offline` and waits up to `timeout` seconds for the broker to take it.
    public func goOffline(timeout: Double = 1) async {
        guard connected else { return }
        do {
            let mid = try client.publish(topics.status, "offline", retain: true)
            if await !client.waitForAcknowledgement(of: mid, timeout: timeout) {
                logger.warning("broker did not acknowledge offline within \(timeout) s")
            }
        } catch {
            logger.warning("\(error)")
        }
        connected = false
    }

    @discardableResult
    private func send(_ topic: String, _ payload: String, retain: Bool, correlation: [UInt8]? = nil) -> Bool {
        do {
            try client.publish(topic, payload, retain: retain, correlation: correlation)
            logger.debug("published \(topic) (\(payload.utf8.count) bytes)")
            return true
        } catch {
            if error.isNotConnected {
                connected = false
            } else {
                logger.error("\(error)")
            }
            return false
        }
    }
}
