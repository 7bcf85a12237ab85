import Foundation
import Platform
import Synchronization
import Testing

/// The waits of a thread that must be awake at an exact moment. No test asserts a time: only
/// what each wait returns, and that it returns.
@Suite(.timeLimit(.minutes(1)))
struct PreciseWaitTests {
    @Test func aSpinEndsAtOnceWhenItsConditionHoldsEvenPastItsDeadline() {
        var looks = 0
        #expect(
            PreciseWait.spin(until: 0) {
                looks += 1
                return true
            })
        #expect(looks == 1)
    }

    @Test func aSpinWhoseConditionNeverHoldsEndsAtItsDeadline() {
        var looks = 0
        let deadline = EventLoop.now + 2_000_000
        #expect(
            !PreciseWait.spin(until: deadline) {
                looks += 1
                return false
            })
        #expect(EventLoop.now >= deadline && looks > 1)
    }

    @Test func aSpinSeesWhatAnotherThreadDoes() {
        let flag = Atomic<Bool>(false)
        let started = DetachedThread.start(name: "test-setter") {
            usleep(2000)
            flag.store(true, ordering: .releasing)
        }
        #expect(started)
        #expect(PreciseWait.spin(until: EventLoop.now + 30_000_000_000) { flag.load(ordering: .acquiring) })
    }

    @Test func aPollEndsWithWhatIsReadyOrWhenItsNanosecondsAreOver() throws {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        defer {
            close(ends[0])
            close(ends[1])
        }
        var fds = [pollfd(fd: ends[0], events: Int16(POLLIN), revents: 0)]
        #expect(PreciseWait.poll(&fds, nanoseconds: 1_000_000) == 0, "nothing to read: it times out")
        #expect(write(ends[1], "x", 1) == 1)
        #expect(PreciseWait.poll(&fds, nanoseconds: 30_000_000_000) == 1 && fds[0].revents & Int16(POLLIN) != 0)
    }
}
