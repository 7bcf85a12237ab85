import FoundationEssentials
import Glibc
import Platform
import Synchronization
import Testing

@Suite struct AbandonableTests {
    struct Failed: Error, Equatable { let reason: String }

    @Test func theWorksResultAndErrorComeBackAsTheyAre() async throws {
        let worker = WorkerExecutor(name: "abandonable-test")
        let value = try await Abandonable.value(on: worker, ifCancelled: Failed(reason: "stopped")) { () async throws(Failed) in 42 }
        #expect(value == 42)
        await #expect(throws: Failed(reason: "broken")) {
            try await Abandonable.value(on: nil, ifCancelled: Failed(reason: "stopped")) { () async throws(Failed) -> Int in
                throw Failed(reason: "broken")
            }
        }
    }

    /// Work that never looks at its cancellation (a blocking wait on its thread) is given up at
    /// once when its caller is cancelled, and still ends on its own afterwards.
    @Test(.timeLimit(.minutes(1))) func aCancelledCallerStopsWaitingAtOnce() async throws {
        let worker = WorkerExecutor(name: "abandonable-test")
        let started = Atomic<Bool>(false)
        let release = Atomic<Bool>(false)
        let ended = Atomic<Bool>(false)
        let caller = Task { () async throws(Failed) -> Int in
            try await Abandonable.value(on: worker, ifCancelled: Failed(reason: "stopped")) { () async throws(Failed) -> Int in
                started.store(true, ordering: .releasing)
                while !release.load(ordering: .acquiring) { usleep(1000) }
                ended.store(true, ordering: .releasing)
                return 1
            }
        }
        while !started.load(ordering: .acquiring) { try await Task.sleep(for: .milliseconds(1)) }
        let cancelledAt = ContinuousClock.now
        caller.cancel()
        let result = await caller.result
        #expect(throws: Failed(reason: "stopped")) { try result.get() }
        #expect(ContinuousClock.now - cancelledAt < .seconds(1))
        let endedFirst = ended.load(ordering: .acquiring)
        #expect(!endedFirst, "the work was still running when the caller gave it up")
        release.store(true, ordering: .releasing)
        while !ended.load(ordering: .acquiring) { try await Task.sleep(for: .milliseconds(1)) }
    }

    /// Cancelled before the work starts, the caller gets the cancellation, never a hang.
    @Test(.timeLimit(.minutes(1))) func aCallerCancelledBeforehandNeverHangs() async {
        let caller = Task { () async throws(Failed) -> Int in
            withUnsafeCurrentTask { $0?.cancel() }
            return try await Abandonable.value(on: nil, ifCancelled: Failed(reason: "stopped")) { () async throws(Failed) -> Int in
                try? await Task.sleep(for: .seconds(30))
                return 1
            }
        }
        let result = await caller.result
        #expect(throws: Failed(reason: "stopped")) { try result.get() }
    }
}
