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
    package internal(set) var newestLedger: Set<String>?
    /// Whether a settings request waits to be applied: the catch-up gives it way.
    var requestWaits: @Sendable () -> Bool = { false }
    /// Rung when stages are owed, or an answer waits for them: the catch-up's task wakes.
    let owing = Doorbell()
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
    /// each, then the day's payloads (``PublisherState/steps(showing:owingTheRest:)``).
    package func publish(all snapshots: [Snapshot]) async { await show(snapshots, owingTheRest: false) }

    /// Shows what describes now of each snapshot, and owes the rest to the catch-up: for a
    /// settings change, whose colour then leaves before the day's payloads are even rendered.
    package func publishCurrent(all snapshots: [Snapshot]) async { await show(snapshots, owingTheRest: true) }

    /// Clears the removed profile's retained topics and Home Assistant entities.
    ///
    /// It takes its turn like every publish: a boundary's publish that holds the turn (in its pause)
    /// would otherwise show the removed profile again after it, and keep it.
    package func removed(profile name: String) async {
        await takeTurn()
        defer { passTurn() }
        handle(.removed(profile: name))
    }

    /// Keeps every later ledger (the retained topics published, after a profile came or went)
    /// with `keeper`, so that the next start clears what is no longer published.
    package func keepLedger(with keeper: @escaping @Sendable (Set<String>) async -> Void) { ledgerKeeper = keeper }

    /// Answers a settings request on `settings/result`, and on its own response topic with MQTT 5;
    /// after what the catch-up still owes, if anything.
    package func report(_ outcome: SettingsOutcome) { handle(.answered(outcome)) }

    /// After a (re)connect: subscribe, announce, republish and clear what `previouslyRetained`
    /// holds that is no longer published; returns every retained topic now published.
    package func connectionUp(_ snapshots: [Snapshot], previouslyRetained: Set<String> = [], broker: String? = nil) -> Set<String> {
        handle(.connected(snapshots, previouslyRetained: previouslyRetained, broker: broker)).ledger ?? []
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
        while state.owesStages { await showNextStage() }
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
}
