import FoundationEssentials
import Glibc

/// When to fetch and when to sleep: a pure state machine over instants, with no clock of its own.
///
/// The manager asks ``decide(now:need:nextEvent:)`` what to do, does it, and reports back
/// with ``succeeded(at:stillNeeded:jitter:)`` or ``failed(at:jitter:)``.
public struct RefreshSchedule: Sendable, Equatable {
    /// When to poll for tomorrow, and how to space polls and retries.
    public struct Policy: Sendable, Equatable {
        /// Local hour from which tomorrow's prices are expected, for every source; nil for each
        /// source's own hour (``PriceSource/nextDayPublication``), and ``defaultTomorrowHour`` for one
        /// that names none.
        public var tomorrowHour: Int?
        /// The hour for a source that names none: 13:00 local, when Europe's day-ahead auction has published.
        public static let defaultTomorrowHour = 13
        /// Pause between polls while waiting for prices that are due, in seconds.
        public var pollInterval: TimeInterval = 300
        /// First retry delay after a failed fetch, in seconds; doubles per failure.
        public var retryBase: TimeInterval = 30
        /// Longest retry delay, in seconds.
        public var retryMax: TimeInterval = 900
        /// Retry delay after a source refused its token, in seconds: an hour, as a refused token
        /// stays refused until someone changes it.
        public var refusedRetry: TimeInterval = 3600
        /// Relative spread of every delay, so many daemons do not poll in step.
        public var jitter: Double = 0.2

        /// The default policy: each source's hour, 5 min polls, 30 s…15 min retries, ±20 % jitter.
        public init() {}
    }

    /// What data is missing now.
    package struct Need: Sendable, Equatable {
        /// Today is not completely covered.
        package var today: Bool
        /// Tomorrow is due (past the publication hour) but not completely covered.
        package var tomorrow: Bool
        /// The prices come from the chosen source, not from a fallback.
        package var chosenSource: Bool
        /// The last fetch failed, so the prices shown are stale until one succeeds.
        package var stale: Bool

        /// A need from its parts.
        package init(today: Bool, tomorrow: Bool, chosenSource: Bool = true, stale: Bool = false) {
            self.today = today
            self.tomorrow = tomorrow
            self.chosenSource = chosenSource
            self.stale = stale
        }

        /// Whether a fetch is wanted: something missing, a return to the chosen source, or a retry.
        package var any: Bool { today || tomorrow || !chosenSource || stale }
    }

    /// The next step.
    package enum Decision: Sendable, Equatable {
        /// Fetch now.
        case fetch
        /// Sleep until this instant, then decide again.
        case wait(until: Date)
    }

    /// The rules in force.
    package var policy: Policy
    /// Failed fetches since the last success.
    package private(set) var failures = 0
    /// No fetch for missing data before this instant.
    package private(set) var notBefore: Date?
    /// A fetch was asked for regardless of need (start-up, source switch, refresh button).
    package private(set) var forced = false

    /// A schedule with `policy`.
    package init(policy: Policy = Policy()) {
        self.policy = policy
    }

    /// What to do at `now`, given what is missing and when the next slot or day begins.
    package func decide(now: Date, need: Need, nextEvent: Date) -> Decision {
        if forced { return .fetch }
        if need.any {
            guard let notBefore, notBefore > now else { return .fetch }
            return .wait(until: min(notBefore, nextEvent))
        }
        return .wait(until: nextEvent)
    }

    /// Asks for a fetch at the next decision, whatever is cached.
    package mutating func requestFetch() {
        forced = true
    }

    /// Records a successful fetch; if data is still missing, polls again after the poll interval.
    /// - Parameter jitter: a random number in −1…1.
    package mutating func succeeded(at now: Date, stillNeeded: Bool, jitter: Double) {
        failures = 0
        forced = false
        notBefore = stillNeeded ? now.addingTimeInterval(spread(policy.pollInterval, jitter)) : nil
    }

    /// Records a failed fetch and backs off exponentially.
    /// - Parameter jitter: a random number in −1…1.
    /// - Parameter refused: the source refused its credentials; the retry waits ``Policy/refusedRetry``.
    package mutating func failed(at now: Date, jitter: Double, refused: Bool = false) {
        failures += 1
        forced = false
        let delay = refused ? policy.refusedRetry : min(policy.retryBase * pow(2, Double(min(failures - 1, 30))), policy.retryMax)
        notBefore = now.addingTimeInterval(spread(delay, jitter))
    }

    private func spread(_ delay: TimeInterval, _ jitter: Double) -> TimeInterval {
        delay * (1 + policy.jitter * max(-1, min(1, jitter)))
    }
}

extension RefreshSchedule {
    /// At start-up: fetch at once only when the cache lacks something.
    mutating func requestFetchIfNeeded(_ need: Need) {
        if need.any { requestFetch() }
    }
}
