import Foundation
import Synchronization

/// The source of "now" and of waiting; injected so tests can jump through time.
public protocol WallClock: Sendable {
    /// The current instant.
    var now: Date { get }
    /// Suspends until `deadline` has passed; throws `CancellationError` when cancelled.
    func sleep(until deadline: Date) async throws
}

/// The real wall clock.
public struct SystemClock: WallClock {
    /// The system clock.
    public init() {}

    /// The current instant.
    public var now: Date { Date() }

    /// Sleeps in steps of at most a minute, so a wall-clock jump (NTP, suspend) is noticed soon.
    public func sleep(until deadline: Date) async throws {
        while true {
            let remaining = deadline.timeIntervalSinceNow
            if remaining <= 0 { return }
            try await Task.sleep(for: .milliseconds(Int64(min(remaining, 60) * 1000) + 1))
        }
    }
}

/// A clock that only moves when told to; sleepers wake as soon as it passes their deadline.
public final class ManualClock: WallClock {
    private struct Sleeper {
        let id: UInt64
        let deadline: Date
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now: Date
        var nextID: UInt64 = 0
        var sleepers: [Sleeper] = []
    }

    private let state: Mutex<State>

    /// A clock that reads `start` until advanced.
    public init(start: Date) {
        state = Mutex(State(now: start))
    }

    /// The current instant of this clock.
    public var now: Date { state.withLock { $0.now } }

    /// How many tasks are waiting on this clock.
    public var sleeperCount: Int { state.withLock { $0.sleepers.count } }

    /// The earliest deadline anyone waits for.
    public var nextDeadline: Date? { state.withLock { $0.sleepers.map(\.deadline).min() } }

    /// Suspends until the clock is advanced to `deadline` or beyond.
    public func sleep(until deadline: Date) async throws {
        let id = state.withLock { s in
            s.nextID += 1
            return s.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let resumeNow: Bool = state.withLock { s in
                    if deadline <= s.now || Task.isCancelled { return true }
                    s.sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
                    return false
                }
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

    /// Moves the clock to `instant` and wakes everyone whose deadline has passed.
    public func advance(to instant: Date) {
        let due = state.withLock { s -> [Sleeper] in
            s.now = max(s.now, instant)
            let due = s.sleepers.filter { $0.deadline <= s.now }
            s.sleepers.removeAll { $0.deadline <= s.now }
            return due
        }
        for sleeper in due { sleeper.continuation.resume() }
    }

    /// Moves the clock forward by `seconds`.
    public func advance(by seconds: TimeInterval) { advance(to: now.addingTimeInterval(seconds)) }
}
