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

/// Where log lines go: standard error in the daemon, a capturing handler in tests.
///
/// Like swift-log's `LogHandler`: libraries take a ``Logger`` and never make one; the program
/// (or a test) chooses the handler once, and every logger derived from it shares it.
public protocol LogHandler: Sendable {
    /// Takes one message of `severity` from the part called `label`, already escaped and cut.
    func log(_ severity: LogLevel, label: String, message: String)
}

/// Logs messages of one part of the daemon through a ``LogHandler``.
public struct Logger: Sendable {
    /// The part of the daemon that logs.
    public var label: String
    /// The lowest level written.
    public var level: LogLevel
    /// Where the lines go.
    public var handler: any LogHandler

    /// A logger for `label` writing through `handler`; only the program's entry point and tests
    /// make one.
    public init(label: String, level: LogLevel = .info, handler: any LogHandler) {
        self.label = label
        self.level = level
        self.handler = handler
    }

    /// This logger for another part, with the same level and handler: how a library names the
    /// parts it builds without making a logger of its own.
    public func labelled(_ label: String) -> Logger {
        var copy = self
        copy.label = label
        return copy
    }

    /// The longest message written, in bytes; the rest is cut with its length noted.
    public static let maxMessageBytes = 2048

    /// Logs `message` at `severity` if the level allows.
    ///
    /// Control characters are escaped, so text quoted from a payload can never start a line of
    /// its own, and a message is cut at ``maxMessageBytes``.
    public func log(_ severity: LogLevel, _ message: @autoclosure () -> String) {
        guard severity >= level else { return }
        handler.log(severity, label: label, message: Quote.clip(message(), limit: Self.maxMessageBytes))
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
