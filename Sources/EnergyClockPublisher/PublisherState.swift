import EnergyClockCore
import EnergyClockFace
import FoundationEssentials

/// What the publisher decides, as a value: events go in with the time they happen at, actions
/// come out. Nothing here touches the broker, a file, a task or a clock, so every rule of the
/// publisher (what changed, what to clear, when to draw, when to write `health.json`, how often to
/// warn) is tested by feeding events and reading the actions, as mqtt-nio's connection state
/// machine is.
///
/// Only topics whose payload changed are sent; after a (re)connect everything is sent again.
/// Nothing is queued while disconnected, so a long outage cannot pile up stale messages.
struct PublisherState {
    /// The clock's two pictures.
    typealias Pictures = (png: [UInt8], svg: [UInt8])

    /// Something that happened to the publisher.
    enum Event {
        /// `broker` accepted the connection; `previouslyRetained` is the ledger of the last one.
        case connected(Snapshot, previouslyRetained: Set<String>, broker: String?)
        /// The connection dropped, or the broker refused it.
        case disconnected
        /// The manager has a new snapshot.
        case snapshot(Snapshot)
        /// A settings request was handled.
        case answered(SettingsOutcome)
        /// Home Assistant said `online`; it is answered after `delay`.
        case homeAssistantOnline(delay: Duration)
        /// A wake-up asked for by ``Action/wake(_:at:)`` is due.
        case timer(Timer)
        /// A drawing ended: with pictures, with a failure, or stopped (nil).
        case clockDrawn(ClockOutput.Key, Result<Pictures, ClockRenderer.Failure>?)
        /// These messages did not reach the connection, for this reason; later ones were not tried
        /// once it said `notConnected`.
        case undelivered([OutgoingMessage], SinkFailure)
        /// The broker refused a publish to `topic` (nil when it is no longer known).
        case refused(topic: String?, reason: String)
        /// `offline` was announced at shutdown; nothing more is sent.
        case wentOffline
    }

    /// What a wake-up is for.
    enum Timer: Equatable {
        /// The delay after Home Assistant's `online` is over.
        case homeAssistant
        /// The second after the last `health.json` write is over.
        case health
    }

    /// What the publisher is to do, in order.
    enum Action {
        /// Subscribe to a command topic.
        case subscribe(String, retainAsPublished: Bool)
        /// Hand a message to the connection; after a `notConnected`, the rest are not tried.
        case send(OutgoingMessage)
        /// Draw the clock at `at` (now or within a second) and report it as `key`.
        case draw(ClockFace, key: ClockOutput.Key, at: Date)
        /// Send ``Event/timer(_:)`` at this time.
        case wake(Timer, at: Date)
        /// Write `health.json`.
        case writeHealth(HealthRecord)
        /// Queue a line-protocol point for InfluxDB.
        case record(String)
        /// Log a line.
        case log(LogLevel, String)
        /// Remember these as the retained topics of this connection, for the next start.
        case ledger(Set<String>)
    }

    let topics: TopicTree
    let homeAssistantStatus: String?
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
    var health: HealthOutput
    /// A republish for Home Assistant's `online` is waiting out its delay; more `online`s join it.
    var homeAssistantPending = false
    /// Topics whose refusal was already logged; one warning per topic is enough.
    var refusedTopics: Set<String> = []

    /// A publisher for `topics` with `options` that has sent nothing and is not connected since `now`.
    init(topics: TopicTree, options: PublisherOptions, now: Date) {
        self.topics = topics
        homeAssistantStatus = options.homeAssistantStatus
        retained = RetainedTopics(topics: topics, cheapestHours: options.cheapestHours)
        lights = LEDDriver(leds: options.leds, z2mBaseTopic: options.z2mBaseTopic)
        answers = SettingsAnswers(topics: topics)
        discovery = DiscoveryAnnouncer(discovery: options.discovery, topics: topics)
        clock = ClockOutput(topics: topics, enabled: options.clockImage)
        health = HealthOutput(now: now)
    }

    /// What to do about `event`, which happened at `now`.
    mutating func handle(_ event: Event, at now: Date) -> [Action] {
        var actions: [Action] = []
        switch event {
        case let .connected(snapshot, previous, broker): connect(snapshot, previous, broker, now, &actions)
        case .disconnected:
            connected = false
            note(health.connection(false, at: now), &actions)
        case let .snapshot(snapshot):
            latest = snapshot
            let point = lineProtocol.newPoint(for: snapshot)
            if connected {
                show(snapshot, now, &actions)
                if let point { actions.append(.send(OutgoingMessage(topics.influx, point, retain: false))) }
                note(health.published(snapshot, at: now), &actions)
            }
            if let point { actions.append(.record(point)) }
        case let .answered(outcome):
            guard connected else { break }
            if case let .failure(error) = outcome.result, let line = answers.logLine(for: error) { actions.append(.log(.warning, line)) }
            actions += answers.messages(for: outcome, settings: latest?.settings).map(Action.send)
        case let .homeAssistantOnline(delay):
            guard !homeAssistantPending else { break }
            homeAssistantPending = true
            actions.append(.wake(.homeAssistant, at: now.addingTimeInterval(delay.timeInterval)))
        case .timer(.homeAssistant):
            homeAssistantPending = false
            guard connected else { break }
            actions.append(.log(.info, "Home Assistant restarted; republishing discovery and states"))
            republishEverything(now, &actions)
        case .timer(.health): note(health.due(at: now), &actions)
        case let .clockDrawn(key, result): clockDrawn(key, result, now, &actions)
        case let .undelivered(messages, failure): undelivered(messages, failure)
        case let .refused(topic, reason):
            guard refusedTopics.insert(topic ?? "").inserted else { break }
            let name = topic.map { Quote.clip($0) } ?? "a topic"
            actions.append(.log(.warning, "the broker refused a publish to \(name) (\(reason)); check its ACL for this client"))
        case .wentOffline: connected = false
        }
        return actions
    }
}
