import Dispatch
import Synchronization

/// Sleeps on the monotonic clock with no slack: on the process's ``EventLoop`` when it has one,
/// otherwise on a one-shot dispatch timer.
///
/// Every sleep of the daemon goes through here. `Task.sleep` on Linux re-arms its timer every
/// second while it waits, and starts libdispatch's thread pool, which then ticks once a second
/// for the life of the process; a loop timer or a dispatch timer source wakes once, at the
/// deadline, and exactly then.
package enum MonotonicSleep {
    /// Suspends for `seconds` of monotonic time (none when it is not a positive number); throws
    /// `CancellationError` at once when cancelled.
    package static func sleep(seconds: Double) async throws {
        let waiter = Waiter()
        let seconds = seconds > 0 ? min(seconds, 1e9) : 0
        if let loop = EventLoop.global {
            let timer = loop.addTimer(at: EventLoop.now + UInt64(seconds * 1e9)) { waiter.finish(nil) }
            defer { loop.cancel(timer) }
            try await waiter.suspend()
        } else {
            let timer = DispatchSource.makeTimerSource(queue: .global())
            timer.setEventHandler { waiter.finish(nil) }
            timer.schedule(deadline: .now() + seconds, leeway: .nanoseconds(0))
            // Resumed at once and cancelled at the end, whatever happens: libdispatch traps when a
            // source that was never resumed is released.
            timer.resume()
            defer { timer.cancel() }
            try await waiter.suspend()
        }
    }

    /// Like ``sleep(seconds:)``, but a cancelled sleep simply ends early.
    package static func pause(seconds: Double) async {
        try? await sleep(seconds: seconds)
    }

    /// The outcome of one sleep and the task waiting for it; whichever comes second resumes it.
    private final class Waiter: Sendable {
        private enum State {
            case pending
            case waiting(CheckedContinuation<Void, any Error>)
            case done((any Error)?)
        }

        private let state = Mutex(State.pending)

        /// Waits for ``finish(_:)``, which a cancellation of the task calls with `CancellationError`.
        func suspend() async throws {
            try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                    wait(continuation)
                }
            } onCancel: {
                finish(CancellationError())
            }
        }

        /// Waits with `continuation`, or resumes it at once when the sleep already ended.
        func wait(_ continuation: CheckedContinuation<Void, any Error>) {
            let outcome: (any Error)?? = state.withLock { state in
                guard case let .done(error) = state else {
                    state = .waiting(continuation)
                    return nil
                }
                return .some(error)
            }
            if case let .some(error) = outcome { resume(continuation, error) }
        }

        /// Ends the sleep, with `error` when cancelled; only the first call counts.
        func finish(_ error: (any Error)?) {
            let continuation: CheckedContinuation<Void, any Error>? = state.withLock { state in
                switch state {
                case .done: return nil
                case .pending:
                    state = .done(error)
                    return nil
                case let .waiting(continuation):
                    state = .done(error)
                    return continuation
                }
            }
            if let continuation { resume(continuation, error) }
        }

        private func resume(_ continuation: CheckedContinuation<Void, any Error>, _ error: (any Error)?) {
            if let error { continuation.resume(throwing: error) } else { continuation.resume() }
        }
    }
}
