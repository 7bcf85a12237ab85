import EnergyClockDomain
import EnergyClockFace
import EnergyClockTesting
import Foundation
import Testing

@testable import EnergyClockPublisher

/// The pacing of a publish as the state machine gives it: the order of the events, the yields and
/// pauses between them, and what a settings change owes; read as steps, with no broker and no task.
@Suite struct PublisherPacingTests {
    let base = PublisherStateTests()

    /// The steps as words: `prices`, `current`, `slots`, `snapshots`, `owe`, `yield` and `pause 0.004`.
    func words(_ steps: [PublisherState.Step]) -> [String] {
        steps.map { step in
            switch step {
            case .yield: "yield"
            case let .pause(seconds): "pause \(seconds)"
            case let .event(event):
                switch event {
                case .prices: "prices"
                case .current: "current"
                case .slots: "slots"
                case .snapshots: "snapshots"
                case .owe: "owe"
                default: "other"
                }
            }
        }
    }

    /// A state connected with the 13:30 snapshot at 0.10.
    func connected() -> PublisherState {
        var publisher = base.state()
        _ = publisher.handle(.connected([base.snapshot(price: 0.10)], previouslyRetained: [], broker: nil), at: base.now)
        return publisher
    }

    @Test func aSettingsChangeShowsNowWithAYieldBetweenEachPartAndOwesTheRest() {
        let publisher = connected()
        let steps = words(publisher.steps(showing: [base.snapshot(price: 0.30)], owingTheRest: true))
        #expect(steps == ["prices", "yield", "current", "yield", "slots", "yield", "owe"])
        let whole = words(publisher.steps(showing: [base.snapshot(price: 0.30)], owingTheRest: false))
        #expect(whole == ["prices", "yield", "current", "yield", "slots", "yield", "snapshots"], "new prices are shown whole")
    }

    @Test func aBoundaryPausesBeforeTheDayAndIsShownWholeEvenForASettingsChange() {
        let publisher = connected()
        let hours = slots(from: at("2026-01-14T00:00:00+01:00"), count: 48, minutes: 60) { _ in 0.10 }
        let later = Snapshot.derive(
            now: at("2026-01-14T14:00:00+01:00"), calendar: ClockFixtures.amsterdam, settings: .defaults, slots: hours,
            source: "energyzero", stale: false, updatedAt: base.now)
        let steps = words(publisher.steps(showing: [later], owingTheRest: true))
        #expect(steps == ["prices", "yield", "current", "yield", "slots", "pause \(publisher.options.boundaryPause)", "snapshots"])
    }

    @Test func manyProfilesPauseAfterThePricesAndANewProfileIsShownWhole() {
        let publisher = connected()
        var garage = base.snapshot(price: 0.30)
        garage.profile = "garage"
        let steps = words(publisher.steps(showing: [base.snapshot(price: 0.30), garage], owingTheRest: true))
        #expect(steps == ["prices", "pause \(publisher.options.profilePause)", "current", "yield", "slots", "yield", "snapshots"])
    }

    @Test func whileDisconnectedNothingIsOwed() {
        var publisher = connected()
        _ = publisher.handle(.disconnected, at: base.now)
        #expect(words(publisher.steps(showing: [base.snapshot(price: 0.30)], owingTheRest: true)).last == "snapshots")
    }

    @Test func theColourAsksTheConnectionToBeReadyForTheNextSlot() {
        var publisher = connected()
        let change = base.snapshot(price: 0.30)
        _ = publisher.handle(.prices([change]), at: base.now)
        let actions = publisher.handle(.current([change]), at: base.now)
        guard case let .expectSend(seconds)? = actions.last else {
            Issue.record("the colour ends with the next slot's expectation")
            return
        }
        #expect(seconds == 1800, "13:30 to 14:00")
    }

    @Test func whatIsOwedGoesStageByStageAndTheAnswerAfterIt() {
        var publisher = connected()
        let change = base.snapshot(price: 0.30)
        for event in [PublisherState.Event.prices([change]), .current([change]), .slots([change])] {
            _ = publisher.handle(event, at: base.now)
        }
        let owing = publisher.handle(.owe([change]), at: base.now)
        #expect(owing.contains { if case .catchUp = $0 { true } else { false } }, "owing starts the catch-up")
        let answer = SettingsOutcome(result: .success(change.settings), reply: nil)
        let held = publisher.handle(.answered(answer), at: base.now)
        #expect(base.sent(held).isEmpty, "the answer waits for what it answers")
        var stages = 0
        var last: [PublisherState.Action] = []
        while publisher.owesStages {
            last = publisher.handle(.nextStage, at: base.now)
            stages += 1
        }
        #expect(stages == PublisherState.Stage.all.count)
        #expect(base.sent(last).last?.topic == base.topics.settingsResult, "the answer goes with the last stage")
        #expect(base.sent(publisher.handle(.nextStage, at: base.now)).isEmpty, "nothing more is owed")
    }
}
