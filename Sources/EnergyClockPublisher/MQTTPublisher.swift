import EnergyClockCore
import MQTTClient

/// Keeps the retained topic tree equal to the manager's latest snapshot, answers settings
/// requests, drives LEDs, emits line protocol and announces entities to Home Assistant.
///
/// Only topics whose payload changed are sent; after a (re)connect everything is sent again.
/// Nothing is queued while disconnected, so a long outage cannot pile up stale messages.
public actor MQTTPublisher: ManagerOutput {
    let client: MQTTClient
    let topics: TopicTree
    let options: PublisherOptions
    let logger: Logger
    var sent: [String: String] = [:]
    var connected = false
    var latest: Snapshot?
    var lastLED: String?
    var lastLine: String?
    /// A republish for Home Assistant's `online` is waiting out its delay; more `online`s join it.
    var homeAssistantPending = false
    var refusals = LogThrottle()
    /// The topic of each recent publish by message id, to name a publish the broker refuses.
    var topicsByMessageID: [Int32: String] = [:]
    /// Topics whose refusal was already logged; one warning per topic is enough.
    var refusedTopics: Set<String> = []

    /// A publisher over `client` for `topics`.
    public init(client: MQTTClient, topics: TopicTree, options: PublisherOptions = PublisherOptions(), logger: Logger = Logger(label: "publisher")) {
        self.client = client
        self.topics = topics
        self.options = options
        self.logger = logger
    }

    /// Shows `snapshot` on the retained topics, the LEDs and the line-protocol topic.
    ///
    /// Everything that reaches the broker happens before the one suspension point at the end,
    /// so a newer snapshot can never be overtaken by an older one.
    public func publish(_ snapshot: Snapshot) async {
        latest = snapshot
        var newLine: String?
        if let line = LineProtocol.currentPoint(snapshot), line != lastLine {
            lastLine = line
            newLine = line
        }
        if connected {
            sendRetained(snapshot)
            if let newLine { send(topics.influx, newLine, retain: false) }
        }
        if let newLine { await options.influx?.enqueue([newLine]) }
    }

    private func sendRetained(_ snapshot: Snapshot) {
        for message in Payloads.render(snapshot, topics: topics, cheapestHours: options.cheapestHours)
        where sent[message.topic] != message.payload {
            guard send(message.topic, message.payload, retain: true) else { return }
            sent[message.topic] = message.payload
        }
        driveLEDs(snapshot)
    }

    /// Sets every LED to the current band's colour when it changed (or after a reconnect).
    private func driveLEDs(_ snapshot: Snapshot) {
        guard !options.leds.isEmpty, let band = snapshot.current?.band else { return }
        let color = snapshot.settings.color(of: band)
        let brightness = snapshot.settings.brightness[band]
        let state = "\(band.rawValue) \(color.hex) \(brightness.map(String.init) ?? "-")"
        guard state != lastLED else { return }
        for led in options.leds {
            for message in led.messages(band: band, color: color, brightness: brightness, z2mBase: options.z2mBaseTopic) {
                guard send(message.topic, message.payload, retain: false) else { return }
            }
        }
        lastLED = state
    }

    /// Answers a settings request on `settings/result`, and on its own response topic with MQTT 5.
    ///
    /// A refusal also resends the unchanged settings, so a Home Assistant control snaps back.
    public func report(_ outcome: SettingsOutcome) {
        let json = outcome.json
        guard connected else { return }
        if case let .failure(error) = outcome.result {
            let admitted = refusals.admit(error.kind)
            if admitted.allowed {
                let held = admitted.suppressed > 0 ? " (\(admitted.suppressed) more like it in the last \(Int(refusals.interval)) s were not logged)" : ""
                logger.warning("settings update refused: \(error)\(held)")
            }
            if let latest { send(topics.settings, latest.settings.json, retain: true) }
        }
        send(topics.settingsResult, json, retain: false)
        if let reply = outcome.reply {
            send(reply.address, json, retain: false, correlation: reply.correlation)
        }
    }

    /// After a (re)connect: subscribe, announce `online` and the entities, republish every topic
    /// from `snapshot`, and clear the retained topics in `previouslyRetained` that are no longer
    /// published (a window length or an entity dropped from the configuration, an old prefix).
    ///
    /// Returns every retained topic now published, for the caller to remember until next time.
    public func connectionUp(_ snapshot: Snapshot, previouslyRetained: Set<String> = []) async -> Set<String> {
        connected = true
        latest = snapshot
        do {
            // Retain-as-published lets a live retained command be told apart and refused (MQTT 5).
            for filter in topics.subscriptions { try client.subscribe(filter, retainAsPublished: true) }
            if let status = options.homeAssistantStatus { try client.subscribe(status) }
        } catch {
            logger.error("\(error)")
        }
        send(topics.status, "online", retain: true)
        await republishEverything()
        var owned: Set<String> = [topics.status]
        owned.formUnion(Payloads.render(snapshot, topics: topics, cheapestHours: options.cheapestHours).map(\.topic))
        if options.discovery?.mode == .on { owned.formUnion(options.discovery?.configs(topics).map(\.topic) ?? []) }
        for topic in previouslyRetained.subtracting(owned).sorted() {
            logger.info("clearing \(topic), which this configuration no longer publishes")
            send(topic, "", retain: true)
        }
        return owned
    }

    /// Home Assistant restarted: announce the entities and states again after a short random delay,
    /// so that many devices do not answer at the same instant.
    ///
    /// However many `online`s arrive during the delay, they lead to one republish.
    public func homeAssistantRestarted(delay: Duration = .milliseconds(Int64.random(in: 500...2500))) async {
        guard !homeAssistantPending else { return }
        homeAssistantPending = true
        defer { homeAssistantPending = false }
        try? await Task.sleep(for: delay)
        guard connected else { return }
        logger.info("Home Assistant restarted; republishing discovery and states")
        await republishEverything()
    }

    private func republishEverything() async {
        for config in options.discovery?.configs(topics) ?? [] {
            send(config.topic, config.payload, retain: true)
        }
        sent.removeAll()
        lastLED = nil
        if let latest, connected { sendRetained(latest) }
    }

    /// The broker refused a publish: warn once per topic, naming it, so a missing ACL entry is found.
    public func publishRefused(messageID: Int32, reason: String) {
        let topic = topicsByMessageID[messageID]
        guard refusedTopics.insert(topic ?? "").inserted else { return }
        logger.warning("the broker refused a publish to \(topic.map { Quote.clip($0) } ?? "a topic") (\(reason)); check its ACL for this client")
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
            let messageID = try client.publish(topic, payload, retain: retain, correlation: correlation)
            if topicsByMessageID.count >= 4096 { topicsByMessageID.removeAll(keepingCapacity: true) }
            topicsByMessageID[messageID] = topic
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
