import EnergyClockDomain
import Foundation
import Synchronization

/// A clock that only moves when a test moves it.
///
/// ``advance(to:)`` wakes every sleeper whose deadline has come and returns once each of them is
/// asleep on the clock again, so a test sees the work a boundary causes without waiting in real
/// time (as swift-clocks' `TestClock` does).
package final class ManualClock: WallClock {
    private struct Sleeper {
        let id: UInt64
        let deadline: Date
        let continuation: CheckedContinuation<Void, any Error>
    }

    /// Someone waiting for sleepers: `remaining` more to fall asleep, or one with `deadline`.
    private struct Watcher {
        let id: UInt64
        var remaining: Int
        let deadline: Date?
        let continuation: CheckedContinuation<Bool, Never>
    }

    private struct State {
        var now: Date
        var nextID: UInt64 = 0
        var sleepers: [Sleeper] = []
        var watchers: [Watcher] = []
    }

    private let state: Mutex<State>

    /// A clock that reads `start` until advanced.
    package init(start: Date) {
        state = Mutex(State(now: start))
    }

    /// The current instant of this clock.
    package var now: Date { state.withLock { $0.now } }

    /// How many tasks are waiting on this clock.
    package var sleeperCount: Int { state.withLock { $0.sleepers.count } }

    /// The earliest deadline anyone waits for.
    package var nextDeadline: Date? { state.withLock { $0.sleepers.map(\.deadline).min() } }

    /// Suspends until the clock is advanced to `deadline` or beyond.
    package func sleep(until deadline: Date) async throws {
        let id = state.withLock { s in
            s.nextID += 1
            return s.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let (resumeNow, satisfied) = state.withLock { s -> (Bool, [Watcher]) in
                    if deadline <= s.now || Task.isCancelled { return (true, []) }
                    s.sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
                    return (false, Self.notify(&s.watchers, deadline: deadline))
                }
                satisfied.forEach { $0.continuation.resume(returning: true) }
                if resumeNow {
                    if Task.isCancelled { continuation.resume(throwing: CancellationError()) } else { continuation.resume() }
                }
            }
        } onCancel: {
            let sleeper = state.withLock { s -> Sleeper? in
                guard let i = s.sleepers.firstIndex(where: { $0.id == id }) else { return nil }
                return s.sleepers.remove(at: i)
            }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Counts a new sleeper with `deadline` towards every watcher; returns those now satisfied.
    private static func notify(_ watchers: inout [Watcher], deadline: Date) -> [Watcher] {
        var satisfied: [Watcher] = []
        watchers = watchers.compactMap { watcher in
            var watcher = watcher
            if let wanted = watcher.deadline, wanted != deadline { return watcher }
            watcher.remaining -= 1
            guard watcher.remaining <= 0 else { return watcher }
            satisfied.append(watcher)
            return nil
        }
        return satisfied
    }

    /// Moves the clock to `instant`, wakes everyone whose deadline has passed, and returns once as
    /// many tasks are asleep on the clock again (or `timeout` seconds of real time have passed: a
    /// minute by default, as the whole suite on two cores can hold the cooperative threads for
    /// 10-20 s at its start).
    @discardableResult
    package func advance(to instant: Date, timeout: Double = 60) async -> Bool {
        let id = state.withLock { s in
            s.nextID += 1
            return s.nextID
        }
        return await withCheckedContinuation { (done: CheckedContinuation<Bool, Never>) in
            let due = state.withLock { s -> [Sleeper] in
                s.now = max(s.now, instant)
                let due = s.sleepers.filter { $0.deadline <= s.now }
                s.sleepers.removeAll { $0.deadline <= s.now }
                if !due.isEmpty { s.watchers.append(Watcher(id: id, remaining: due.count, deadline: nil, continuation: done)) }
                return due
            }
            guard !due.isEmpty else { return done.resume(returning: true) }
            expire(id, after: timeout)
            for sleeper in due { sleeper.continuation.resume() }
        }
    }

    /// Returns once someone sleeps on the clock, until `deadline` when one is given; false when
    /// nobody did within `timeout` seconds of real time.
    @discardableResult
    package func waitForSleeper(until deadline: Date? = nil, timeout: Double = 60) async -> Bool {
        let id = state.withLock { s in
            s.nextID += 1
            return s.nextID
        }
        return await withCheckedContinuation { (done: CheckedContinuation<Bool, Never>) in
            let present = state.withLock { s -> Bool in
                if s.sleepers.contains(where: { deadline == nil || $0.deadline == deadline }) { return true }
                s.watchers.append(Watcher(id: id, remaining: 1, deadline: deadline, continuation: done))
                return false
            }
            if present { return done.resume(returning: true) } else { expire(id, after: timeout) }
        }
    }

    /// Gives up on watcher `id` after `timeout` seconds, should it still wait.
    private func expire(_ id: UInt64, after timeout: Double) {
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout) { [self] in
            let watcher = state.withLock { s -> Watcher? in
                guard let i = s.watchers.firstIndex(where: { $0.id == id }) else { return nil }
                return s.watchers.remove(at: i)
            }
            watcher?.continuation.resume(returning: false)
        }
    }
}
