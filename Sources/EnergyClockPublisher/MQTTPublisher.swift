import EnergyClockDomain
import EnergyClockRuntime
import EnergyClockStore
import EnergyClockSupport
import FoundationEssentials
import Platform

/// Carries out what ``PublisherState`` decides: messages to the sink, `health.json` to the state
/// directory, drawings and wake-ups as tasks of ``run()``, log lines to the logger.
///
/// Everything that reaches the sink for one event happens before any suspension, so a newer
/// snapshot can never be overtaken by an older one.
package actor MQTTPublisher: ManagerOutput {
    let sink: any MessageSink
    let options: PublisherOptions
    let logger: Logger
    let clock: any WallClock
    /// Where `health.json` goes, for `energyclock health`; nil for none.
    let healthDirectory: StateDirectory?
    var state: PublisherState
    /// The topic of each recent publish by message id, to name a publish the broker refuses.
    var topicsByMessageID: [Int32: String] = [:]
    /// Where the ledger of retained topics is kept between runs, once ``keepLedger(with:)`` set it.
    var ledgerKeeper: (@Sendable (Set<String>) async -> Void)?
    /// The newest ledger: every retained topic published now; nil before the first connect.
    package private(set) var newestLedger: Set<String>?
    /// The stages of settings changes not yet shown, and the answers that wait for them.
    var owed = OwedStages()
    /// A publish holds the turn; those that came during it wait in ``waitingTurns``, oldest first.
    var publishing = false
    var waitingTurns: [CheckedContinuation<Void, Never>] = []
    let jobs: AsyncStream<PublisherState.Action>
    let newJob: AsyncStream<PublisherState.Action>.Continuation

    /// A publisher that sends to `sink` for `topics`, on time from `clock`.
    package init(
        sink: any MessageSink, topics: TopicTree, options: PublisherOptions = PublisherOptions(), logger: Logger,
        health: StateDirectory? = nil, clock: any WallClock = SystemClock()
    ) {
        self.sink = sink
        self.options = options
        self.logger = logger
        self.clock = clock
        healthDirectory = health
        state = PublisherState(topics: topics, options: options, now: clock.now)
        (jobs, newJob) = AsyncStream.makeStream()
    }

    /// Shows `snapshot` on its profile's retained topics, lights and line-protocol topic.
    package func publish(_ snapshot: Snapshot) async { await publish(all: [snapshot]) }

    /// Shows every profile's snapshot: the prices of all, then the rest of what describes now of
    /// each, then the day's payloads.
    ///
    /// Publishes take turns: one that comes while another waits out its pause waits for it, so
    /// that an older snapshot's colour or day can never overtake a newer one's.
    package func publish(all snapshots: [Snapshot]) async {
        await takeTurn()
        defer { passTurn() }
        let boundary = state.movesToNextSlot(snapshots)
        await showCurrent(snapshots)
        if boundary {
            // What else a boundary changes (the windows and forecasts from now on) can wait a
            // moment: rendered at once, it took a core from the broker and the subscribers while
            // they forwarded `price` (p99 at a subscriber 4-8 ms; 1.6-2.1 ms with the pause).
            await MonotonicSleep.pause(seconds: options.boundaryPause)
        } else {
            // The MQTT thread, woken to send what describes now, often waits on this core: without
            // the yield it waited for the day's payloads to be rendered, 2-3 ms.
            EventLoop.yieldProcessor()
        }
        let points = handle(.snapshots(snapshots)).points
        owed.drop(snapshots.map(\.profile))
        answerWhenCaughtUp()
        if !points.isEmpty { await options.influx?.enqueue(points) }
    }

    /// Shows what describes now of each snapshot, and owes the rest to ``catchUp(unless:)``: for a
    /// settings change, whose colour then leaves before the day's payloads are even rendered.
    /// Shows everything at once, as ``publish(all:)``, at a slot boundary, for a profile seen for
    /// the first time and while disconnected.
    package func publishCurrent(all snapshots: [Snapshot]) async {
        guard state.connected, state.holdsAll(snapshots), !state.movesToNextSlot(snapshots) else {
            await publish(all: snapshots)
            return
        }
        await takeTurn()
        defer { passTurn() }
        await showCurrent(snapshots)
        EventLoop.yieldProcessor()
        owed.add(snapshots)
    }

    /// Shows what ``publishCurrent(all:)`` owes, a stage at a time, and then the answers that
    /// waited for it; before each stage, what the broker sent meanwhile is read and its tasks run.
    /// Returns true once nothing is owed, false as soon as `interrupted` is true before a stage:
    /// a newer change is to go first, and its snapshot replaces the one owed. With
    /// ``answersHeldAtMost`` answers waiting it no longer stops: a flood of changes that never
    /// pauses still gets its answers, and they are never held without bound.
    package func catchUp(unless interrupted: @Sendable () -> Bool) async -> Bool {
        while !owed.isEmpty {
            await EventLoop.giveWay()
            if owed.answersHeld < Self.answersHeldAtMost, interrupted() { return false }
            await takeTurn()
            // A publish during the pause may have shown it all, or owed a newer snapshot.
            if let stage = owed.stage {
                let points = handle(.stage(stage, owed.snapshots)).points
                owed.advance()
                if !points.isEmpty { await options.influx?.enqueue(points) }
            }
            answerWhenCaughtUp()
            passTurn()
        }
        return true
    }

    /// How many answers may wait for what is owed before a catch-up runs to its end regardless.
    static let answersHeldAtMost = 256

    /// The prices of all `snapshots`, then the colour of each, then their slot objects.
    private func showCurrent(_ snapshots: [Snapshot]) async {
        handle(.prices(snapshots))
        // With many profiles, a pause of 2 ms lets the broker forward every price before it reads
        // the hundreds of messages that follow; sent at once, the last price waits behind them
        // (median 4.2 ms at a subscriber with 40 profiles, 2.8 ms with the pause). A pacing delay,
        // not a time of day: real time, whatever the clock.
        if snapshots.count > 1 { await MonotonicSleep.pause(seconds: options.profilePause) } else { EventLoop.yieldProcessor() }
        // One wake-up of the MQTT thread for both.
        sink.together {
            handle(.current(snapshots))
            expectNextBoundary(of: snapshots)
        }
        // The colour, a few bytes that lights and a settings change wait for, leaves before the
        // slot objects are rendered: they were a quarter of the work between the store's sync and
        // the colour (46,000 of 173,000 instructions).
        EventLoop.yieldProcessor()
        handle(.slots(snapshots))
    }

    /// Lets the connection be ready for the prices of the earliest next slot of `snapshots`.
    private func expectNextBoundary(of snapshots: [Snapshot]) {
        guard let boundary = snapshots.lazy.compactMap(\.current?.slot.end).min() else { return }
        sink.expectSend(in: boundary.timeIntervalSince(clock.now))
    }

    /// Waits for the turn to publish, which the publish before hands on.
    private func takeTurn() async {
        if publishing {
            await withCheckedContinuation { waitingTurns.append($0) }
        } else {
            publishing = true
        }
    }

    /// Hands the turn to the publish waiting longest, if any.
    private func passTurn() {
        if waitingTurns.isEmpty { publishing = false } else { waitingTurns.removeFirst().resume() }
    }

    /// Sends the answers kept while stages were owed, once none is.
    private func answerWhenCaughtUp() {
        for outcome in owed.takeAnswers() { handle(.answered(outcome)) }
    }

    /// Clears the removed profile's retained topics and Home Assistant entities.
    ///
    /// It takes its turn like every publish: a boundary's publish that holds the turn (in its pause)
    /// would otherwise show the removed profile again after it, and keep it.
    package func removed(profile name: String) async {
        await takeTurn()
        defer { passTurn() }
        owed.drop([name])
        handle(.removed(profile: name))
        answerWhenCaughtUp()
    }

    /// Keeps every later ledger (the retained topics published, after a profile came or went)
    /// with `keeper`, so that the next start clears what is no longer published.
    package func keepLedger(with keeper: @escaping @Sendable (Set<String>) async -> Void) { ledgerKeeper = keeper }

    /// Answers a settings request on `settings/result`, and on its own response topic with MQTT 5;
    /// after what ``catchUp(unless:)`` still owes, if anything.
    package func report(_ outcome: SettingsOutcome) {
        if !owed.hold(outcome) { handle(.answered(outcome)) }
    }

    /// After a (re)connect: subscribe, announce, republish and clear what `previouslyRetained`
    /// holds that is no longer published; returns every retained topic now published.
    package func connectionUp(_ snapshots: [Snapshot], previouslyRetained: Set<String> = [], broker: String? = nil) -> Set<String> {
        // Everything is republished from these, the newest snapshots: nothing older is owed.
        owed.drop(snapshots.map(\.profile))
        defer { answerWhenCaughtUp() }
        expectNextBoundary(of: snapshots)
        return handle(.connected(snapshots, previouslyRetained: previouslyRetained, broker: broker)).ledger ?? []
    }

    /// ``connectionUp(_:previouslyRetained:broker:)-([Snapshot],_,_)`` with the first profile only.
    package func connectionUp(_ snapshot: Snapshot, previouslyRetained: Set<String> = [], broker: String? = nil) -> Set<String> {
        connectionUp([snapshot], previouslyRetained: previouslyRetained, broker: broker)
    }

    /// Returns once every `health.json` decided so far is on disk: they are written on a thread of
    /// their own.
    package func healthWritten() async { await FileWriter.shared.flush() }

    /// The connection dropped; stop sending until it is back.
    package func connectionDown() { handle(.disconnected) }

    /// Home Assistant restarted: announce again after a short random delay, so that many devices
    /// do not answer at the same instant; `online`s during the delay lead to one republish.
    package func homeAssistantRestarted(delay: Duration? = nil) {
        handle(.homeAssistantOnline(delay: delay ?? .milliseconds(Int64.random(in: options.homeAssistantDelay))))
    }

    /// Another client wrote to `topic` under the daemon's prefix: what the daemon holds there goes back.
    package func overwritten(topic: String) { handle(.overwritten(topic: topic)) }

    /// The broker refused a publish: warn once per topic, naming it, so a missing ACL entry is found.
    package func publishRefused(messageID: Int32, reason: String) { handle(.refused(topic: topicsByMessageID[messageID], reason: reason)) }

    /// Publishes `offline` and waits up to `timeout` seconds for the broker to take it.
    package func goOffline(timeout: Double = 1) async {
        guard state.connected else { return }
        // What a settings change still owes, and its answer, go before `offline`.
        _ = await catchUp { false }
        do {
            let message = OutgoingMessage(state.topics.status, "offline", retain: true)
            if try await !sink.sendAcknowledged(message, timeout: timeout) {
                logger.warning("broker did not acknowledge offline within \(timeout) s")
            }
        } catch {
            logger.warning("\(error)")
        }
        handle(.wentOffline)
    }

    /// Feeds `event` to the state and carries out the actions; returns the points for InfluxDB and
    /// the ledger, which the caller awaits or keeps.
    @discardableResult
    func handle(_ event: PublisherState.Event) -> (points: [String], ledger: Set<String>?) {
        var points: [String] = []
        var ledger: Set<String>?
        var undelivered: [OutgoingMessage] = []
        var failure: SinkFailure?
        // Everything one event sends goes to the connection together: one wake-up of the MQTT
        // thread and as few segments as the messages fit in.
        let actions = EventLoop.doing("rendering topics") { state.handle(event, at: clock.now) }
        sink.together {
            for action in actions {
                switch action {
                case let .send(message) where failure == .notConnected:
                    undelivered.append(message)
                case let .send(message):
                    do throws(SinkFailure) {
                        let messageID = try sink.send(message)
                        if topicsByMessageID.count >= 4096 { topicsByMessageID.removeAll(keepingCapacity: true) }
                        topicsByMessageID[messageID] = message.topic
                        logger.debug("published \(message.topic) (\(message.body.count) bytes)")
                    } catch {
                        if error != .notConnected { logger.error("\(error)") }
                        undelivered.append(message)
                        // A lost connection stops the rest; it is what the state hears of, over a refusal.
                        if failure == nil || error == .notConnected { failure = error }
                    }
                case let .subscribe(filter, retainAsPublished, othersOnly):
                    do throws(SinkFailure) {
                        try sink.subscribe(filter, retainAsPublished: retainAsPublished, othersOnly: othersOnly)
                    } catch {
                        logger.error("\(error)")
                    }
                case let .writeHealth(record):
                    guard let healthDirectory else { continue }
                    // Off the loop: a rename can wait on the file system's journal for milliseconds.
                    let logger = logger
                    record.write(to: healthDirectory, with: .shared) { logger.warning("\($0)") }
                case .draw, .wake: newJob.yield(action)
                case let .record(point): points.append(point)
                case let .log(level, line): logger.log(level, line)
                case let .ledger(owned):
                    ledger = owned
                    newestLedger = owned
                    // The connect's ledger goes back to the caller, who keeps it; later ones a job keeps.
                    if case .connected = event {} else { newJob.yield(action) }
                }
            }
        }
        if let failure { handle(.undelivered(undelivered, failure)) }
        return (points, ledger)
    }
}
