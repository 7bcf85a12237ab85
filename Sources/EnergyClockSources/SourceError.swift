import EnergyClockDomain

/// A failed fetch: which source, and what went wrong. Never holds a secret.
public struct SourceError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The source's id.
    public var source: String
    /// What went wrong.
    public var problem: Problem

    /// An error of `source`.
    public init(source: String, problem: Problem) {
        self.source = source
        self.problem = problem
    }

    /// The ways a fetch fails.
    @nonexhaustive
    public enum Problem: Sendable, Equatable {
        /// The server answered with an unexpected HTTP status.
        case httpStatus(Int, detail: String)
        /// No complete answer within the time-out.
        case timeout(seconds: Double)
        /// Could not connect or the connection broke.
        case transport(String)
        /// The body was not of the expected media type.
        case contentType(String)
        /// The body was larger than the limit.
        case tooLarge(limit: Int)
        /// The body was empty.
        case emptyBody
        /// The body could not be read as the source's format.
        case malformed(String)
        /// The prices themselves are wrong.
        case invalidSlots(SlotProblem)
        /// The server refused the token it was given (HTTP status and its reason), or there is none to
        /// give (status 0): asking again soon would only be refused again, so it is retried slowly.
        case credentialsRefused(status: Int, reason: String)
    }

    /// This error with `secret` taken out of every text a server could have put in it.
    public func redacting(_ secret: String?) -> SourceError {
        func clean(_ text: String) -> String { Quote.redacting([secret], in: text) }
        var copy = self
        switch problem {
        case let .httpStatus(code, detail): copy.problem = .httpStatus(code, detail: clean(detail))
        case let .transport(reason): copy.problem = .transport(clean(reason))
        case let .contentType(type): copy.problem = .contentType(clean(type))
        case let .malformed(reason): copy.problem = .malformed(clean(reason))
        case let .credentialsRefused(status, reason): copy.problem = .credentialsRefused(status: status, reason: clean(reason))
        case .timeout, .tooLarge, .emptyBody, .invalidSlots: break
        }
        return copy
    }

    /// `source: problem`, for logs and `settings/result`.
    public var description: String {
        let what: String =
            switch problem {
            case let .httpStatus(code, detail): "HTTP \(code)" + (detail.isEmpty ? "" : ": \(detail)")
            case let .timeout(seconds): "no answer within \(DecimalFormat.string(seconds, decimals: 1)) s"
            case let .transport(reason): "connection failed: \(reason)"
            case let .contentType(type): "unexpected content type \"\(type)\""
            case let .tooLarge(limit): "response larger than \(limit) bytes"
            case .emptyBody: "empty response body"
            case let .malformed(reason): "unreadable response: \(reason)"
            case let .invalidSlots(problem): "invalid prices: \(problem)"
            case let .credentialsRefused(status, reason): status > 0 ? "HTTP \(status): \(reason)" : reason
            }
        return "\(source): \(what)"
    }
}

extension SourceError.Problem {
    /// Whether the server refused the credentials, so that only a changed token can help.
    public var isRefusal: Bool {
        if case .credentialsRefused = self { true } else { false }
    }
}

extension Array where Element == SeriesSlot {
    /// These slots checked by `validated(within:)`, with a failure reported as `source`'s invalid prices.
    package func validated(from source: String, within window: SlotWindow = .plausible) throws(SourceError) -> [SeriesSlot] {
        do {
            return try validated(within: window)
        } catch {
            throw SourceError(source: source, problem: .invalidSlots(error))
        }
    }
}
