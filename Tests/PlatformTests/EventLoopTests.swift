import Foundation
import Platform
import Synchronization
import Testing

/// The daemon's executor, run here on a thread of its own (it is the global executor only in the
/// `energyclock` process; `IdleTests` watches it there).
@Suite(.timeLimit(.minutes(1)))
struct EventLoopTests {
    /// A loop running on a new thread; `stopped` is true once its `run()` returned.
    func running() throws -> (EventLoop, Shared<Bool>) {
        let loop = try #require(EventLoop())
        let stopped = Shared(false)
        let started = DetachedThread.start(name: "test-loop") {
            loop.run()
            stopped.value.store(true, ordering: .releasing)
        }
        #expect(started)
        return (loop, stopped)
    }

    /// Holds `loop` in a job of its own until `open` is signalled, so that what a test arms
    /// meanwhile is in place before the loop looks, however slow the machine.
    func hold(_ loop: EventLoop) -> DispatchSemaphore {
        let (held, open) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
        loop.post {
            held.signal()
            open.wait()
        }
        // Held from here: no timer armed from now on is looked at before `open`.
        held.wait()
        return open
    }

    /// Waits until `body` has run on `loop`, after everything posted before it.
    func drain(_ loop: EventLoop) async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in loop.post { done.resume() } }
    }

    @Test func workRunsFirstThenTimersByDeadlineAndTiesInTheOrderArmed() async throws {
        let (loop, _) = try running()
        defer { loop.stop() }
        let order = Mutex<[String]>([])
        let start = EventLoop.now + 20_000_000
        let gate = hold(loop)
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            defer { gate.signal() }
            for (name, offset) in [("c", 20), ("a", 0), ("b", 0), ("x", 10)] {
                let timer = loop.addTimer(at: start + UInt64(offset) * 1_000_000) { order.withLock { $0.append(name) } }
                if name == "x" { #expect(loop.cancel(timer), "a timer that has not fired is disarmed") }
            }
            let last = loop.addTimer(at: start + 30_000_000) { done.resume() }
            loop.post { order.withLock { $0.append("posted") } }
            // A timer whose time has passed runs on the next turn, after the work before it.
            _ = loop.addTimer(at: 0) { order.withLock { $0.append("past") } }
            _ = last
        }
        #expect(order.withLock { $0 } == ["posted", "past", "a", "b", "c"])
        let fired = loop.addTimer(at: 0) {}
        await drain(loop)
        #expect(!loop.cancel(fired), "a fired timer cannot be cancelled")
    }

    @Test func aThousandTimersFireInOrderAndCancelledOnesNever() async throws {
        let (loop, _) = try running()
        defer { loop.stop() }
        var generator = SystemRandomNumberGenerator()
        let base = EventLoop.now + 5_000_000
        let gate = hold(loop)
        let fired = Mutex<[(deadline: UInt64, index: Int)]>([])
        var expected: [(deadline: UInt64, index: Int)] = []
        var timers: [EventLoop.Timer] = []
        for index in 0..<1000 {
            // Few distinct deadlines, so that ties are common.
            let deadline = base + UInt64.random(in: 0..<40, using: &generator) * 500_000
            timers.append(loop.addTimer(at: deadline) { fired.withLock { $0.append((deadline, index)) } })
            expected.append((deadline, index))
            if index % 3 == 0, Bool.random(using: &generator) {
                #expect(loop.cancel(timers[index]))
                expected.removeLast()
            }
        }
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            _ = loop.addTimer(at: base + 40 * 500_000) { done.resume() }
            gate.signal()
        }
        let order = fired.withLock { $0 }
        expected.sort { ($0.deadline, $0.index) < ($1.deadline, $1.index) }
        #expect(order.map(\.index) == expected.map(\.index))
    }

    @Test func workPostedFromManyThreadsAllRunsOnce() async throws {
        let (loop, _) = try running()
        defer { loop.stop() }
        let count = Shared(0)
        let posters = 4
        let each = 5_000
        let done = Shared(0)
        for n in 0..<posters {
            let started = DetachedThread.start(name: "poster-\(n)") {
                for _ in 0..<each { loop.post { count.value.add(1, ordering: .relaxed) } }
                done.value.add(1, ordering: .releasing)
            }
            #expect(started)
        }
        while done.value.load(ordering: .acquiring) < posters { await MonotonicSleep.pause(seconds: 0.005) }
        await drain(loop)
        #expect(count.value.load(ordering: .relaxed) == posters * each)
    }

    @Test func restComesOnceAfterEachBurstAndNeverWhileTheLoopOnlySleeps() async throws {
        let loop = try #require(EventLoop())
        let order = Mutex<[String]>([])
        let rested = Shared(0)
        loop.whenResting(after: 0.05) {
            order.withLock { $0.append("rest") }
            rested.value.add(1, ordering: .relaxed)
        }
        #expect(DetachedThread.start(name: "test-loop") { loop.run() })
        defer { loop.stop() }
        /// Waits up to two seconds for the `count`th rest.
        func waitForRest(_ count: Int) async {
            var waited = 0
            while rested.value.load(ordering: .relaxed) < count, waited < 400 {
                await MonotonicSleep.pause(seconds: 0.005)
                waited += 1
            }
        }
        await MonotonicSleep.pause(seconds: 0.1)
        #expect(rested.value.load(ordering: .relaxed) == 0, "a loop that has run nothing does not rest")

        // Posted while the loop is held, the ten jobs are one burst, however fast the loop drains them.
        let burst = hold(loop)
        for index in 0..<10 { loop.post { order.withLock { $0.append("job \(index)") } } }
        burst.signal()
        await waitForRest(1)
        let wakeUps = loop.wakeUps
        await MonotonicSleep.pause(seconds: 0.2)
        #expect(rested.value.load(ordering: .relaxed) == 1, "one rest for the burst, none while it sleeps")
        #expect(loop.wakeUps == wakeUps, "resting wakes nothing")
        #expect(order.withLock { $0 } == (0..<10).map { "job \($0)" } + ["rest"])

        // A timer due sooner than the rest's distance keeps the burst going: the rest comes after it.
        order.withLock { $0.removeAll() }
        let gate = hold(loop)
        _ = loop.addTimer(at: EventLoop.now + 20_000_000) { order.withLock { $0.append("timer") } }
        loop.post { order.withLock { $0.append("job") } }
        gate.signal()
        await waitForRest(2)
        #expect(order.withLock { $0 } == ["job", "timer", "rest"], "the held job and the one posted rest once, after the timer")
    }

    @Test func anIdleLoopSleepsAndAStopEndsIt() async throws {
        let (loop, stopped) = try running()
        await drain(loop)
        let before = loop.wakeUps
        // No work and no timer: nothing wakes it.
        await MonotonicSleep.pause(seconds: 0.3)
        #expect(loop.wakeUps == before)
        // A far timer does not either, and a nearer one armed later shortens the wait.
        let far = loop.addTimer(at: EventLoop.now + 3_600_000_000_000) {}
        await MonotonicSleep.pause(seconds: 0.2)
        #expect(loop.wakeUps <= before + 1, "arming the far timer may cut the wait once")
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            _ = loop.addTimer(at: EventLoop.now + 1_000_000) { done.resume() }
        }
        #expect(loop.cancel(far))
        loop.stop()
        var waited = 0
        while !stopped.value.load(ordering: .acquiring), waited < 2000 {
            await MonotonicSleep.pause(seconds: 0.005)
            waited += 1
        }
        let ended = stopped.value.load(ordering: .acquiring)
        #expect(ended, "run() returned after stop()")
    }
}

/// An atomic value that closures on other threads can share.
final class Shared<Value: AtomicRepresentable & Sendable>: Sendable {
    let value: Atomic<Value>
    init(_ initial: Value) { value = Atomic(initial) }
}
