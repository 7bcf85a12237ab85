import MQTTClient
import Testing

/// When the network thread sleeps, spins and gives up for a publish another thread announced.
@Suite struct ExpectedPublishTests {
    let now: UInt64 = 5_000_000_000

    @Test func nothingExpectedMeansNoSpin() {
        #expect(ExpectedPublish(expected: 0, now: now) == .none)
    }

    @Test func aPublishFurtherAheadThanTheLeadIsSleptUntilTheLeadBeforeIt() {
        let expected = now + 1_000_000_000
        #expect(ExpectedPublish(expected: expected, now: now) == .sleep(nanoseconds: 1_000_000_000 - ExpectedPublish.lead))
        #expect(ExpectedPublish(expected: now + ExpectedPublish.lead + 1, now: now) == .sleep(nanoseconds: 1))
    }

    @Test func withinTheLeadOrPastTheMomentTheThreadSpinsUntilTheGraceIsOver() {
        for expected in [now + ExpectedPublish.lead, now + 1, now, now - 1, now - ExpectedPublish.grace - 1] {
            #expect(ExpectedPublish(expected: expected, now: now) == .spin(until: expected + ExpectedPublish.grace), "\(expected)")
        }
    }

    @Test func onlyAnExpectationDueSoonerThanTheOneItReplacesWakesTheThread() {
        #expect(ExpectedPublish.comesSooner(now, than: 0), "nothing was expected: the poll may sleep for a minute")
        #expect(ExpectedPublish.comesSooner(now, than: now + 1))
        #expect(!ExpectedPublish.comesSooner(now + 1, than: now), "found when the thread wakes for the earlier one")
        #expect(!ExpectedPublish.comesSooner(now, than: now))
        #expect(!ExpectedPublish.comesSooner(0, than: now), "a withdrawal is found then too")
        #expect(!ExpectedPublish.comesSooner(0, than: 0))
    }

    @Test func aMomentIsAPositiveNumberOfSecondsWithinADayOrNone() {
        for seconds in [0, -1, -0.0, .nan, .infinity, -.infinity, ExpectedPublish.horizon + 0.001, .greatestFiniteMagnitude] {
            #expect(ExpectedPublish.moment(in: seconds, after: now) == 0, "\(seconds)")
        }
        #expect(ExpectedPublish.moment(in: 1.5, after: now) == now + 1_500_000_000)
        #expect(ExpectedPublish.moment(in: ExpectedPublish.horizon, after: now) == now + 86_400_000_000_000)
    }
}
