import EnergyClockCore
import EnergyClockTesting
import Foundation
import Testing

@testable import EnergyClockPublisher

/// `health.json` as an output: its rules, fed events, without a broker or a file.
@Suite struct HealthOutputTests {
    let start = ContinuousClock.now
    let wall = at("2026-01-14T13:30:00+01:00")

    @Test func aChangeOfConnectionIsWrittenAtOnceAndOnlyWhenItIsNews() {
        var output = HealthOutput(now: wall)
        guard case let .write(first) = output.connection(false, at: wall, start) else {
            Issue.record("the first record is written")
            return
        }
        #expect(!first.connected && first.since == wall)
        #expect(output.connection(false, at: wall.addingTimeInterval(5), start + .seconds(5)) == .none, "no news")
        guard case let .write(up) = output.connection(true, at: wall.addingTimeInterval(6), start + .seconds(6)) else {
            Issue.record("coming up is news")
            return
        }
        #expect(up.connected && up.since == wall.addingTimeInterval(6))
    }

    @Test func publishesAreWrittenAtMostOnceASecondWithTheNewest() {
        var output = HealthOutput(now: wall)
        _ = output.connection(true, at: wall, start)
        // Within the second of that write: one wake-up for when it is over, however many publishes.
        #expect(output.published(ClockFixtures.normal, at: wall, start + .milliseconds(100)) == .wakeAt(start + .seconds(1)))
        #expect(output.published(ClockFixtures.normal, at: wall.addingTimeInterval(0.5), start + .milliseconds(500)) == .none)
        guard case let .write(record) = output.due(at: start + .seconds(1)) else {
            Issue.record("the waiting write is made when the second is over")
            return
        }
        #expect(record.publishedAt == wall.addingTimeInterval(0.5), "with the newest publish")
        // The normal fixture's current slot ends at 14:00, half an hour after its now.
        #expect(record.dueBy == wall.addingTimeInterval(0.5 + 1800))
        #expect(output.due(at: start + .seconds(2)) == .none, "nothing was waiting")
        // A second later, a publish is written at once.
        guard case .write = output.published(ClockFixtures.normal, at: wall.addingTimeInterval(3), start + .seconds(3)) else {
            Issue.record("a publish after the second is written at once")
            return
        }
    }
}
