import EnergyClockRuntime
import EnergyClockTesting
import Foundation
import Testing

@Suite struct ScheduleTests {
    let now = at("2026-03-29T10:00:00Z")
    let later = at("2026-03-29T11:00:00Z")

    @Test func fetchesWhenSomethingIsMissingAndWaitsOtherwise() {
        let schedule = RefreshSchedule()
        #expect(schedule.decide(now: now, need: .init(today: true, tomorrow: false), nextEvent: later) == .fetch)
        #expect(schedule.decide(now: now, need: .init(today: false, tomorrow: false), nextEvent: later) == .wait(until: later))
    }

    @Test func backsOffExponentiallyWithJitterUpToTheCap() {
        var schedule = RefreshSchedule()
        let need = RefreshSchedule.Need(today: true, tomorrow: false)
        var delays: [TimeInterval] = []
        for _ in 0..<8 {
            schedule.failed(at: now, jitter: 0)
            guard case let .wait(until) = schedule.decide(now: now, need: need, nextEvent: .distantFuture) else {
                Issue.record("expected a wait")
                return
            }
            delays.append(until.timeIntervalSince(now))
        }
        #expect(delays == [30, 60, 120, 240, 480, 900, 900, 900])
        schedule.failed(at: now, jitter: 1)
        #expect(schedule.notBefore == now.addingTimeInterval(900 * 1.2))
        schedule.failed(at: now, jitter: -1)
        #expect(schedule.notBefore == now.addingTimeInterval(900 * 0.8))
        #expect(schedule.decide(now: now.addingTimeInterval(720), need: need, nextEvent: .distantFuture) == .fetch)
    }

    @Test func pollsAgainAfterASuccessThatLeftSomethingMissing() {
        var schedule = RefreshSchedule()
        schedule.failed(at: now, jitter: 0)
        schedule.succeeded(at: now, stillNeeded: true, jitter: 0.5)
        #expect(schedule.failures == 0)
        #expect(schedule.notBefore == now.addingTimeInterval(300 * 1.1))
        // The next slot boundary comes first, so it wakes for that.
        #expect(
            schedule.decide(now: now, need: .init(today: false, tomorrow: true), nextEvent: now.addingTimeInterval(60))
                == .wait(until: now.addingTimeInterval(60)))
        schedule.succeeded(at: now, stillNeeded: false, jitter: 0)
        #expect(schedule.notBefore == nil)
    }

    @Test func aRequestedFetchHappensEvenWithNothingMissing() {
        var schedule = RefreshSchedule()
        schedule.requestFetch()
        #expect(schedule.decide(now: now, need: .init(today: false, tomorrow: false), nextEvent: later) == .fetch)
        schedule.succeeded(at: now, stillNeeded: false, jitter: 0)
        #expect(schedule.decide(now: now, need: .init(today: false, tomorrow: false), nextEvent: later) == .wait(until: later))
    }
}
