import Dispatch
import Synchronization

/// Sleeps on a one-shot dispatch timer with no leeway.
///
/// `Task.sleep` on Linux re-arms its timer every second while it waits, so an idle daemon would
/// wake once a second; a dispatch timer source wakes once, at the deadline, and exactly then.
enum MonotonicSleep {
    /// Suspends for `seconds` of monotonic time; throws `CancellationError` at once when cancelled.
    static func sleep(seconds: Double) async throws {
        let timer = DispatchSource.makeTimerSource(queue: .global())
        let waiter = Waiter()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                guard waiter.install(continuation) else { return continuation.resume(throwing: CancellationError()) }
                timer.setEventHandler { waiter.finish(nil) }
                timer.schedule(deadline: .now() + max(seconds, 0), leeway: .nanoseconds(0))
                timer.resume()
            }
        } onCancel: {
            waiter.finish(CancellationError())
        }
        timer.cancel()
    }

    /// The one continuation of a sleep, resumed exactly once by the timer or by cancellation.
    private final class Waiter: Sendable {
        private let state = Mutex<(continuation: CheckedContinuation<Void, any Error>?, cancelled: Bool)>((nil, false))

        /// Takes the continuation; false when the sleep was cancelled before it started.
        func install(_ continuation: CheckedContinuation<Void, any Error>) -> Bool {
            state.withLock { s in
                guard !s.cancelled else { return false }
                s.continuation = continuation
                return true
            }
        }

        /// Ends the sleep, with `error` when cancelled.
        func finish(_ error: (any Error)?) {
            let continuation = state.withLock { s in
                if error != nil { s.cancelled = true }
                defer { s.continuation = nil }
                return s.continuation
            }
            if let error { continuation?.resume(throwing: error) } else { continuation?.resume() }
        }
    }
}
