import Foundation
import Platform
import Synchronization
import Testing

/// A helper thread runs the work it posts while the loop thread sleeps on (the daemon's MQTT
/// thread runs the tasks its messages resume this way).
@Suite(.timeLimit(.minutes(1)))
struct EventLoopHelperTests {
    let support = EventLoopTests()

    /// Runs `body` on a new thread that helps `loop`, with `between` counted in `betweens`, and
    /// returns what `body` returned.
    func onHelper<T: Sendable>(
        of loop: EventLoop, betweens: Shared<Int> = Shared(0), _ body: @escaping @Sendable () -> T
    ) async -> T {
        await withCheckedContinuation { (done: CheckedContinuation<T, Never>) in
            let started = DetachedThread.start(name: "test-helper") {
                let result = loop.helping(between: { betweens.value.add(1, ordering: .relaxed) }) { body() }
                done.resume(returning: result)
            }
            #expect(started)
        }
    }

    /// A loop running on a thread of its own that has drained its work and sleeps, with no timer.
    func sleepingLoop() async throws -> (EventLoop, Shared<Bool>) {
        let (loop, stopped) = try support.running()
        await support.drain(loop)
        try await Task.sleep(for: .milliseconds(20))
        return (loop, stopped)
    }

    /// Whether the calling thread is the one `id` names.
    static func isThread(_ id: Shared<UInt>) -> Bool { id.current == pthread_self() }

    static func markThread(_ id: Shared<UInt>) { id.value.store(pthread_self(), ordering: .releasing) }

    @Test func workAHelperPostsRunsOnItWithoutWakingTheSleepingLoop() async throws {
        let (loop, _) = try await sleepingLoop()
        defer { loop.stop() }
        let wakeUps = loop.wakeUps
        let betweens = Shared(0)
        let (helped, ranHere, chained) = await onHelper(of: loop, betweens: betweens) { () -> (Bool, Bool, Bool) in
            let helper = Shared<UInt>(0)
            EventLoopHelperTests.markThread(helper)
            let ran = Shared(false)
            let chained = Shared(false)
            loop.post {
                ran.value.store(EventLoopHelperTests.isThread(helper), ordering: .releasing)
                // What the work posts runs in the same help, here too.
                loop.post { chained.value.store(EventLoopHelperTests.isThread(helper), ordering: .releasing) }
            }
            let helped = loop.help(budget: 1)
            return (helped, ran.current, chained.current)
        }
        #expect(helped)
        #expect(ranHere, "the posted work ran on the helper")
        #expect(chained, "and what it posted, in the same help")
        #expect(betweens.current == 2, "between ran after each piece of work")
        try await Task.sleep(for: .milliseconds(50))
        #expect(loop.wakeUps == wakeUps, "the loop thread slept through it")
    }

    @Test func aLoopThreadThatIsAwakeRunsTheWorkItself() async throws {
        let (loop, _) = try support.running()
        defer { loop.stop() }
        let gate = support.hold(loop)
        let ranOnLoop = Shared(false)
        let helped = await onHelper(of: loop) { () -> Bool in
            let helper = Shared<UInt>(0)
            EventLoopHelperTests.markThread(helper)
            loop.post { ranOnLoop.value.store(!EventLoopHelperTests.isThread(helper), ordering: .releasing) }
            return loop.help(budget: 1)
        }
        #expect(!helped, "the loop was busy, not asleep: nothing was owed")
        gate.signal()
        await support.drain(loop)
        #expect(ranOnLoop.current)
    }

    @Test func workOwedWhenTheHelperLeavesGoesToTheLoopThread() async throws {
        let (loop, _) = try await sleepingLoop()
        defer { loop.stop() }
        let ran = Shared(false)
        // Posted on the helper and never helped with: leaving hands it to the loop thread.
        await onHelper(of: loop) { loop.post { ran.value.store(true, ordering: .releasing) } }
        await support.drain(loop)
        #expect(ran.current)
    }

    @Test func aSpentBudgetOrADueTimerHandsTheRestToTheLoopThread() async throws {
        let (loop, _) = try await sleepingLoop()
        defer { loop.stop() }
        let secondOnHelper = Shared(true)
        let timerFired = Shared(false)
        await onHelper(of: loop) {
            let helper = Shared<UInt>(0)
            EventLoopHelperTests.markThread(helper)
            loop.post {
                // A timer the sleeping loop thread does not wait for yet: it must learn of it.
                _ = loop.addTimer(at: EventLoop.now + 5_000_000) { timerFired.value.store(true, ordering: .releasing) }
                usleep(20_000)
            }
            loop.post { secondOnHelper.value.store(EventLoopHelperTests.isThread(helper), ordering: .releasing) }
            loop.help(budget: 0.001)
        }
        await support.drain(loop)
        #expect(!secondOnHelper.current, "after the budget, the loop thread ran the second")
        var waited = 0
        while !timerFired.current, waited < 200 {
            try await Task.sleep(for: .milliseconds(5))
            waited += 1
        }
        #expect(timerFired.current, "the timer armed on the helper fired on the loop thread")
    }

    @Test func theRestComesOnTheHelperWhenItsBurstIsOver() async throws {
        let loop = try #require(EventLoop())
        let restedOnHelper = Shared(0)
        let helper = Shared<UInt>(0)
        loop.whenResting(after: 0.5) {
            if EventLoopHelperTests.isThread(helper) { restedOnHelper.value.add(1, ordering: .relaxed) }
        }
        #expect(DetachedThread.start(name: "test-loop") { loop.run() })
        defer { loop.stop() }
        await support.drain(loop)
        try await Task.sleep(for: .milliseconds(50))
        let wakeUps = loop.wakeUps
        await onHelper(of: loop) {
            EventLoopHelperTests.markThread(helper)
            loop.post {}
            loop.help(budget: 1)
        }
        #expect(restedOnHelper.current == 1)
        try await Task.sleep(for: .milliseconds(50))
        #expect(loop.wakeUps == wakeUps, "the loop thread slept through the burst and its rest")
    }

    @Test func aStopWhileHelpingEndsTheLoopOnlyAfterTheHelp() async throws {
        let (loop, stopped) = try await sleepingLoop()
        let stoppedDuringWork = Shared(true)
        await onHelper(of: loop) {
            loop.post {
                loop.stop()
                usleep(20_000)
                stoppedDuringWork.value.store(stopped.current, ordering: .releasing)
            }
            loop.help(budget: 1)
        }
        #expect(!stoppedDuringWork.current, "run() had not returned while the helper worked")
        var waited = 0
        while !stopped.current, waited < 400 {
            try await Task.sleep(for: .milliseconds(5))
            waited += 1
        }
        #expect(stopped.current, "and returned after it")
    }
}

extension Shared<Bool> {
    /// The value now, as the thread that stored it left it.
    var current: Bool { value.load(ordering: .acquiring) }
}

extension Shared<Int> {
    /// The value now, as the thread that stored it left it.
    var current: Int { value.load(ordering: .acquiring) }
}

extension Shared<UInt> {
    /// The value now, as the thread that stored it left it.
    var current: UInt { value.load(ordering: .acquiring) }
}
