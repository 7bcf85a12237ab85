import Dispatch
import Synchronization

/// Sleeps on a one-shot dispatch timer with no leeway.
///
/// `Task.sleep` on Linux re-arms its timer every second while it waits, so an idle daemon would
/// wake once a second; a dispatch timer source wakes once, at the deadline, and exactly then.
enum MonotonicSleep {
    /// Suspends for `seconds` of monotonic time; throws `CancellationError` at once when cancelled.
    static func sleep(seconds: Double) async throws {
        let waiter = Waiter()
        let timer = DispatchSource.makeTimerSource(queue: .global())
        timer.setEventHandler { waiter.finish(nil) }
        timer.schedule(deadline: .now() + max(seconds, 0), leeway: .nanoseconds(0))
        // Resumed at once and cancelled at the end, whatever happens: libdispatch traps when a
        // source that was never resumed is released.
        timer.resume()
        defer { timer.cancel() }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                waiter.wait(continuation)
            }
        } onCancel: {
            waiter.finish(CancellationError())
        }
    }

    /// The outcome of one sleep and the task waiting for it; whichever comes second resumes it.
    private final class Waiter: Sendable {
        private enum State {
            case pending
            case waiting(CheckedContinuation<Void, any Error>)
            case done((any Error)?)
        }

        private let state = Mutex(State.pending)

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
