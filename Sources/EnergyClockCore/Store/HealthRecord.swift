import FoundationEssentials
import Glibc
import Platform

/// What a running daemon last said about itself, in `health.json` in its state directory, for
/// `energyclock health` (a container's health check) to judge.
public struct HealthRecord: Sendable, Equatable {
    /// Connected to the broker.
    public var connected: Bool
    /// Since when the connection has been up, or down.
    public var since: Date
    /// The last time it published what now looks like.
    public var publishedAt: Date?
    /// When it will publish again at the latest (the next slot boundary or midnight), if all is well.
    public var dueBy: Date?

    /// The record's file name in the state directory.
    public static let fileName = "health.json"

    /// A record from its parts.
    public init(connected: Bool, since: Date, publishedAt: Date? = nil, dueBy: Date? = nil) {
        self.connected = connected
        self.since = since
        self.publishedAt = publishedAt
        self.dueBy = dueBy
    }

    /// Writes the record to `directory` by replacing the file whole, so a reader never sees half of it.
    public func write(to directory: StateDirectory) throws(StoreError) {
        var w = JSONWriter()
        w.beginObject()
        w.field("connected", connected)
        w.field("since", Int(since.timeIntervalSince1970))
        w.field("published_at", publishedAt.map { Int($0.timeIntervalSince1970) })
        w.field("due_by", dueBy.map { Int($0.timeIntervalSince1970) })
        w.endObject()
        let path = directory.file(Self.fileName)
        let temporary = path + ".tmp"
        let bytes = Array(w.output.utf8)
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw StoreError(action: "write \(temporary)", message: StateDirectory.lastError()) }
        let written = FileDescriptor.writeAll(fd, bytes)
        close(fd)
        guard written, rename(temporary, path) == 0 else {
            throw StoreError(action: "write \(path)", message: StateDirectory.lastError())
        }
    }

    /// The record in `directory`, or nil when there is none that can be read.
    public static func read(from directory: StateDirectory) -> HealthRecord? {
        guard let data = FileManager.default.contents(atPath: directory.file(fileName)),
            case let .object(root)? = JSONValue.parse([UInt8](data)), case let .bool(connected)? = root["connected"],
            case let .number(since)? = root["since"]
        else { return nil }
        func date(_ key: String) -> Date? {
            if case let .number(seconds)? = root[key] { Date(timeIntervalSince1970: seconds) } else { nil }
        }
        return HealthRecord(
            connected: connected, since: Date(timeIntervalSince1970: since), publishedAt: date("published_at"), dueBy: date("due_by"))
    }

    /// Why the daemon is not healthy at `now`, or nil when it is: connected (or not gone longer
    /// than `maxOffline` seconds) and not behind its next publication by more than two minutes.
    public func problem(at now: Date, maxOffline: Double) -> String? {
        if !connected, now.timeIntervalSince(since) > maxOffline {
            return "the broker has been unreachable for \(Int(now.timeIntervalSince(since))) s"
        }
        if connected, let dueBy, now.timeIntervalSince(dueBy) > 120 {
            return "it should have published at \(ISO8601.utc(dueBy)) and has not; it may be stuck"
        }
        return nil
    }
}

extension StateLock {
    /// Whether a daemon holds the lock on `directory` now.
    public static func isHeld(_ directory: StateDirectory) -> Bool {
        let fd = open(directory.file(fileName), O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        guard flock(fd, LOCK_SH | LOCK_NB) == 0 else { return errno == EWOULDBLOCK }
        flock(fd, LOCK_UN)
        return false
    }
}
