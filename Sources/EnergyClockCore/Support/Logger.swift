import FoundationEssentials

/// Log severity, lowest first.
public enum LogLevel: String, Sendable, CaseIterable, Comparable {
    /// Everything, including each publish.
    case debug
    /// Normal operation.
    case info
    /// Something failed but the daemon carries on.
    case warning
    /// Something failed that needs attention.
    case error

    /// Orders by severity.
    public static func < (lhs: LogLevel, rhs: LogLevel) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}

/// Writes `LEVEL [label] message` lines to standard error.
public struct Logger: Sendable {
    /// The part of the daemon that logs.
    public var label: String
    /// The lowest level written.
    public var level: LogLevel

    /// A logger for `label`.
    public init(label: String, level: LogLevel = .info) {
        self.label = label
        self.level = level
    }

    /// The longest message written, in bytes; the rest is cut with its length noted.
    public static let maxMessageBytes = 2048

    /// Logs `message` at `severity` if the level allows.
    ///
    /// Control characters are escaped, so text quoted from a payload can never start a line of
    /// its own, and a message is cut at ``maxMessageBytes``.
    public func log(_ severity: LogLevel, _ message: @autoclosure () -> String) {
        guard severity >= level else { return }
        let text = Quote.clip(message(), limit: Self.maxMessageBytes)
        let line = "\(ISO8601.utc(Date())) \(severity.rawValue.uppercased()) [\(label)] \(text)\n"
        StandardError.write(line)
    }

    /// Logs at debug level.
    public func debug(_ message: @autoclosure () -> String) { log(.debug, message()) }
    /// Logs at info level.
    public func info(_ message: @autoclosure () -> String) { log(.info, message()) }
    /// Logs at warning level.
    public func warning(_ message: @autoclosure () -> String) { log(.warning, message()) }
    /// Logs at error level.
    public func error(_ message: @autoclosure () -> String) { log(.error, message()) }
}
