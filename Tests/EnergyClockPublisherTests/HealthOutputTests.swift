import EnergyClockDomain
import EnergyClockStore
import EnergyClockTesting
import Foundation
import Testing

@testable import EnergyClockPublisher

/// `health.json` as an output: its rules, fed events, without a broker or a file.
@Suite struct HealthOutputTests {
    let wall = at("2026-01-14T13:30:00+01:00")

    func after(_ seconds: Double) -> Date { wall.addingTimeInterval(seconds) }

    @Test func aChangeOfConnectionIsWrittenAtOnceAndOnlyWhenItIsNews() {
        var output = HealthOutput(now: wall)
        guard case let .write(first) = output.connection(false, at: wall) else {
            Issue.record("the first record is written")
            return
        }
        #expect(!first.connected && first.since == wall)
        #expect(output.connection(false, at: after(5)) == .none, "no news")
        guard case let .write(up) = output.connection(true, at: after(6)) else {
            Issue.record("coming up is news")
            return
        }
        #expect(up.connected && up.since == after(6))
    }

    @Test func publishesAreWrittenAtMostOnceASecondWithTheNewest() {
        var output = HealthOutput(now: wall)
        _ = output.connection(true, at: wall)
        // Within the second of that write: one wake-up for when it is over, however many publishes.
        #expect(output.published([ClockFixtures.normal], at: after(0.1)) == .wakeAt(after(1)))
        #expect(output.published([ClockFixtures.normal], at: after(0.5)) == .none)
        guard case let .write(record) = output.due(at: after(1)) else {
            Issue.record("the waiting write is made when the second is over")
            return
        }
        #expect(record.publishedAt == after(0.5), "with the newest publish")
        // The normal fixture's current slot ends at 14:00, half an hour after its now.
        #expect(record.dueBy == after(0.5 + 1800))
        #expect(output.due(at: after(2)) == .none, "nothing was waiting")
        // A second later, a publish is written at once.
        guard case .write = output.published([ClockFixtures.normal], at: after(3)) else {
            Issue.record("a publish after the second is written at once")
            return
        }
    }

    @Test func everyProfileHasItsOwnPublicationUntilItIsRemoved() {
        var output = HealthOutput(now: wall)
        _ = output.connection(true, at: wall)
        var export = ClockFixtures.normal
        export.profile = "export"
        export.stale = true
        guard case let .write(record) = output.published([ClockFixtures.normal, export], at: after(2)) else {
            Issue.record("one write for both profiles")
            return
        }
        #expect(record.publishedAt == after(2) && !record.stale)
        #expect(record.profiles["export"]?.stale == true)
        #expect(record.profiles["export"]?.dueBy == after(2 + 960), "stale: a retry within 16 minutes")
        guard case let .write(gone) = output.removed("export", at: after(4)) else {
            Issue.record("a removed profile leaves the record")
            return
        }
        #expect(gone.profiles.isEmpty)
        #expect(output.removed("export", at: after(6)) == .none, "no news")
    }

    @Test func aMoveToAnotherBrokerIsNewsAndTheRecordNamesIt() throws {
        var output = HealthOutput(now: wall)
        guard case let .write(first) = output.connection(true, at: wall, broker: "a.lan:1883") else {
            Issue.record("the first connection is written")
            return
        }
        #expect(first.broker == "a.lan:1883")
        guard case let .write(moved) = output.connection(true, at: after(5), broker: "b.lan:1883") else {
            Issue.record("a connection to another broker is news")
            return
        }
        #expect(moved.broker == "b.lan:1883" && moved.connected)
        #expect(output.connection(true, at: after(6), broker: "b.lan:1883") == .none)
        // The file keeps it, and a broker field that is not a short printable text is no record.
        let directory = try StateDirectory(path: temporaryDirectory().path)
        try moved.write(to: directory)
        #expect(HealthRecord.read(from: directory)?.broker == "b.lan:1883")
        #expect(HealthRecord.parse(Array(#"{"connected":true,"since":1768393800,"broker":"a\u0007b"}"#.utf8)) == nil)
        #expect(HealthRecord.parse(Array(#"{"connected":true,"since":1768393800,"broker":7}"#.utf8)) == nil)
        let long = String(repeating: "h", count: 301)
        #expect(HealthRecord.parse(Array(#"{"connected":true,"since":1768393800,"broker":"\#(long)"}"#.utf8)) == nil)
    }

    @Test func aClockSetBackDoesNotHoldUpTheNextWrite() {
        var output = HealthOutput(now: wall)
        _ = output.connection(true, at: wall)
        // An hour back: the last write lies in the future, which must not hold this one up.
        guard case let .write(record) = output.published([ClockFixtures.normal], at: after(-3600)) else {
            Issue.record("a write after the clock was set back is made at once")
            return
        }
        #expect(record.publishedAt == after(-3600))
    }
}
