import EnergyClockDomain
import Platform

extension MQTTPublisher {
    /// Takes the steps the state gives for `snapshots`, in turn.
    ///
    /// Publishes take turns: one that comes while another waits out its pause waits for it, so
    /// that an older snapshot's colour or day can never overtake a newer one's.
    func show(_ snapshots: [Snapshot], owingTheRest: Bool) async {
        await takeTurn()
        defer { passTurn() }
        var points: [String] = []
        for step in state.steps(showing: snapshots, owingTheRest: owingTheRest) {
            switch step {
            case let .event(event): points += handle(event).points
            case .yield: EventLoop.yieldProcessor()
            case let .pause(seconds): await MonotonicSleep.pause(seconds: seconds)
            }
        }
        if !points.isEmpty { await options.influx?.enqueue(points) }
    }

    /// Shows the next stage a settings change owes, in its turn.
    func showNextStage() async {
        await takeTurn()
        let points = handle(.nextStage).points
        passTurn()
        if !points.isEmpty { await options.influx?.enqueue(points) }
    }

    /// Waits for the turn to publish, which the publish before hands on.
    func takeTurn() async {
        if publishing {
            await withCheckedContinuation { waitingTurns.append($0) }
        } else {
            publishing = true
        }
    }

    /// Hands the turn to the publish waiting longest, if any.
    func passTurn() {
        if waitingTurns.isEmpty { publishing = false } else { waitingTurns.removeFirst().resume() }
    }
}
