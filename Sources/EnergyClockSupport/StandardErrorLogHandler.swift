import EnergyClockDomain
import FoundationEssentials

/// `2026-01-15T12:00:00Z LEVEL [label] message` lines on standard error, one write each.
public struct StandardErrorLogHandler: LogHandler {
    /// The handler.
    public init() {}

    /// Writes the line.
    public func log(_ severity: LogLevel, label: String, message: String) {
        StandardError.write("\(ISO8601.utc(Date())) \(severity.rawValue.uppercased()) [\(label)] \(message)\n")
    }
}
