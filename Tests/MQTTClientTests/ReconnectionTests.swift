import MQTTClient
import Testing

/// Reconnection, backoff and the broker list, on a clock the test moves: each failure is fed
/// with the time it happens, and the pause the client would take moves the clock on.
@Suite struct ReconnectionTests {
    /// Monotonic nanoseconds, moved only by the test.
    struct ManualClock {
        var now: UInt64 = 5_000_000_000
        mutating func advance(_ seconds: Double) { now += UInt64(seconds * 1e9) }
    }

    @Test func oneBrokerBacksOffDoublingUpToTheLongestPause() {
        var clock = ManualClock()
        var reconnection = Reconnection(brokers: 1, delays: 1...30)
        var pauses: [Double] = []
        for _ in 0..<8 {
            let step = reconnection.failed(upSince: nil, at: clock.now)
            #expect(step.broker == 0 && step.sameBroker)
            #expect(step.droppedRepeatedly == nil, "a connection that never came up is no drop")
            pauses.append(step.pause)
            clock.advance(step.pause)
        }
        #expect(pauses == [1, 2, 4, 8, 16, 30, 30, 30])
    }

    @Test func severalBrokersTakeTurnsAndTheBackoffGrowsOncePerRound() {
        var clock = ManualClock()
        var reconnection = Reconnection(brokers: 3, delays: 1...30)
        var steps: [Reconnection.Step] = []
        for _ in 0..<9 {
            let step = reconnection.failed(upSince: nil, at: clock.now)
            steps.append(step)
            clock.advance(step.pause)
        }
        #expect(steps.map(\.broker) == [1, 2, 0, 1, 2, 0, 1, 2, 0])
        #expect(steps.allSatisfy { !$0.sameBroker })
        // Between brokers of a round the shortest pause; after a whole round, the growing one.
        #expect(steps.map(\.pause) == [1, 1, 1, 1, 1, 2, 1, 1, 4])
    }

    @Test func aConnectionThatStaysUpStartsTheBackoffOver() {
        var clock = ManualClock()
        var reconnection = Reconnection(brokers: 1, delays: 1...30)
        for _ in 0..<4 {
            clock.advance(reconnection.failed(upSince: nil, at: clock.now).pause)
        }
        #expect(reconnection.delay == 16)
        // Up for 9.9 s: not yet stable, so the backoff goes on growing, and it counts as a quick drop.
        let upAt = clock.now
        clock.advance(9.9)
        let quick = reconnection.failed(upSince: upAt, at: clock.now)
        #expect(quick.pause == 16 && reconnection.quickDrops == 1)
        clock.advance(quick.pause)
        // Up for exactly the stable time: the next pause is the shortest again.
        let stableAt = clock.now
        clock.advance(Reconnection.stableAfter)
        let stable = reconnection.failed(upSince: stableAt, at: clock.now)
        #expect(stable.pause == 1 && reconnection.quickDrops == 0 && reconnection.delay == 2)
    }

    @Test func quickDropsAreToldOnceAtTheThirdInARow() {
        var clock = ManualClock()
        var reconnection = Reconnection(brokers: 1, delays: 1...30)
        var told: [Int?] = []
        for _ in 0..<5 {
            let upAt = clock.now
            clock.advance(0.2)  // accepted, then dropped at once: another client with our id
            let step = reconnection.failed(upSince: upAt, at: clock.now)
            told.append(step.droppedRepeatedly)
            clock.advance(step.pause)
        }
        #expect(told == [nil, nil, 3, nil, nil])
        // A failure to connect at all neither counts as a drop nor ends the series.
        _ = reconnection.failed(upSince: nil, at: clock.now)
        #expect(reconnection.quickDrops == 5)
    }

    @Test func aTimeFromBeforeTheFailureIsNeverStable() {
        // `upSince` after `now` cannot be, but if a clock stepped, it must not wrap into a long connection.
        var reconnection = Reconnection(brokers: 1, delays: 1...30)
        _ = reconnection.failed(upSince: nil, at: 100)
        let step = reconnection.failed(upSince: 200, at: 100)
        #expect(step.pause == 2 && reconnection.quickDrops == 1)
    }

}
