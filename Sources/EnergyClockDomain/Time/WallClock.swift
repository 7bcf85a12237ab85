import FoundationEssentials

/// The source of "now" and of waiting; injected so tests can jump through time.
public protocol WallClock: Sendable {
    /// The current instant.
    var now: Date { get }
    /// Suspends until `deadline` has passed; throws `CancellationError` when cancelled.
    func sleep(until deadline: Date) async throws
}
