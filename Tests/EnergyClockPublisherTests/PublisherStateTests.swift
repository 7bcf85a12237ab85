import EnergyClockDomain
import EnergyClockFace
import EnergyClockStore
import EnergyClockTesting
import Foundation
import Testing

@testable import EnergyClockPublisher

/// The publisher's rules as a state machine: events in, actions out, no broker, no task, no clock.
@Suite struct PublisherStateTests {
    let topics = TopicTree()
    let now = at("2026-01-14T13:30:00+01:00")

    func state(clock: Bool = false, discovery: Bool = false, leds: [LEDTarget] = []) -> PublisherState {
        let options = PublisherOptions(
            discovery: discovery ? HADiscovery(sources: ["energyzero"]) : nil, leds: leds, clockImage: clock)
        return PublisherState(topics: topics, options: options, now: now)
    }

    /// The messages among `actions`, in order.
    func sent(_ actions: [PublisherState.Action]) -> [OutgoingMessage] {
        actions.compactMap { if case let .send(message) = $0 { message } else { nil } }
    }

    /// Two days of hours at one price, seen at 13:30 on the first.
    func snapshot(price: Double) -> Snapshot {
        let hours = slots(from: at("2026-01-14T00:00:00+01:00"), count: 48, minutes: 60) { _ in price }
        return Snapshot.derive(
            now: now, calendar: ClockFixtures.amsterdam, settings: .defaults, slots: hours, source: "energyzero", stale: false,
            updatedAt: now)
    }

    @Test func aConnectSubscribesAnnouncesPublishesEverythingAndClearsWhatIsNoLongerPublished() throws {
        var publisher = state(discovery: true)
        let actions = publisher.handle(
            .connected([ClockFixtures.normal], previouslyRetained: ["energyclock/cheapest/9h"], broker: "broker-b.lan:1883"), at: now)
        let subscriptions = actions.compactMap { if case let .subscribe(filter, _, othersOnly) = $0, !othersOnly { filter } else { nil } }
        #expect(subscriptions == topics.subscriptions + ["homeassistant/status"])
        let watched = actions.compactMap { if case let .subscribe(filter, _, othersOnly) = $0, othersOnly { filter } else { nil } }
        #expect(watched == topics.stateFilters)
        let messages = sent(actions)
        #expect(messages.first == OutgoingMessage(topics.status, "online", retain: true), "online goes first")
        #expect(messages.contains { $0.topic == topics.price && !$0.payload.isEmpty })
        #expect(messages.contains { $0.topic.hasPrefix("homeassistant/") }, "the discovery configs")
        #expect(messages.last == OutgoingMessage("energyclock/cheapest/9h", "", retain: true), "the old window is cleared")
        #expect(
            actions.contains {
                if case .writeHealth(let record) = $0 { record.connected && record.broker == "broker-b.lan:1883" } else { false }
            },
            "health.json names the broker in use")
        guard case let .ledger(owned)? = actions.last else {
            Issue.record("the ledger comes last")
            return
        }
        #expect(owned.contains(topics.price) && !owned.contains("energyclock/cheapest/9h"))
        #expect(owned.contains { $0.hasPrefix("homeassistant/") })
    }

    @Test func aBoundaryIsANewSlotOfAProfileAlreadyShownNotAChangeWithinTheSlot() {
        var publisher = state()
        #expect(!publisher.movesToNextSlot([snapshot(price: 0.10)]), "nothing shown yet")
        _ = publisher.handle(.connected([snapshot(price: 0.10)], previouslyRetained: [], broker: nil), at: now)
        #expect(!publisher.movesToNextSlot([snapshot(price: 0.30)]), "new prices or settings in the same slot")
        let hours = slots(from: at("2026-01-14T00:00:00+01:00"), count: 48, minutes: 60) { _ in 0.10 }
        let later = Snapshot.derive(
            now: at("2026-01-14T14:00:00+01:00"), calendar: ClockFixtures.amsterdam, settings: .defaults, slots: hours,
            source: "energyzero", stale: false, updatedAt: now)
        #expect(publisher.movesToNextSlot([later]), "14:00 is the next slot")
        var other = later
        other.profile = "export"
        #expect(!publisher.movesToNextSlot([other]), "a profile not shown yet has no boundary")
    }

    @Test func onlyWhatChangedIsSentAndNothingWhileDisconnected() {
        var publisher = state()
        _ = publisher.handle(.connected([snapshot(price: 0.10)], previouslyRetained: [], broker: nil), at: now)
        let same = sent(publisher.handle(.snapshots([snapshot(price: 0.10)]), at: now))
        #expect(same.map(\.topic) == [topics.influx], "the same snapshot changes no retained topic")
        let changed = sent(publisher.handle(.snapshots([snapshot(price: 0.30)]), at: now))
        #expect(changed.contains { $0.topic == topics.price })
        #expect(!changed.contains { $0.topic == topics.status }, "status did not change")
        _ = publisher.handle(.disconnected, at: now)
        let offline = publisher.handle(.snapshots([snapshot(price: 0.10)]), at: now)
        #expect(sent(offline).isEmpty, "nothing is queued while disconnected")
        #expect(offline.contains { if case .record = $0 { true } else { false } }, "InfluxDB still gets its point")
        let again = sent(publisher.handle(.connected([snapshot(price: 0.10)], previouslyRetained: [], broker: nil), at: now))
        #expect(again.contains { $0.topic == topics.price } && again.contains { $0.topic == topics.current }, "everything again")
    }

    @Test func whatDidNotArriveGoesOutAgain() {
        var publisher = state()
        let first = sent(publisher.handle(.connected([snapshot(price: 0.10)], previouslyRetained: [], broker: nil), at: now))
        let price = first.first { $0.topic == topics.price }!
        // A refusal of one message: that topic goes out with the next snapshot, even unchanged.
        _ = publisher.handle(.undelivered([price], .failed("payload too large")), at: now)
        #expect(publisher.connected)
        #expect(sent(publisher.handle(.snapshots([snapshot(price: 0.10)]), at: now)).filter(\.retain) == [price])
        // The connection gone: nothing more until it is back.
        _ = publisher.handle(.undelivered([price], .notConnected), at: now)
        #expect(!publisher.connected)
        #expect(sent(publisher.handle(.snapshots([snapshot(price: 0.30)]), at: now)).isEmpty)
    }

    @Test func homeAssistantOnlineLeadsToOneRepublishAfterItsDelay() {
        var publisher = state(discovery: true)
        _ = publisher.handle(.connected([ClockFixtures.normal], previouslyRetained: [], broker: nil), at: now)
        let first = publisher.handle(.homeAssistantOnline(delay: .seconds(2)), at: now)
        guard case let .wake(.homeAssistant, time)? = first.first, first.count == 1 else {
            Issue.record("one wake-up, nothing sent yet: \(first)")
            return
        }
        #expect(time == now.addingTimeInterval(2))
        #expect(publisher.handle(.homeAssistantOnline(delay: .seconds(1)), at: now).isEmpty, "a second online joins the first")
        let republish = sent(publisher.handle(.timer(.homeAssistant), at: time))
        #expect(republish.contains { $0.topic.hasPrefix("homeassistant/") } && republish.contains { $0.topic == topics.price })
        #expect(!publisher.handle(.homeAssistantOnline(delay: .zero), at: time).isEmpty, "a later online is answered again")
    }

    @Test func theClockIsDrawnOnceASecondAndAfterADrawingTheNewestIsDrawn() throws {
        var publisher = state(clock: true)
        let connect = publisher.handle(.connected([snapshot(price: 0.10)], previouslyRetained: [], broker: nil), at: now)
        let draws = connect.compactMap { if case let .draw(_, _, key, time) = $0 { (key, time) } else { nil } }
        let (key, time) = try #require(draws.first)
        #expect(draws.count == 1 && time == now)
        // A change during the drawing waits for it.
        #expect(!publisher.handle(.snapshots([snapshot(price: 0.30)]), at: now).contains { if case .draw = $0 { true } else { false } })
        let png = ClockRenderer.pngSignature
        let done = publisher.handle(
            .clockDrawn(profile: Profiles.firstName, key, .success((png: png, svg: Array("<svg/>".utf8)))), at: now.addingTimeInterval(0.2))
        #expect(sent(done).map(\.topic) == [topics.clockPNG, topics.clockSVG])
        guard case let .draw(_, _, _, next)? = done.last else {
            Issue.record("the newer snapshot is drawn after the first drawing: \(done)")
            return
        }
        #expect(next == now.addingTimeInterval(1), "a second after the last drawing began")
    }

    @Test func noDrawingStartsJustBeforeASlotBoundary() throws {
        let snapshot = ClockFixtures.normal
        let slot = try #require(snapshot.current?.slot)
        var output = ClockOutput(topics: TopicTree(), enabled: true)
        // Just before the boundary: the boundary's snapshot will be drawn instead.
        guard case .nothing = output.decide(for: snapshot, at: slot.end.addingTimeInterval(-0.05)) else {
            Issue.record("nothing is drawn in the last tenth of a second of a slot")
            return
        }
        // At the boundary: at once.
        guard case let .draw(_, _, time) = output.decide(for: snapshot, at: slot.start.addingTimeInterval(0.002)) else {
            Issue.record("the slot's snapshot is drawn")
            return
        }
        #expect(time == slot.start.addingTimeInterval(0.002))
        var later = ClockOutput(topics: TopicTree(), enabled: true)
        guard case let .draw(_, _, midway) = later.decide(for: snapshot, at: slot.start.addingTimeInterval(600)) else {
            Issue.record("a change within a slot is drawn")
            return
        }
        #expect(midway == slot.start.addingTimeInterval(600), "away from a boundary, at once")
    }

    @Test func aFailedDrawingWaitsAndIsLoggedOncePerKind() {
        var output = ClockOutput(topics: TopicTree(), enabled: true)
        guard case .draw = output.decide(for: ClockFixtures.normal, at: now) else {
            Issue.record("the first snapshot is drawn")
            return
        }
        let first = output.failed("timedOut", at: now)
        #expect(first == (pause: .seconds(30), log: true))
        guard case .nothing = output.decide(for: ClockFixtures.normal, at: now.addingTimeInterval(1)) else {
            Issue.record("no drawing during the pause")
            return
        }
        guard case .draw = output.decide(for: ClockFixtures.normal, at: now.addingTimeInterval(31)) else {
            Issue.record("drawn again after the pause")
            return
        }
        let second = output.failed("timedOut", at: now.addingTimeInterval(31))
        #expect(second == (pause: .seconds(60), log: false), "the same kind is not logged again; the pause doubles")
        _ = output.decide(for: ClockFixtures.normal, at: now.addingTimeInterval(100))
        #expect(output.failed("badOutput", at: now.addingTimeInterval(100)).log, "a new kind is logged")
        // A clock set back by a day does not stop the drawings for a day.
        guard case .draw = output.decide(for: ClockFixtures.normal, at: now.addingTimeInterval(-86_400)) else {
            Issue.record("a pause that lies further ahead than any pause could counts as over")
            return
        }
    }

    @Test func aRefusedTopicIsWarnedAboutOnce() {
        var publisher = state()
        let first = publisher.handle(.refused(topic: topics.price, reason: "not authorized"), at: now)
        guard case let .log(level, line)? = first.first else {
            Issue.record("a warning")
            return
        }
        #expect(level == .warning && line.contains(topics.price) && line.contains("ACL"))
        #expect(publisher.handle(.refused(topic: topics.price, reason: "not authorized"), at: now).isEmpty)
        #expect(!publisher.handle(.refused(topic: topics.current, reason: "not authorized"), at: now).isEmpty)
    }

    @Test func settingsAnswersGoOutOnlyWhileConnected() throws {
        var publisher = state()
        let outcome = SettingsOutcome(result: .failure(.unknownField("nope")), reply: nil)
        #expect(publisher.handle(.answered(outcome), at: now).isEmpty)
        _ = publisher.handle(.connected([ClockFixtures.normal], previouslyRetained: [], broker: nil), at: now)
        let answer = publisher.handle(.answered(outcome), at: now)
        #expect(sent(answer).contains { $0.topic == topics.settingsResult && $0.payload.contains("nope") })
        #expect(answer.contains { if case .log(.warning, _) = $0 { true } else { false } })
    }

    @Test func whatAnotherClientWritesOverTheDaemonsStateGoesBackAtOnceThenOnceASecond() {
        var publisher = state()
        _ = publisher.handle(.connected([ClockFixtures.normal], previouslyRetained: [], broker: nil), at: now)
        let color = ClockFixtures.normal.current?.band?.rawValue
        #expect(color != nil)
        // Put back as held, logged once, the status as `online`.
        let first = publisher.handle(.overwritten(topic: topics.color), at: now)
        #expect(sent(first) == [OutgoingMessage(topics.color, color!, retain: true)])
        #expect(
            first.contains {
                if case let .log(.warning, line) = $0 { line.contains("another client wrote energyclock/color") } else { false }
            })
        #expect(
            sent(publisher.handle(.overwritten(topic: topics.status), at: now)) == [OutgoingMessage(topics.status, "online", retain: true)])
        // Again within the second: it waits for the second to end, without another log line.
        let again = publisher.handle(.overwritten(topic: topics.color), at: now.addingTimeInterval(0.2))
        #expect(sent(again).isEmpty)
        #expect(again.contains { if case .wake(.restore, at: now.addingTimeInterval(1)) = $0 { true } else { false } })
        #expect(!again.contains { if case .log = $0 { true } else { false } })
        for _ in 0..<100 { _ = publisher.handle(.overwritten(topic: topics.color), at: now.addingTimeInterval(0.5)) }
        #expect(
            sent(publisher.handle(.timer(.restore), at: now.addingTimeInterval(1))) == [OutgoingMessage(topics.color, color!, retain: true)]
        )
        // A topic the daemon does not publish is someone else's business, and nothing goes out
        // while disconnected.
        #expect(publisher.handle(.overwritten(topic: "energyclock/notes"), at: now).isEmpty)
        #expect(publisher.handle(.overwritten(topic: topics.cheapest(hours: 9)), at: now).isEmpty)
        _ = publisher.handle(.disconnected, at: now)
        #expect(sent(publisher.handle(.overwritten(topic: topics.price), at: now.addingTimeInterval(5))).isEmpty)
    }

    @Test func theStateFiltersNeverMatchACommand() {
        func matches(_ filter: String, _ topic: String) -> Bool {
            let f = filter.split(separator: "/", omittingEmptySubsequences: false)
            let t = topic.split(separator: "/", omittingEmptySubsequences: false)
            for (i, level) in f.enumerated() {
                if level == "#" { return true }
                guard i < t.count, level == "+" || level == t[i] else { return false }
            }
            return f.count == t.count
        }
        let commands =
            ["settings/set", "settings/green_max/set", "refresh", "export/settings/set", "export/settings/jobs/set", "export/refresh"]
            + TopicTree.leaves.map { "\($0)/settings/set" } + TopicTree.leaves.map { "\($0)/settings/green_max/set" }
        for filter in topics.stateFilters {
            for command in commands { #expect(!matches(filter, "energyclock/" + command), "\(filter) matches \(command)") }
        }
        // And every retained topic a profile publishes is watched.
        for topic in RetainedTopics(topics: topics.profile("export"), cheapestHours: [3]).owned(for: ClockFixtures.normal) {
            #expect(topics.stateFilters.contains { matches($0, topic) }, "\(topic)")
        }
    }
}
