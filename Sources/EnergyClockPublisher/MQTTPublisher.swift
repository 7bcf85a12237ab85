import EnergyClockCore
import EnergyClockFace
import FoundationEssentials
import MQTTClient

/// Sends what the outputs decide to the broker: the retained topic tree, settings answers, the
/// lights, line protocol and Home Assistant's discovery configs.
///
/// Only topics whose payload changed are sent; after a (re)connect everything is sent again.
/// Nothing is queued while disconnected, so a long outage cannot pile up stale messages.
package actor MQTTPublisher: ManagerOutput {
    let client: MQTTClient
    let topics: TopicTree
    let options: PublisherOptions
    let logger: Logger
    var connected = false
    var latest: Snapshot?
    var retained: RetainedTopics
    var lights: LEDDriver
    var lineProtocol = LineProtocolOutput()
    var answers: SettingsAnswers
    let discovery: DiscoveryAnnouncer
    /// The price unit of the discovery configs last announced; they follow the currency setting.
    var announcedUnit: String?
    var clock: ClockOutput
    /// The drawing under way, stopped at shutdown.
    var drawing: Task<Void, Never>?
    /// Where `health.json` goes, for `energyclock health`; nil for none.
    let healthDirectory: StateDirectory?
    var health = HealthOutput(now: Date())
    /// A republish for Home Assistant's `online` is waiting out its delay; more `online`s join it.
    var homeAssistantPending = false
    /// The topic of each recent publish by message id, to name a publish the broker refuses.
    var topicsByMessageID: [Int32: String] = [:]
    /// Topics whose refusal was already logged; one warning per topic is enough.
    var refusedTopics: Set<String> = []

    /// A publisher over `client` for `topics`.
    package init(
        client: MQTTClient, topics: TopicTree, options: PublisherOptions = PublisherOptions(), logger: Logger,
        health: StateDirectory? = nil
    ) {
        healthDirectory = health
        self.client = client
        self.topics = topics
        self.options = options
        self.logger = logger
        retained = RetainedTopics(topics: topics, cheapestHours: options.cheapestHours)
        lights = LEDDriver(leds: options.leds, z2mBaseTopic: options.z2mBaseTopic)
        answers = SettingsAnswers(topics: topics)
        discovery = DiscoveryAnnouncer(discovery: options.discovery, topics: topics)
        clock = ClockOutput(topics: topics, enabled: options.clockImage)
    }

    /// Shows `snapshot` on the retained topics, the lights and the line-protocol topic.
    ///
    /// Everything that reaches the broker happens before the one suspension point at the end,
    /// so a newer snapshot can never be overtaken by an older one.
    package func publish(_ snapshot: Snapshot) async {
        latest = snapshot
        let point = lineProtocol.newPoint(for: snapshot)
        if connected {
            show(snapshot)
            if let point { send(OutgoingMessage(topics.influx, point, retain: false)) }
            recordPublished(snapshot)
        }
        if let point { await options.influx?.enqueue([point]) }
    }

    /// Sends the retained topics and light commands that `snapshot` changes, until one fails:
    /// what describes now, then the lights, then the day's larger payloads.
    private func show(_ snapshot: Snapshot) {
        guard sendChanges(in: .now, of: snapshot) else { return }
        if announcedUnit != snapshot.settings.unit {
            announcedUnit = snapshot.settings.unit
            for config in discovery.messages(unit: snapshot.settings.unit) { guard send(config) else { return } }
        }
        let commands = lights.commands(for: snapshot)
        if !commands.isEmpty {
            for command in commands { guard send(command) else { return } }
            lights.shown(snapshot, commands: commands)
        }
        guard sendChanges(in: .day, of: snapshot) else { return }
        showClock(snapshot)
    }

    /// Draws the clock pictures when what they show changed, at most once a second, in the
    /// helper; a change during a drawing is drawn after it, from the newest snapshot.
    private func showClock(_ snapshot: Snapshot) {
        guard case let .draw(face, key, delay) = clock.decide(for: snapshot, at: .now) else { return }
        let renderer = options.renderer
        drawing = Task {
            if delay > .zero { try? await Task.sleep(for: delay) }
            guard !Task.isCancelled else { return clockDrawn(key, nil) }
            let result: Result<(png: [UInt8], svg: [UInt8]), ClockRenderer.Failure>
            do throws(ClockRenderer.Failure) {
                result = .success(try await renderer.draw(face))
            } catch {
                result = .failure(error)
            }
            clockDrawn(key, Task.isCancelled ? nil : result)
        }
    }

    private func clockDrawn(_ key: ClockOutput.Key, _ result: Result<(png: [UInt8], svg: [UInt8]), ClockRenderer.Failure>?) {
        drawing = nil
        switch result {
        case nil:
            clock.abandoned()
        case let .failure(failure)?:
            let (pause, log) = clock.failed(failure.kind, at: .now)
            if log { logger.error("could not draw the clock: \(failure); trying again in \(pause.components.seconds) s") }
        case let .success(pictures)?:
            let (messages, recovered) = clock.drawn(key, pictures)
            if recovered { logger.info("the clock is drawn again") }
            guard connected else { return }
            for message in messages { guard send(message) else { return } }
            if let latest { showClock(latest) }
        }
    }

    /// Stops a drawing under way and waits for it, so that no helper outlives the daemon.
    package func stopDrawing() async {
        let running = drawing
        running?.cancel()
        await running?.value
    }

    /// Sends the changed topics of one part of the tree; false when the connection failed.
    @discardableResult
    private func sendChanges(in part: RetainedTopics.Part, of snapshot: Snapshot) -> Bool {
        for message in retained.changes(in: part, of: snapshot) {
            guard send(message) else { return false }
            retained.sent(message)
        }
        return true
    }

    /// Answers a settings request on `settings/result`, and on its own response topic with MQTT 5.
    package func report(_ outcome: SettingsOutcome) {
        guard connected else { return }
        if case let .failure(error) = outcome.result, let line = answers.logLine(for: error) { logger.warning(line) }
        for message in answers.messages(for: outcome, settings: latest?.settings) { send(message) }
    }

    /// After a (re)connect: subscribe, announce `online` and the entities, republish every topic
    /// from `snapshot`, and clear the retained topics in `previouslyRetained` that are no longer
    /// published (a window length or an entity dropped from the configuration, an old prefix).
    ///
    /// Returns every retained topic now published, for the caller to remember until next time.
    package func connectionUp(_ snapshot: Snapshot, previouslyRetained: Set<String> = []) async -> Set<String> {
        connected = true
        latest = snapshot
        do {
            // Retain-as-published lets a live retained command be told apart and refused (MQTT 5).
            for filter in topics.subscriptions { try client.subscribe(filter, retainAsPublished: true) }
            if let status = options.homeAssistantStatus { try client.subscribe(status) }
        } catch {
            logger.error("\(error)")
        }
        send(OutgoingMessage(topics.status, "online", retain: true))
        recordConnection(true)
        republishEverything()
        recordPublished(snapshot)
        let owned = retained.owned(for: snapshot).union(discovery.owned).union(clock.owned)
        for topic in previouslyRetained.subtracting(owned).sorted() {
            logger.info("clearing \(topic), which this configuration no longer publishes")
            send(OutgoingMessage(topic, "", retain: true))
        }
        return owned
    }

    /// Home Assistant restarted: announce the entities and states again after a short random delay,
    /// so that many devices do not answer at the same instant.
    ///
    /// However many `online`s arrive during the delay, they lead to one republish.
    package func homeAssistantRestarted(delay: Duration = .milliseconds(Int64.random(in: 500...2500))) async {
        guard !homeAssistantPending else { return }
        homeAssistantPending = true
        defer { homeAssistantPending = false }
        try? await Task.sleep(for: delay)
        guard connected else { return }
        logger.info("Home Assistant restarted; republishing discovery and states")
        republishEverything()
    }

    private func republishEverything() {
        announcedUnit = nil
        clock.forget()
        retained.forget()
        lights.forget()
        if let latest, connected { show(latest) }
    }

    /// The broker refused a publish: warn once per topic, naming it, so a missing ACL entry is found.
    package func publishRefused(messageID: Int32, reason: String) {
        let topic = topicsByMessageID[messageID]
        guard refusedTopics.insert(topic ?? "").inserted else { return }
        logger.warning(
            "the broker refused a publish to \(topic.map { Quote.clip($0) } ?? "a topic") (\(reason)); check its ACL for this client")
    }

    /// The connection dropped; stop sending until it is back.
    package func connectionDown() {
        connected = false
        recordConnection(false)
    }

    /// Notes a change of connection in `health.json` at once.
    private func recordConnection(_ up: Bool) {
        perform(health.connection(up, at: Date(), .now))
    }

    /// Notes a publish in `health.json`, at most once a second.
    private func recordPublished(_ snapshot: Snapshot) {
        perform(health.published(snapshot, at: Date(), .now))
    }

    /// Carries out what ``HealthOutput`` decided.
    private func perform(_ action: HealthOutput.Action) {
        switch action {
        case .none:
            break
        case let .write(record):
            guard let healthDirectory else { return }
            do { try record.write(to: healthDirectory) } catch { logger.warning("\(error)") }
        case let .wakeAt(instant):
            Task {
                try? await Task.sleep(until: instant)
                perform(health.due(at: .now))
            }
        }
    }

    /// Publishes `offline` and waits up to `timeout` seconds for the broker to take it.
    package func goOffline(timeout: Double = 1) async {
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
    private func send(_ message: OutgoingMessage) -> Bool {
        do {
            let messageID = try client.publish(message.topic, message.body, retain: message.retain, correlation: message.correlation)
            if topicsByMessageID.count >= 4096 { topicsByMessageID.removeAll(keepingCapacity: true) }
            topicsByMessageID[messageID] = message.topic
            logger.debug("published \(message.topic) (\(message.body.count) bytes)")
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
