import EnergyClockDomain
import EnergyClockFace
import EnergyClockStore
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
        /// `broker` accepted the connection, with these snapshots of the profiles (the first first);
        /// `previouslyRetained` is the ledger of the last one.
        case connected([Snapshot], previouslyRetained: Set<String>, broker: String?)
        /// The connection dropped, or the broker refused it.
        case disconnected
        /// The manager has new snapshots of every profile: what describes now goes out for all
        /// of them before any of the day's larger payloads.
        case snapshots([Snapshot])
        /// Only the current prices of new snapshots, which profiles already shown hold as their
        /// newest from then on; ``current(_:)``, ``slots(_:)`` and ``snapshots(_:)`` (or every
        /// ``Stage``) with the same ones follow. Events of their own, so that the prices leave
        /// before the colour is rendered, and the colour before the slot objects.
        case prices([Snapshot])
        /// Only the colour of now and the stale flag of snapshots whose prices are out; ``slots(_:)``
        /// with the same ones follows.
        case current([Snapshot])
        /// Only the slot objects, `current` and `next`, of snapshots whose colour is out;
        /// ``snapshots(_:)`` or ``owe(_:)`` with the same ones follows.
        case slots([Snapshot])
        /// The rest of snapshots whose price and what describes now are out is owed, every
        /// ``Stage`` in turn, to ``nextStage``.
        case owe([Snapshot])
        /// The catch-up's turn: the next stage owed, if any, and the answers once none is.
        case nextStage
        /// The profile was removed: its topics and entities are cleared.
        case removed(profile: String)
        /// A settings request was handled.
        case answered(SettingsOutcome)
        /// Home Assistant said `online`; it is answered after `delay`.
        case homeAssistantOnline(delay: Duration)
        /// A wake-up asked for by ``Action/wake(_:at:)`` is due.
        case timer(Timer)
        /// A profile's drawing ended: with pictures, with a failure, or stopped (nil).
        case clockDrawn(profile: String, ClockOutput.Key, Result<Pictures, ClockRenderer.Failure>?)
        /// These messages did not reach the connection, for this reason; later ones were not tried
        /// once it said `notConnected`.
        case undelivered([OutgoingMessage], SinkFailure)
        /// The broker refused a publish to `topic` (nil when it is no longer known).
        case refused(topic: String?, reason: String)
        /// Another client wrote to `topic`, under the daemon's prefix: what the daemon holds there
        /// goes back.
        case overwritten(topic: String)
        /// `offline` was announced at shutdown; nothing more is sent.
        case wentOffline
    }

    /// The steps of showing snapshots after what describes now, in the order they are taken:
    /// steps of their own, so that a settings change that came meanwhile can go between them.
    enum Stage: Equatable {
        /// The discovery configs whose unit or jobs changed, and the lights.
        case devices
        /// One group of the day's payloads.
        case day(DayPiece)
        /// The list of profiles, the clocks' pictures, the day-ahead event, the line-protocol
        /// points and `health.json`.
        case rest

        /// Every step, in order.
        static let all: [Stage] = [.devices] + DayPiece.allCases.map(Stage.day) + [.rest]
    }

    /// What a wake-up is for.
    enum Timer: Equatable {
        /// The delay after Home Assistant's `online` is over.
        case homeAssistant
        /// The second after the last `health.json` write is over.
        case health
        /// The second after the last restoring of an overwritten topic is over.
        case restore
    }

    /// What the publisher is to do, in order.
    enum Action {
        /// Subscribe to a command topic, or (`othersOnly`) to what other clients write to the
        /// daemon's own state topics.
        case subscribe(String, retainAsPublished: Bool, othersOnly: Bool)
        /// Hand a message to the connection; after a `notConnected`, the rest are not tried.
        case send(OutgoingMessage)
        /// Draw the profile's clock at `at` (now or within a second) and report it as `key`.
        case draw(ClockFace, profile: String, key: ClockOutput.Key, at: Date)
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
        /// Let the connection be ready to send in this many seconds: the next slot's prices.
        case expectSend(in: Double)
        /// Stages are owed: feed ``Event/nextStage`` until none is, giving way before each and
        /// stopping while a settings request waits (unless ``answersHeldAtMost`` answers do).
        case catchUp
    }

    let topics: TopicTree
    let options: PublisherOptions
    let homeAssistantStatus: String?
    var connected = false
    /// What is shown of each profile, by name.
    var views: [String: ProfileView] = [:]
    /// The profiles' names, the first first.
    var order: [String] = [Profiles.firstName]
    /// The payload last sent on `profiles`, nil when it is not held (one profile only).
    var profilesShown: String?
    var answers: SettingsAnswers
    var health: HealthOutput
    /// A republish for Home Assistant's `online` is waiting out its delay; more `online`s join it.
    var homeAssistantPending = false
    /// Topics whose refusal was already logged; one warning per topic is enough.
    var refusedTopics: Set<String> = []
    /// Overwritten topics: when each was last put back, which wait for the next second, and which
    /// were logged (once each).
    var restored = StateGuard()
    /// The stages of settings changes not yet shown, and the answers that wait for them.
    var owed = OwedStages()

    /// A publisher for `topics` with `options` that has sent nothing and is not connected since `now`.
    init(topics: TopicTree, options: PublisherOptions, now: Date) {
        self.topics = topics
        self.options = options
        homeAssistantStatus = options.homeAssistantStatus
        answers = SettingsAnswers(topics: topics)
        health = HealthOutput(now: now)
        views[Profiles.firstName] = ProfileView(name: Profiles.firstName, root: topics, options: options)
    }

    /// The first profile's newest snapshot.
    var latest: Snapshot? {
        // Through the index, as below: `views[name]?.latest` copies the whole view first.
        guard let index = views.index(forKey: Profiles.firstName) else { return nil }
        return views.values[index].latest
    }

    /// Whether every one of `snapshots` is of a profile already held.
    func holdsAll(_ snapshots: [Snapshot]) -> Bool {
        // `index(forKey:)`, not `views[…] != nil`, which would copy every view at every boundary,
        // and by index: a closure over the elements copied each snapshot.
        snapshots.indices.allSatisfy { views.index(forKey: snapshots[$0].profile) != nil }
    }

    /// Whether `snapshots` move a profile already shown on to another slot: a slot boundary, not
    /// a change of settings or prices within the slot, nor the first prices of a profile.
    func movesToNextSlot(_ snapshots: [Snapshot]) -> Bool {
        snapshots.indices.contains { index in
            // Through the index: `views[name]?.latest` would copy the whole view.
            guard let held = views.index(forKey: snapshots[index].profile), let shown = views.values[held].latest?.current?.slot.start,
                let current = snapshots[index].current?.slot.start
            else { return false }
            return shown != current
        }
    }

    /// What to do about `event`, which happened at `now`.
    mutating func handle(_ event: Event, at now: Date) -> [Action] {
        var actions: [Action] = []
        switch event {
        case let .connected(snapshots, previous, broker):
            expectNextBoundary(of: snapshots, now, &actions)
            connect(snapshots, previous, broker, now, &actions)
            // Everything is republished from these, the newest snapshots: nothing older is owed.
            shownWhole(snapshots.map(\.profile), &actions)
        case .disconnected:
            connected = false
            note(health.connection(false, at: now), &actions)
        case let .snapshots(snapshots):
            show(snapshots, now, &actions)
            shownWhole(snapshots.map(\.profile), &actions)
        case let .prices(snapshots):
            // The newest of profiles already shown from here on, for the stages that follow too,
            // connected or not: once per change, the first thing the publisher hears of it.
            if holdsAll(snapshots) { for index in snapshots.indices { hold(snapshots[index]) } }
            showCurrent(snapshots, [.price], &actions)
        case let .current(snapshots):
            showCurrent(snapshots, [.color], &actions)
            expectNextBoundary(of: snapshots, now, &actions)
        case let .slots(snapshots): showCurrent(snapshots, [.slots], &actions)
        case let .owe(snapshots): owe(snapshots, &actions)
        case .nextStage: showNextStage(now, &actions)
        case let .removed(name):
            remove(name, now, &actions)
            shownWhole([name], &actions)
        case let .answered(outcome): answer(outcome, &actions)
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
        case let .overwritten(topic): restore(topic, now, &actions)
        case .timer(.restore): restoreWaiting(now, &actions)
        case let .clockDrawn(name, key, result): clockDrawn(name, key, result, now, &actions)
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
