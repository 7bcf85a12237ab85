/// What the network thread does after a connection fails or drops, as a value over the time it
/// is given: which broker comes next, how long to pause first, and when to say that connections
/// keep dropping. The thread feeds it each failure with the monotonic time and carries out the
/// ``Step`` it returns; tests feed it failures on a clock of their own.
///
/// With several brokers, each failure moves on to the next one after the shortest pause; the
/// pause grows, doubling up to the longest, only once a whole round of them has failed. It starts
/// over only after a connection has stayed up for ``stableAfter`` seconds, so a refused login or
/// a session taken over right after connecting backs off like any outage.
package struct Reconnection: Sendable, Equatable {
    /// Seconds a connection must last before it counts as healthy.
    package static let stableAfter: Double = 10
    /// Connections in a row that end sooner than that before the client says so.
    package static let dropsBeforeWarning = 3
    /// The factor each pause is multiplied by, drawn anew for each, so that many clients that lost
    /// the same broker do not all come back at the same instant.
    package static let jitter: ClosedRange<Double> = 0.8...1.2

    /// The shortest and the longest pause, in seconds.
    package let delays: ClosedRange<Double>
    /// How many brokers there are to take turns.
    package let brokers: Int
    /// The broker tried last, by its place in the list.
    package private(set) var broker = 0
    /// The pause after the next whole round has failed, in seconds.
    package private(set) var delay: Double
    /// Connections in a row that ended before they were stable.
    package private(set) var quickDrops = 0

    /// What to do after a failure.
    package struct Step: Sendable, Equatable {
        /// Seconds to pause, before the jitter.
        package var pause: Double
        /// The broker to try next, by its place in the list.
        package var broker: Int
        /// Whether that is the one that just failed, so that its connection is taken up again.
        package var sameBroker: Bool
        /// Set when this failure makes ``Reconnection/dropsBeforeWarning`` quick drops in a row: the count.
        package var droppedRepeatedly: Int?
    }

    /// A client that takes `brokers` brokers in turn and pauses between `delays` seconds.
    package init(brokers: Int, delays: ClosedRange<Double>) {
        precondition(brokers > 0, "a client has at least one broker")
        self.brokers = brokers
        self.delays = delays
        delay = delays.lowerBound
    }

    /// A connection failed at `now` (monotonic nanoseconds); `upSince` is when the broker had
    /// accepted it, if it had. Returns what to do next.
    package mutating func failed(upSince: UInt64?, at now: UInt64) -> Step {
        var warning: Int?
        if let upSince {
            let lasted = Double(now &- upSince) / 1e9
            if upSince <= now, lasted >= Self.stableAfter {
                delay = delays.lowerBound
                quickDrops = 0
            } else {
                quickDrops += 1
                if quickDrops == Self.dropsBeforeWarning { warning = quickDrops }
            }
        }
        broker = (broker + 1) % brokers
        let roundOver = broker == 0
        let pause = roundOver ? delay : delays.lowerBound
        if roundOver { delay = min(delay * 2, delays.upperBound) }
        return Step(pause: pause, broker: broker, sameBroker: brokers == 1, droppedRepeatedly: warning)
    }
}
