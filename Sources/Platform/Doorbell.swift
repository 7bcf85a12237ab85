import Synchronization

/// A wake-up that one task waits for and any other task rings, without a task of its own.
///
/// A ring while nobody waits is kept for the next wait, and rings before that wait count as one,
/// so a wake-up is never lost and never counted twice. A waiting task that is cancelled returns at
/// once.
package final class Doorbell: Sendable {
    private struct State {
        var rung = false
        var waiter: CheckedContinuation<Void, Never>?
    }

    private let state = Mutex(State())

    /// A doorbell nobody has rung.
    package init() {}

    /// Wakes the waiting task, or the next one to wait.
    package func ring() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard let waiter = state.waiter else {
                state.rung = true
                return nil
            }
            state.waiter = nil
            return waiter
        }
        waiter?.resume()
    }

    /// Returns at the next ring (at once when it rang since the last wait), or when the task is
    /// cancelled. One task waits at a time.
    package func wait() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now = state.withLock { state -> Bool in
                    if state.rung {
                        state.rung = false
                        return true
                    }
                    if Task.isCancelled { return true }
                    precondition(state.waiter == nil, "a doorbell has one waiter at a time")
                    state.waiter = continuation
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume()
        }
    }
}
