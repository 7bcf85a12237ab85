import EnergyClockDomain
import EnergyClockTesting
import Foundation
import Synchronization
import Testing

@testable import EnergyClockPublisher

/// A settings change shows what describes now at once and owes the rest to the catch-up, which
/// gives way to a settings request that waits.
extension MQTTPublisherTests {
    /// `ClockFixtures.normal` with `surcharge` added to every price: another price, other settings
    /// and another day.
    func changed(surcharge: Double) -> Snapshot {
        var snapshot = ClockFixtures.normal
        snapshot.settings.surcharge = surcharge
        func raised(_ slot: PricedSlot) -> PricedSlot {
            var slot = slot
            slot.price += surcharge
            return slot
        }
        snapshot.today = snapshot.today.map(raised)
        snapshot.tomorrow = snapshot.tomorrow.map(raised)
        snapshot.current = snapshot.current.map(raised)
        snapshot.next = snapshot.next.map(raised)
        return snapshot
    }

    /// An answer that the change applied, with the snapshot's settings.
    func answer(_ snapshot: Snapshot) -> SettingsOutcome { SettingsOutcome(result: .success(snapshot.settings), reply: nil) }

    /// The `surcharge` in a `settings` or `settings/result` payload.
    func surcharge(_ message: OutgoingMessage) -> Double? {
        let object = try? JSONSerialization.jsonObject(with: Data(message.body)) as? [String: Any]
        return (object?["surcharge"] ?? (object?["settings"] as? [String: Any])?["surcharge"]) as? Double
    }

    /// A publisher over a recording sink, connected with `ClockFixtures.normal` and what that sent
    /// forgotten, while `body` runs; its jobs do not run, so the test calls the catch-up itself, and
    /// a request waits while `waiting` says so.
    func withConnectedPublisher(
        waiting: @escaping @Sendable () -> Bool = { false }, _ body: (MQTTPublisher, RecordingSink) async throws -> Void
    ) async throws {
        let sink = RecordingSink()
        try await withPublisher(sink, clock: ManualClock(start: start), jobs: false) { publisher in
            await publisher.giveWay(when: waiting)
            _ = await publisher.connectionUp(ClockFixtures.normal)
            _ = sink.take()
            try await body(publisher, sink)
        }
    }

    @Test func aSettingsChangeShowsNowFirstAndItsAnswerOnlyAfterTheDay() async throws {
        try await withConnectedPublisher { publisher, sink in
            let change = changed(surcharge: 0.05)
            await publisher.publishCurrent(all: [change])
            await publisher.report(answer(change))
            let now = sink.take().map(\.topic)
            #expect(now.first == topics.price && now.contains(topics.current))
            #expect(!now.contains(topics.settings) && !now.contains(topics.pricesToday), "the day is owed")
            #expect(!now.contains(topics.settingsResult), "the answer waits for the day")

            #expect(await publisher.catchUp())
            let rest = sink.take()
            let settings = try #require(rest.firstIndex { $0.topic == topics.settings })
            let result = try #require(rest.firstIndex { $0.topic == topics.settingsResult })
            #expect(settings < result && result == rest.count - 1, "the answer comes last")
            #expect(surcharge(rest[settings]) == 0.05 && rest.contains { $0.topic == topics.pricesToday })
            #expect(await publisher.catchUp(), "nothing is owed any more")
            #expect(sink.sent.isEmpty)
        }
    }

    /// The answer writes the settings from the memo of the `settings` topic, redacted alike, and
    /// reads as the outcome's own JSON written from scratch.
    @Test func theAnswerShowsTheSettingsAsTheSettingsTopicDoes() async throws {
        try await withConnectedPublisher { publisher, sink in
            var change = changed(surcharge: 0.05)
            change.settings.customURL = "https://user:secret@prices.example/day?token=abc&zone=NL"
            await publisher.publishCurrent(all: [change])
            await publisher.report(answer(change))
            #expect(await publisher.catchUp())
            let sent = sink.take()
            let settings = try #require(sent.first { $0.topic == topics.settings }?.payload)
            let result = try #require(sent.first { $0.topic == topics.settingsResult }?.payload)
            #expect(result == #"{"ok":true,"settings":"# + settings + "}")
            #expect(result == answer(change).json)
            #expect(!result.contains("secret") && !result.contains("abc"))
        }
    }

    @Test func aChangeThatCameMeanwhileGoesFirstAndTheDayShowsOnlyTheNewest() async throws {
        let waiting = Mutex(true)
        let waits: @Sendable () -> Bool = { waiting.withLock { $0 } }
        try await withConnectedPublisher(waiting: waits) { publisher, sink in
            let first = changed(surcharge: 0.05)
            let second = changed(surcharge: 0.1)
            await publisher.publishCurrent(all: [first])
            await publisher.report(answer(first))
            // A request waits before the first stage: the catch-up stops at once.
            #expect(await !publisher.catchUp())
            #expect(!sink.topics.contains(topics.settings))
            await publisher.publishCurrent(all: [second])
            await publisher.report(answer(second))
            waiting.withLock { $0 = false }
            #expect(await publisher.catchUp())
            let sent = sink.take()
            let settings = sent.filter { $0.topic == topics.settings }
            #expect(settings.count == 1 && settings.first.flatMap(surcharge) == 0.1, "the day of the newest only")
            let answers = sent.filter { $0.topic == topics.settingsResult }.map(surcharge)
            #expect(answers == [0.05, 0.1], "both answers, in order, after the day")
            #expect(sent.last?.topic == topics.settingsResult)
        }
    }

    @Test func aNewerChangeAfterSomeStagesStartsThemAgain() async throws {
        // Two stages (the devices and the settings), then a request waits.
        let looks = Mutex(0)
        let waiting: @Sendable () -> Bool = {
            looks.withLock {
                $0 += 1
                return $0 > 2 && $0 < 1000
            }
        }
        try await withConnectedPublisher(waiting: waiting) { publisher, sink in
            await publisher.publishCurrent(all: [changed(surcharge: 0.05)])
            #expect(await !publisher.catchUp())
            #expect(sink.sent.filter { $0.topic == topics.settings }.map(surcharge) == [0.05])
            #expect(!sink.topics.contains(topics.pricesToday))
            await publisher.publishCurrent(all: [changed(surcharge: 0.1)])
            looks.withLock { $0 = 1000 }
            #expect(await publisher.catchUp())
            #expect(sink.sent.filter { $0.topic == topics.settings }.map(surcharge) == [0.05, 0.1])
            #expect(sink.sent.filter { $0.topic == topics.pricesToday }.count == 1)
        }
    }

    @Test func aFloodThatNeverPausesStillGetsItsAnswers() async throws {
        let always: @Sendable () -> Bool = { true }
        try await withConnectedPublisher(waiting: always) { publisher, sink in
            let change = changed(surcharge: 0.05)
            await publisher.publishCurrent(all: [change])
            for _ in 1..<PublisherState.answersHeldAtMost { await publisher.report(answer(change)) }
            #expect(await !publisher.catchUp(), "a request waits: the catch-up stops")
            await publisher.report(answer(change))
            #expect(await publisher.catchUp(), "with as many answers held as may be, it runs to its end")
            #expect(sink.topics.filter { $0 == topics.settingsResult }.count == PublisherState.answersHeldAtMost)
        }
    }

    @Test func aWholePublishTakesOverWhatIsOwedAndSendsTheAnswersAfterIt() async throws {
        try await withConnectedPublisher { publisher, sink in
            let first = changed(surcharge: 0.05)
            await publisher.publishCurrent(all: [first])
            await publisher.report(answer(first))
            // New prices while the change is owed: shown whole, the answer follows.
            await publisher.publish(all: [changed(surcharge: 0.1)])
            let sent = sink.take()
            #expect(sent.last?.topic == topics.settingsResult && sent.last.flatMap(surcharge) == 0.05)
            #expect(sent.filter { $0.topic == topics.settings }.map(surcharge) == [0.1])
            #expect(await publisher.catchUp())
            #expect(sink.sent.isEmpty, "nothing was left owed")
        }
    }

    @Test func aNewProfileIsShownWholeAndWhatIsOwedGoesBeforeOffline() async throws {
        try await withConnectedPublisher { publisher, sink in
            var garage = ClockFixtures.normal
            garage.profile = "garage"
            await publisher.publishCurrent(all: [garage])
            #expect(sink.topics.contains(topics.profile("garage").settings), "a profile seen first is shown whole")

            await publisher.publishCurrent(all: [changed(surcharge: 0.05)])
            await publisher.report(answer(changed(surcharge: 0.05)))
            _ = sink.take()
            await publisher.goOffline()
            let topicsSent = sink.topics
            let settings = try #require(topicsSent.firstIndex(of: topics.settings))
            let result = try #require(topicsSent.firstIndex(of: topics.settingsResult))
            #expect(settings < result && topicsSent.last == topics.status, "what was owed goes before offline")
        }
    }

    @Test func theRestOfAChangeFollowsOnItsOwnOnceNoRequestWaits() async throws {
        let sink = RecordingSink()
        // Whether a request waits, and how often the catch-up looked.
        let waiting = Mutex((waits: true, looks: 0))
        try await withPublisher(sink, clock: ManualClock(start: start)) { publisher in
            await publisher.giveWay {
                waiting.withLock {
                    $0.looks += 1
                    return $0.waits
                }
            }
            _ = await publisher.connectionUp(ClockFixtures.normal)
            _ = sink.take()
            let change = changed(surcharge: 0.05)
            await publisher.publishCurrent(all: [change])
            await publisher.report(answer(change))
            // The catch-up started by the change stops while a request waits; the answer waits too.
            for _ in 0..<5000 where waiting.withLock({ $0.looks }) == 0 { try await Task.sleep(for: .milliseconds(1)) }
            #expect(waiting.withLock { $0.looks } > 0, "the catch-up ran and looked")
            #expect(!sink.topics.contains(topics.settings) && !sink.topics.contains(topics.settingsResult))
            // The next answer starts it again, and nothing waits any more.
            waiting.withLock { $0.waits = false }
            await publisher.report(answer(change))
            var answered = 0
            for _ in 0..<5000 where answered < 2 {
                answered = sink.topics.filter { $0 == topics.settingsResult }.count
                try await Task.sleep(for: .milliseconds(1))
            }
            let sent = sink.topics
            #expect(answered == 2)
            #expect(try #require(sent.firstIndex(of: topics.settings)) < #require(sent.firstIndex(of: topics.settingsResult)))
        }
    }
}
