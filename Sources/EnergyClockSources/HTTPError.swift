import EnergyClockDomain

/// Why an HTTP request got no answer; never holds the URL, whose query may hold a token.
@nonexhaustive
public enum HTTPError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No complete answer within the time-out.
    case timeout(seconds: Double)
    /// Could not connect, or the connection broke.
    case transport(String)
    /// The body was larger than the limit.
    case tooLarge(limit: Int)
    /// The request's task was cancelled.
    case cancelled

    /// What happened, for a log line.
    public var description: String {
        switch self {
        case let .timeout(seconds): "no answer within \(DecimalFormat.string(seconds, decimals: 1)) s"
        case let .transport(reason): "connection failed: \(reason)"
        case let .tooLarge(limit): "response larger than \(limit) bytes"
        case .cancelled: "cancelled"
        }
    }
}
