import EnergyClockDomain
import FoundationEssentials
import Platform

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
            // No timer slack (see MonotonicSleep). A wake-up a few microseconds early, as the wall
            // and monotonic clocks drift apart, only goes round the loop once more.
            try await MonotonicSleep.sleep(seconds: min(remaining, 60))
        }
    }
}
