#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where a client's connection stands, as one value: what the network thread, libmosquitto's
/// callbacks and ``MQTTClient/stop(timeout:)`` share, behind one lock with one condition.
///
/// It replaces four flags and two semaphores that could disagree with each other: every change
/// is one transition here, made under the lock, and whoever waits (a backoff pause, `stop()`
/// waiting for the thread) is woken by the same condition.
package enum Lifecycle: Sendable, Equatable {
    /// Created; nothing has happened yet.
    case idle
    /// The broker accepted the connection at `since`, in monotonic nanoseconds.
    case connected(since: UInt64)
    /// Not connected. `reported` once this outage was told to the client's user; `upSince` while
    /// the connection that just ended has not yet been looked at by the network thread.
    case down(reported: Bool, upSince: UInt64?)
    /// ``MQTTClient/stop(timeout:)`` asked the network thread to end.
    case stopping
    /// The network thread has returned.
    case ended

    /// Whether the network thread should end.
    package var isStopping: Bool { self == .stopping || self == .ended }

    /// Whether the broker had accepted the connection that is failing now: a drop before that is
    /// most likely a wrong port or a missing client certificate.
    package var wasUp: Bool {
        switch self {
        case .connected: true
        case let .down(_, upSince): upSince != nil
        default: false
        }
    }

    /// The broker accepted the connection at `now`; a new outage will be reported again.
    package mutating func connected(at now: UInt64) {
        guard !isStopping else { return }
        self = .connected(since: now)
    }

    /// A connection failed, dropped or was refused: whether that is news to report, once per outage.
    package mutating func report() -> Bool {
        switch self {
        case let .connected(since):
            self = .down(reported: true, upSince: since)
            return true
        case .idle:
            self = .down(reported: true, upSince: nil)
            return true
        case let .down(false, upSince):
            self = .down(reported: true, upSince: upSince)
            return true
        case .down(true, _), .stopping, .ended:
            return false
        }
    }

    /// When the connection that just ended had come up, for the network thread's backoff; nil when
    /// it never did, or was already looked at.
    package mutating func takeUpSince() -> UInt64? {
        switch self {
        case let .connected(since):
            self = .down(reported: false, upSince: nil)
            return since
        case let .down(reported, upSince):
            self = .down(reported: reported, upSince: nil)
            return upSince
        default:
            return nil
        }
    }
}

/// A ``Lifecycle`` behind a mutex and a condition variable.
final class LifecycleLock: @unchecked Sendable {
    // `state` is read and written only with `mutex` held.
    private var state = Lifecycle.idle
    private var mutex = pthread_mutex_t()
    private var condition = pthread_cond_t()

    init() {
        pthread_mutex_init(&mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        // Deadlines on the monotonic clock, so a change of the wall clock neither stretches nor cuts a pause.
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(&condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(&condition)
        pthread_mutex_destroy(&mutex)
    }

    /// Reads or changes the state; every change wakes those who wait.
    func update<Result>(_ body: (inout Lifecycle) -> Result) -> Result {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        let before = state
        let result = body(&state)
        if state != before { pthread_cond_broadcast(&condition) }
        return result
    }

    /// The state now.
    var current: Lifecycle { update { $0 } }

    /// Waits until `done` holds or `seconds` have passed; returns whether `done` holds.
    func wait(seconds: Double, until done: (Lifecycle) -> Bool) -> Bool {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let whole = seconds.rounded(.down)
        var deadline = timespec(
            tv_sec: now.tv_sec + Int(whole), tv_nsec: now.tv_nsec + Int(((seconds - whole) * 1e9).rounded()))
        if deadline.tv_nsec >= 1_000_000_000 {
            deadline.tv_sec += 1
            deadline.tv_nsec -= 1_000_000_000
        }
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        while !done(state) {
            if pthread_cond_timedwait(&condition, &mutex, &deadline) == ETIMEDOUT { return done(state) }
        }
        return true
    }
}
