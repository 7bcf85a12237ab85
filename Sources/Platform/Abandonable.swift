import Synchronization

/// Work its caller may stop waiting for: run as a task of its own, on an executor of its own, and
/// given up the moment the caller is cancelled.
///
/// A fetch whose parse does not look at its cancellation (a library's, or a long loop of ours)
/// would otherwise hold whoever awaits it until it ends; a shutdown that waits for it could take
/// seconds. Given up, the work is cancelled too, ends on its own thread, and its result is dropped.
package enum Abandonable {
    /// The result of `body`, run preferring `executor` (the global executor when `nil`); when the
    /// calling task is cancelled first, `cancelled` is thrown at once instead.
    package static func value<Success: Sendable, Failure: Error>(
        on executor: (any TaskExecutor)?, ifCancelled cancelled: Failure,
        _ body: @escaping @Sendable () async throws(Failure) -> Success
    ) async throws(Failure) -> Success {
        let outcome = Outcome<Success, Failure>()
        let work = Task(executorPreference: executor) {
            do throws(Failure) {
                outcome.settle(.success(try await body()))
            } catch {
                outcome.settle(.failure(error))
            }
        }
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { outcome.wait(with: $0) }
        } onCancel: {
            work.cancel()
            outcome.settle(.failure(cancelled))
        }
        return try result.get()
    }
}

/// The first of the work's end and the caller's cancellation; whichever comes second is dropped.
private final class Outcome<Success: Sendable, Failure: Error>: Sendable {
    private enum State {
        case pending
        case waiting(CheckedContinuation<Result<Success, Failure>, Never>)
        case settled(Result<Success, Failure>)
        case done
    }

    private let state = Mutex<State>(.pending)

    /// Records `result` unless one was recorded before, and hands it to a waiter already there.
    func settle(_ result: sending Result<Success, Failure>) {
        let waiter: CheckedContinuation<Result<Success, Failure>, Never>? = state.withLock { state in
            switch state {
            case .pending:
                state = .settled(result)
                return nil
            case let .waiting(continuation):
                state = .done
                return continuation
            case .settled, .done:
                return nil
            }
        }
        waiter?.resume(returning: result)
    }

    /// Waits with `continuation` for the result, or hands over the one already recorded.
    func wait(with continuation: CheckedContinuation<Result<Success, Failure>, Never>) {
        let ready: Result<Success, Failure>? = state.withLock { state in
            switch state {
            case .pending:
                state = .waiting(continuation)
                return nil
            case let .settled(result):
                state = .done
                return result
            case .waiting, .done:
                preconditionFailure("an outcome is waited for once")
            }
        }
        if let ready { continuation.resume(returning: ready) }
    }
}
