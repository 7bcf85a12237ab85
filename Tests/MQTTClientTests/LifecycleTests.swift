import MQTTClient
import Testing

/// The client's lifecycle as one value: each outage is reported once, and a stop is final.
@Suite struct LifecycleTests {
    @Test func anOutageIsReportedOnceAndAConnectStartsAfresh() {
        var state = Lifecycle.idle
        var reports: [Bool] = []
        reports.append(state.report())  // A first failure is news.
        reports.append(state.report())  // The same outage is not.
        #expect(reports == [true, false])
        let never = state.takeUpSince()
        #expect(!state.wasUp && never == nil)

        state.connected(at: 1000)
        #expect(state == .connected(since: 1000) && state.wasUp)
        // The broker drops it: the callback reports it, and the network thread still learns how long it was up.
        let dropped = state.report()
        #expect(dropped && state.wasUp)
        let upSince = state.takeUpSince()
        let again = state.takeUpSince()
        #expect(upSince == 1000 && again == nil && !state.wasUp)
        let loopReport = state.report()
        #expect(!loopReport, "the loop's own report of the same drop is no news")

        // Dropped by the loop first: it takes the time, then reports.
        state.connected(at: 2000)
        let taken = state.takeUpSince()
        let reported = state.report()
        #expect(taken == 2000 && reported)
    }

    @Test func aStopIsFinal() {
        var state = Lifecycle.stopping
        #expect(state.isStopping)
        state.connected(at: 9)
        #expect(state == .stopping, "a connection accepted while stopping changes nothing")
        let report = state.report()
        #expect(!report)
        state = .ended
        let late = state.report()
        #expect(state.isStopping && !late)
    }
}
