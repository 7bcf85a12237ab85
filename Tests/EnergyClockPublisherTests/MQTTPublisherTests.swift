import EnergyClockDomain
import EnergyClockStore
import EnergyClockTesting
import Foundation
import Testing

@testable import EnergyClockPublisher

/// The publisher as it runs: its actions carried out against a recording sink, on a test clock,
/// with its drawings and wake-ups in its own task group. No broker.
@Suite struct MQTTPublisherTests {
    let topics = TopicTree()
    let start = at("2026-01-14T13:30:00+01:00")

    /// Polls `condition` on real time, briefly, for work a task does after the clock moved.
    func eventually(_ condition: () -> Bool) async -> Bool {
        for _ in 0..<2000 {
            if condition() { return true }
            try? await Task.sleep(for: .milliseconds(2))
        }
        return condition()
    }

    /// A publisher over `sink` that runs while `body` does.
    func withPublisher(
        _ sink: RecordingSink, clock: ManualClock, discovery: Bool = false, log: CapturingLogHandler = CapturingLogHandler(),
        health: StateDirectory? = nil, profilePause: Double = 0.002, boundaryPause: Double = 0.004, jobs: Bool = true,
        _ body: (MQTTPublisher) async throws -> Void
    ) async throws {
        var options = PublisherOptions(discovery: discovery ? HADiscovery(sources: ["energyzero"]) : nil, clockImage: false)
        options.profilePause = profilePause
        options.boundaryPause = boundaryPause
        let publisher = MQTTPublisher(
            sink: sink, topics: topics, options: options, logger: Logger(label: "publisher", level: .debug, handler: log),
            health: health, clock: clock)
        try await withThrowingTaskGroup(of: Void.self) { group in
            // Without its jobs, nothing is drawn, woken or caught up but what the test calls.
            if jobs { group.addTask { await publisher.run() } }
            defer { group.cancelAll() }
            try await body(publisher)
        }
    }

    @Test func aLostConnectionStopsTheRestAndAReconnectSendsEverything() async throws {
        let sink = RecordingSink()
        try await withPublisher(sink, clock: ManualClock(start: start)) { publisher in
            let owned = await publisher.connectionUp(ClockFixtures.normal)
            #expect(sink.topics.first == topics.status && sink.retained[topics.status] == "online")
            #expect(sink.subscriptions == topics.subscriptions + topics.stateFilters)
            #expect(owned.contains(topics.price) && owned.allSatisfy { sink.retained[$0] != nil }, "the ledger is what was sent")
            _ = sink.take()
            sink.setConnected(false)
            await publisher.publish(ClockFixtures.long)
            sink.setConnected(true)
            await publisher.publish(ClockFixtures.long)
            #expect(sink.sent.isEmpty, "after a lost connection nothing goes out until the next connect")
            _ = await publisher.connectionUp(ClockFixtures.long)
            #expect(sink.topics.contains(topics.price) && sink.topics.contains(topics.current))
        }
    }

    @Test func aProfileRemovedWhileABoundaryIsShownIsNeverShownAgain() async throws {
        let sink = RecordingSink()
        let day = LocalDay(year: 2026, month: 1, day: 14)
        func snapshot(_ profile: String, _ time: String) -> Snapshot {
            var snapshot = ClockFixtures.snapshot(day: day, now: at(time))
            snapshot.profile = profile
            return snapshot
        }
        // A boundary pause long enough to remove the profile inside it, as a message that came
        // half a millisecond before the boundary would.
        try await withPublisher(sink, clock: ManualClock(start: start), boundaryPause: 0.5) { publisher in
            _ = await publisher.connectionUp([
                snapshot(Profiles.firstName, "2026-01-14T13:30:00+01:00"), snapshot("a", "2026-01-14T13:30:00+01:00"),
            ])
            #expect(sink.retained["energyclock/a/price"]?.isEmpty == false)
            let boundary = Task {
                await publisher.publish(all: [
                    snapshot(Profiles.firstName, "2026-01-14T14:00:00+01:00"), snapshot("a", "2026-01-14T14:00:00+01:00"),
                ])
            }
            #expect(
                await eventually { sink.retained["energyclock/a/current"]?.contains(#""start":"2026-01-14T14:00"#) == true },
                "inside the pause")
            await publisher.removed(profile: "a")
            await boundary.value
            let left = sink.retained.filter { $0.key.hasPrefix("energyclock/a/") && !$0.value.isEmpty }
            #expect(left.isEmpty, "cleared after the boundary's publish, not before it: \(left.keys.sorted())")
            #expect(await publisher.newestLedger?.contains { $0.hasPrefix("energyclock/a/") } == false, "no longer owned")
            // The next boundary shows the first profile only.
            _ = sink.take()
            await publisher.publish(all: [snapshot(Profiles.firstName, "2026-01-14T15:00:00+01:00")])
            #expect(!sink.topics.contains { $0.hasPrefix("energyclock/a/") })
        }
    }

    @Test func aRefusedMessageIsLoggedAndTheRestStillGoesOut() async throws {
        let sink = RecordingSink()
        let log = CapturingLogHandler()
        sink.fail(topics.price, with: .failed("mqtt: could not publish: payload too large"))
        try await withPublisher(sink, clock: ManualClock(start: start), log: log) { publisher in
            _ = await publisher.connectionUp(ClockFixtures.normal)
            #expect(sink.retained[topics.price] == nil && sink.retained[topics.current] != nil)
            #expect(log.messages(atLeast: .error).contains { $0.contains("payload too large") })
            sink.fail(topics.price, with: nil)
            await publisher.publish(ClockFixtures.normal)
            #expect(sink.retained[topics.price] != nil, "the refused topic goes out with the next snapshot")
        }
    }

    @Test func homeAssistantOnlineIsAnsweredOnceAfterItsDelayOnTheInjectedClock() async throws {
        let sink = RecordingSink()
        let clock = ManualClock(start: start)
        let log = CapturingLogHandler()
        try await withPublisher(sink, clock: clock, discovery: true, log: log) { publisher in
            _ = await publisher.connectionUp(ClockFixtures.normal)
            _ = sink.take()
            await publisher.homeAssistantRestarted(delay: .seconds(2))
            await publisher.homeAssistantRestarted(delay: .seconds(2))
            #expect(await clock.waitForSleeper(until: start.addingTimeInterval(2)))
            #expect(sink.sent.isEmpty, "nothing before the delay is over")
            await clock.advance(to: start.addingTimeInterval(2), timeout: 0.1)
            #expect(await eventually { sink.topics.contains(topics.price) })
            let configs = sink.topics.filter { $0.hasPrefix("homeassistant/") }
            #expect(!configs.isEmpty && Set(configs).count == configs.count, "one republish for two onlines")
            #expect(log.messages(atLeast: .info).filter { $0.contains("Home Assistant restarted") }.count == 1)
        }
    }

    @Test func healthIsWrittenWithTheInjectedTimeAndAtMostOnceASecond() async throws {
        let sink = RecordingSink()
        let clock = ManualClock(start: start)
        let directory = try StateDirectory(path: temporaryDirectory().path)
        try await withPublisher(sink, clock: clock, health: directory) { publisher in
            _ = await publisher.connectionUp(ClockFixtures.normal)
            await publisher.healthWritten()
            let first = try #require(HealthRecord.read(from: directory))
            #expect(first.connected && first.since == start)
            #expect(first.publishedAt == nil, "the connect's publish falls in the second of that write and waits")
            await clock.advance(to: start.addingTimeInterval(0.5))
            await publisher.publish(ClockFixtures.normal)
            await publisher.healthWritten()
            #expect(HealthRecord.read(from: directory) == first, "within the second, the write waits")
            await clock.advance(to: start.addingTimeInterval(1), timeout: 0.1)
            #expect(
                await eventually {
                    // The file holds whole seconds: the newest publish at 13:30:00.5 is due by 14:00.
                    let record = HealthRecord.read(from: directory)
                    return record?.publishedAt == start && record?.dueBy == start.addingTimeInterval(1800)
                }, "written when the second is over, with the newest publish and the test clock's time")
        }
    }

    /// A snapshot of `profile` on 14 January 2026 at `time`.
    func snapshot(at time: String, profile: String = Profiles.firstName) -> Snapshot {
        var snapshot = ClockFixtures.snapshot(day: LocalDay(year: 2026, month: 1, day: 14), now: at(time))
        snapshot.profile = profile
        return snapshot
    }

    @Test func aPublishThatComesDuringAnothersPauseWaitsItsTurn() async throws {
        let sink = RecordingSink()
        try await withPublisher(sink, clock: ManualClock(start: start), profilePause: 0.3) { publisher in
            _ = await publisher.connectionUp([ClockFixtures.normal, snapshot(at: "2026-01-14T13:30:00+01:00", profile: "export")])
            _ = sink.take()
            // A boundary of both profiles pauses after their prices; a settings change of the
            // first profile, newer, comes during the pause.
            let boundary = Task {
                await publisher.publish(all: [
                    snapshot(at: "2026-01-14T19:00:00+01:00"), snapshot(at: "2026-01-14T19:00:00+01:00", profile: "export"),
                ])
            }
            #expect(await eventually { sink.topics.contains(topics.price) })
            await publisher.publish(all: [snapshot(at: "2026-01-14T08:00:00+01:00")])
            await boundary.value
            let currents = sink.sent.filter { $0.topic == topics.current }.map { String(decoding: $0.body, as: UTF8.self) }
            #expect(currents.count == 2)
            #expect(currents.last?.contains("T08:00") == true, "the newer snapshot is shown last: \(currents)")
        }
    }

    @Test func atABoundaryWhatDescribesNowLeavesBeforeTheDayWhichWaitsAMoment() async throws {
        let sink = RecordingSink()
        try await withPublisher(sink, clock: ManualClock(start: start), boundaryPause: 0.5) { publisher in
            _ = await publisher.connectionUp(ClockFixtures.normal)
            _ = sink.take()
            let boundary = Task { await publisher.publish(snapshot(at: "2026-01-14T14:00:00+01:00")) }
            #expect(await eventually { sink.topics.contains(topics.current) })
            let now: Set = [topics.price, topics.color, topics.colorHex, topics.colorRGB, topics.current, topics.next]
            #expect(Set(sink.topics).isSubset(of: now), "during the pause, only what describes now: \(sink.topics)")
            await boundary.value
            #expect(!Set(sink.topics).isSubset(of: now), "then the day's payloads from now on")
        }
    }

    @Test func theConnectionIsToldWhenTheNextSlotsPricesAreDue() async throws {
        let sink = RecordingSink()
        let clock = ManualClock(start: start)
        try await withPublisher(sink, clock: clock) { publisher in
            _ = await publisher.connectionUp(ClockFixtures.normal)
            #expect(sink.expectations == [1800], "at 13:30, the boundary at 14:00")
            await clock.advance(to: at("2026-01-14T13:59:59.75+01:00"))
            await publisher.publish(ClockFixtures.normal)
            #expect(sink.expectations.count == 2 && abs(sink.expectations[1] - 0.25) < 1e-6, "\(sink.expectations)")
            await clock.advance(to: at("2026-01-14T14:00:00+01:00"))
            await publisher.publish(snapshot(at: "2026-01-14T14:00:00+01:00"))
            #expect(sink.expectations.last == 3600, "at the boundary, the next one: \(sink.expectations)")
        }
    }

    @Test func offlineIsAnnouncedOnceAndThenNothingMoreIsSent() async throws {
        let sink = RecordingSink()
        try await withPublisher(sink, clock: ManualClock(start: start)) { publisher in
            _ = await publisher.connectionUp(ClockFixtures.normal)
            await publisher.goOffline()
            #expect(sink.retained[topics.status] == "offline")
            _ = sink.take()
            await publisher.goOffline()
            await publisher.publish(ClockFixtures.long)
            #expect(sink.sent.isEmpty)
        }
    }
}
