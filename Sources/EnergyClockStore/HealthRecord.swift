import EnergyClockDomain
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
    /// The broker connected to, or tried last, as `host:port`: one of several with `--mqtt-host a,b`.
    public var broker: String?
    /// The first profile's prices come from the cache because its last fetch failed.
    public var stale = false
    /// The same for every further profile, by name.
    public var profiles: [String: Publication] = [:]

    /// When one profile last published and is due again, and whether its prices are stale.
    public struct Publication: Sendable, Equatable {
        /// The last time it published what now looks like.
        public var publishedAt: Date
        /// When it will publish again at the latest.
        public var dueBy: Date
        /// Its prices come from the cache.
        public var stale: Bool

        /// A publication from its parts.
        public init(publishedAt: Date, dueBy: Date, stale: Bool) {
            self.publishedAt = publishedAt
            self.dueBy = dueBy
            self.stale = stale
        }
    }

    /// The record's file name in the state directory.
    public static let fileName = "health.json"

    /// A record from its parts.
    public init(connected: Bool, since: Date, publishedAt: Date? = nil, dueBy: Date? = nil, broker: String? = nil) {
        self.broker = broker
        self.connected = connected
        self.since = since
        self.publishedAt = publishedAt
        self.dueBy = dueBy
    }

    /// Writes the record to `directory` by replacing the file whole, so a reader never sees half of it.
    public func write(to directory: StateDirectory) throws(StoreError) {
        let path = directory.file(Self.fileName)
        if case let .failure(failure) = RegularFile.replace(path, with: encoded) { throw Self.writeError(path, failure) }
    }

    /// ``write(to:)`` on `writer`'s thread: returns at once, and a failure goes to `failed`.
    package func write(to directory: StateDirectory, with writer: FileWriter, failed: @escaping @Sendable (StoreError) -> Void) {
        let path = directory.file(Self.fileName)
        writer.replace(path, with: encoded) { failed(Self.writeError(path, $0)) }
    }

    private static func writeError(_ path: String, _ failure: RegularFile.Failure) -> StoreError {
        StoreError(action: "write \(path)", message: "\(failure)")
    }

    /// The record as the file holds it: one JSON object.
    var encoded: [UInt8] {
        var w = JSONWriter()
        w.beginObject()
        w.field("connected", connected)
        w.field("since", Int(Bounded.wholeSeconds(since)))
        w.field("published_at", publishedAt.map { Int(Bounded.wholeSeconds($0)) })
        w.field("due_by", dueBy.map { Int(Bounded.wholeSeconds($0)) })
        if let broker { w.field("broker", broker) }
        w.field("stale", stale)
        if !profiles.isEmpty {
            w.key("profiles")
            w.beginObject()
            for (name, publication) in profiles.sorted(by: { $0.key < $1.key }) {
                w.key(name)
                w.beginObject()
                w.field("published_at", Int(Bounded.wholeSeconds(publication.publishedAt)))
                w.field("due_by", Int(Bounded.wholeSeconds(publication.dueBy)))
                w.field("stale", publication.stale)
                w.endObject()
            }
            w.endObject()
        }
        w.endObject()
        return Array(w.output.utf8)
    }

    /// The largest `health.json` read; the daemon writes about a hundred bytes, and some eighty
    /// more per further profile.
    static let maxFileBytes = 16384

    /// The record in `directory`, or nil when there is none that can be read.
    ///
    /// The file is read as a regular file of at most 16 KiB within a second, and every time in it
    /// must be a plausible instant (see ``Bounded/instant(secondsSince1970:)``): a record holding
    /// `1e300` is no record.
    public static func read(from directory: StateDirectory) -> HealthRecord? {
        guard let data = try? RegularFile.read(directory.file(fileName), limit: maxFileBytes, timeout: 1).get() else { return nil }
        return parse(data)
    }

    /// The record in `data`, or nil unless it is an object with `connected`, a plausible `since` and,
    /// where given, plausible `published_at` and `due_by`, a `broker` of at most 300 printable bytes,
    /// and `profiles` of at most ``Profiles/limit`` valid names, each with plausible times.
    public static func parse(_ data: [UInt8]) -> HealthRecord? {
        guard case let .object(root)? = JSONValue.parse(data), case let .bool(connected)? = root["connected"],
            case let .number(sinceSeconds)? = root["since"], let since = Bounded.instant(secondsSince1970: sinceSeconds)
        else { return nil }
        var dates: [String: Date] = [:]
        for key in ["published_at", "due_by"] {
            switch root[key] {
            case nil, .null?: continue
            case let .number(seconds)?:
                guard let date = Bounded.instant(secondsSince1970: seconds) else { return nil }
                dates[key] = date
            default: return nil
            }
        }
        var broker: String?
        switch root["broker"] {
        case nil, .null?: break
        case let .string(text)?:
            guard text.utf8.count <= 300, !text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else { return nil }
            broker = text
        default: return nil
        }
        var record = HealthRecord(
            connected: connected, since: since, publishedAt: dates["published_at"], dueBy: dates["due_by"], broker: broker)
        switch root["stale"] {
        case nil: break
        case let .bool(stale)?: record.stale = stale
        default: return nil
        }
        switch root["profiles"] {
        case nil: break
        case let .object(profiles)? where profiles.count <= Profiles.limit:
            for (name, value) in profiles {
                guard ProfileName.problem(with: name, reserved: []) == nil, case let .object(fields) = value,
                    case let .number(published)? = fields["published_at"], let publishedAt = Bounded.instant(secondsSince1970: published),
                    case let .number(due)? = fields["due_by"], let dueBy = Bounded.instant(secondsSince1970: due),
                    case let .bool(stale)? = fields["stale"]
                else { return nil }
                record.profiles[name] = Publication(publishedAt: publishedAt, dueBy: dueBy, stale: stale)
            }
        default: return nil
        }
        return record
    }

    /// Why the daemon is not healthy at `now`, or nil when it is: connected (or not gone longer
    /// than `maxOffline` seconds) and not behind its next publication by more than two minutes.
    public func problem(at now: Date, maxOffline: Double) -> String? {
        if !connected, now.timeIntervalSince(since) > maxOffline {
            return "the broker has been unreachable for \(Int(now.timeIntervalSince(since))) s"
        }
        guard connected else { return nil }
        if let dueBy, now.timeIntervalSince(dueBy) > 120 {
            return "it should have published at \(ISO8601.utc(dueBy)) and has not; it may be stuck"
        }
        for (name, publication) in profiles.sorted(by: { $0.key < $1.key }) where now.timeIntervalSince(publication.dueBy) > 120 {
            return "the profile \(name) should have published at \(ISO8601.utc(publication.dueBy)) and has not; it may be stuck"
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
