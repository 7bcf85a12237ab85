/// What the network thread does about a publish that another thread announced with
/// ``MQTTClient/expectPublish(in:)``: sleep until a moment before it, then spin until the packet
/// is queued, so that it leaves at once instead of after a wake-up of this thread.
///
/// Times are nanoseconds of the monotonic clock (`EventLoop.now`).
package enum ExpectedPublish: Equatable, Sendable {
    /// Nothing is expected.
    case none
    /// Sleep at most this many nanoseconds, then decide again.
    case sleep(nanoseconds: UInt64)
    /// Withdraw the expectation and spin until the packet is queued or this deadline passes; at
    /// once when it has passed.
    case spin(until: UInt64)

    /// How long before the expected moment the thread is awake. A poll's timeout ends late on a
    /// virtual machine whose host must first wake the idle virtual CPU: 0.05-0.3 ms here, and now
    /// and then more than half a millisecond.
    package static let lead: UInt64 = 1_000_000
    /// How long after the expected moment the thread spins for the packet at most. The slot
    /// boundary's prices are queued 0.1-0.3 ms after it.
    package static let grace: UInt64 = 3_000_000
    /// The furthest ahead a publish can be expected: a day.
    package static let horizon = 86_400.0

    /// What to do about a publish expected at `expected` (0 for none), at `now`.
    package init(expected: UInt64, now: UInt64) {
        if expected == 0 {
            self = .none
        } else if now < expected, expected - now > Self.lead {
            self = .sleep(nanoseconds: expected - now - Self.lead)
        } else {
            self = .spin(until: expected &+ Self.grace)
        }
    }

    /// Whether the thread must be woken for `moment` that replaced `replaced` (0 for none): only
    /// when it is due before the wake the thread's poll may already be set for. One that is later,
    /// or none, the thread finds when it wakes for the one it replaced.
    package static func comesSooner(_ moment: UInt64, than replaced: UInt64) -> Bool {
        moment != 0 && (replaced == 0 || moment < replaced)
    }

    /// The moment `seconds` after `now`; 0, for none, when `seconds` is not a positive number of
    /// seconds within ``horizon``.
    package static func moment(in seconds: Double, after now: UInt64) -> UInt64 {
        guard seconds > 0, seconds <= horizon else { return 0 }
        return now &+ UInt64(seconds * 1e9)
    }
}
