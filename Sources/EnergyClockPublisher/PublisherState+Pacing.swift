import EnergyClockDomain
import FoundationEssentials

extension PublisherState {
    /// One step of showing new snapshots: an event for the state, or a moment given to the broker
    /// and the MQTT thread between two.
    ///
    /// The pauses and yields are tuning, each with the figure it buys (docs/performance.md, "What
    /// is tuned"); the order of the events is a rule: a profile's price leaves before its colour,
    /// its colour before its slot objects, and those before the day's payloads.
    enum Step {
        /// Feed this event to the state and carry out its actions.
        case event(Event)
        /// Let the MQTT thread, woken to send what was queued, have the core.
        case yield
        /// Wait this many seconds of real time, whatever the clock: a pacing delay, not a time of day.
        case pause(Double)
    }

    /// How many answers may wait for what is owed before a catch-up runs to its end regardless:
    /// a flood of changes that never pauses still gets its answers, never held without bound.
    static let answersHeldAtMost = 256

    /// The steps of showing `snapshots`: every price, then every colour, then the slot objects, and
    /// then the rest; for a settings change (`owingTheRest`) the rest is owed, stage by stage, to
    /// the catch-up (``Action/catchUp``), so that a change that comes meanwhile goes first.
    ///
    /// Everything is shown at once at a slot boundary, for a profile seen for the first time and
    /// while disconnected.
    func steps(showing snapshots: [Snapshot], owingTheRest: Bool) -> [Step] {
        // Before the prices: they make these snapshots the profiles' newest.
        let boundary = movesToNextSlot(snapshots)
        let owes = owingTheRest && connected && holdsAll(snapshots) && !boundary
        var steps: [Step] = [.event(.prices(snapshots))]
        steps.reserveCapacity(7)
        // Tuning: with many profiles, a pause of 2 ms lets the broker forward every price before
        // it reads the hundreds of messages that follow (the last price at a subscriber: median
        // 4.2 ms with 40 profiles sent at once, 2.8 ms with the pause).
        steps.append(snapshots.count > 1 ? .pause(options.profilePause) : .yield)
        steps.append(.event(.current(snapshots)))
        // Tuning: the colour, a few bytes that lights and a settings change wait for, leaves
        // before the slot objects are rendered: on one core (or under callgrind, one thread at a
        // time) the path to `color` is 226,800 instructions with the yield and 281,500 without.
        // Kept for one-core machines, though on two it lengthens the round trip's tail (p99
        // 1.5–4.5 ms with it, 0.8–0.9 ms without; three runs in turns).
        steps.append(.yield)
        steps.append(.event(.slots(snapshots)))
        // Tuning: at a boundary, the windows and forecasts from now on wait a moment; rendered at
        // once they took a core from the broker and the subscribers while those forwarded `price`
        // (p99 at a subscriber 4-8 ms; 1.6-2.1 ms with the pause). Otherwise the MQTT thread, woken
        // to send what describes now, waited for the day's payloads: 2-3 ms.
        steps.append(boundary ? .pause(options.boundaryPause) : .yield)
        steps.append(.event(owes ? .owe(snapshots) : .snapshots(snapshots)))
        return steps
    }

    /// Whether a settings change still owes stages.
    var owesStages: Bool { !owed.isEmpty }

    /// Whether a catch-up stops for a request that waits: not once ``answersHeldAtMost`` answers do.
    var yieldsToRequests: Bool { owed.answersHeld < Self.answersHeldAtMost }

    /// Owes every stage of `snapshots` after what describes now, replacing older ones owed.
    mutating func owe(_ snapshots: [Snapshot], _ actions: inout [Action]) {
        owed.add(snapshots)
        actions.append(.catchUp)
    }

    /// Shows the next stage owed, if any, and then the answers, once nothing is owed.
    mutating func showNextStage(_ now: Date, _ actions: inout [Action]) {
        if let stage = owed.stage {
            show(stage, of: owed.snapshots, now, &actions)
            owed.advance()
        }
        answerWhenCaughtUp(&actions)
    }

    /// Answers a settings request, or keeps the answer until what it answers is shown; a kept
    /// answer starts a catch-up that a waiting request stopped.
    mutating func answer(_ outcome: SettingsOutcome, _ actions: inout [Action]) {
        if owed.hold(outcome) {
            actions.append(.catchUp)
            return
        }
        guard connected else { return }
        if case let .failure(error) = outcome.result, let line = answers.logLine(for: error) { actions.append(.log(.warning, line)) }
        // To the tree it was sent to, also when that profile is gone or never was.
        let tree = outcome.profile == Profiles.firstName ? topics : views[outcome.profile]?.topics ?? topics.profile(outcome.profile)
        let settings = views[outcome.profile]?.shownSettings()
        actions += answers.messages(for: outcome, topics: tree, settings: settings).map(Action.send)
    }

    /// Owes nothing more of the profiles in `names`, shown whole or removed, and sends the answers
    /// kept for them once nothing else is owed.
    mutating func shownWhole(_ names: [String], _ actions: inout [Action]) {
        owed.drop(names)
        answerWhenCaughtUp(&actions)
    }

    /// Sends the answers kept while stages were owed, once none is.
    mutating func answerWhenCaughtUp(_ actions: inout [Action]) {
        for outcome in owed.takeAnswers() { answer(outcome, &actions) }
    }

    /// Lets the connection be ready for the prices of the earliest next slot of `snapshots`.
    func expectNextBoundary(of snapshots: [Snapshot], _ now: Date, _ actions: inout [Action]) {
        guard let boundary = snapshots.lazy.compactMap(\.current?.slot.end).min() else { return }
        actions.append(.expectSend(in: boundary.timeIntervalSince(now)))
    }
}
