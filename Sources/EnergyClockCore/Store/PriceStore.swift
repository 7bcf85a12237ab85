import Foundation

/// The persistent state: settings, a price cache per source and each source's last successful fetch.
///
/// Writes are durable when they return (WAL with `synchronous=FULL`).
public final class PriceStore {
    private let db: SQLiteDatabase

    /// The database file's name inside the state directory.
    public static let fileName = "energyclock.sqlite"

    /// Opens or creates the store in `directory`, creating the directory too.
    public init(directory: URL) throws(StoreError) {
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw StoreError(action: "create state directory \(directory.path)", message: "\(error.localizedDescription)")
        }
        db = try SQLiteDatabase(path: directory.appendingPathComponent(Self.fileName).path)
        try db.execute("PRAGMA journal_mode=WAL", action: "enable the write-ahead log")
        try db.execute("PRAGMA synchronous=FULL", action: "set durable writes")
        try db.execute("""
            CREATE TABLE IF NOT EXISTS settings (id INTEGER PRIMARY KEY CHECK (id = 1), json TEXT NOT NULL);
            CREATE TABLE IF NOT EXISTS prices (
                source TEXT NOT NULL, start INTEGER NOT NULL, "end" INTEGER NOT NULL, market REAL NOT NULL,
                PRIMARY KEY (source, start)) WITHOUT ROWID;
            CREATE TABLE IF NOT EXISTS fetches (source TEXT PRIMARY KEY, last_success INTEGER NOT NULL);
            """, action: "create the schema")
    }

    /// Closes the database; the store must not be used afterwards.
    public func close() { db.close() }

    /// The saved settings as JSON text, if any were saved.
    public func settingsJSON() throws(StoreError) -> String? {
        var json: String?
        try db.query("SELECT json FROM settings WHERE id = 1", action: "read settings") { json = $0.text(0) }
        return json
    }

    /// Saves `settings`, durably.
    public func save(_ settings: Settings) throws(StoreError) {
        try db.query("INSERT INTO settings (id, json) VALUES (1, ?) ON CONFLICT(id) DO UPDATE SET json = excluded.json",
                     [.text(settings.json)], action: "save settings")
    }

    /// Cached slots of `source` that overlap `interval`, sorted.
    public func slots(source: String, overlapping interval: DateInterval) throws(StoreError) -> [PriceSlot] {
        var slots: [PriceSlot] = []
        try db.query(
            #"SELECT start, "end", market FROM prices WHERE source = ? AND "end" > ? AND start < ? ORDER BY start"#,
            [.text(source), .integer(Self.seconds(interval.start)), .integer(Self.seconds(interval.end))],
            action: "read prices of \(source)"
        ) { row in
            slots.append(PriceSlot(
                start: Date(timeIntervalSince1970: Double(row.integer(0))),
                end: Date(timeIntervalSince1970: Double(row.integer(1))),
                market: row.real(2)
            ))
        }
        return slots
    }

    /// Replaces the cached slots of `source` in the span of `slots`; records a successful fetch at `fetchedAt` if given.
    public func save(_ slots: [PriceSlot], source: String, fetchedAt: Date?) throws(StoreError) {
        try db.transaction(action: "save prices of \(source)") { () throws(StoreError) in
            if let first = slots.first, let last = slots.last {
                try db.query(#"DELETE FROM prices WHERE source = ? AND "end" > ? AND start < ?"#,
                             [.text(source), .integer(Self.seconds(first.start)), .integer(Self.seconds(last.end))],
                             action: "replace prices of \(source)")
                for slot in slots {
                    try db.query(#"INSERT INTO prices (source, start, "end", market) VALUES (?, ?, ?, ?)"#,
                                 [.text(source), .integer(Self.seconds(slot.start)), .integer(Self.seconds(slot.end)), .real(slot.market)],
                                 action: "save prices of \(source)")
                }
            }
            guard let fetchedAt else { return }
            try db.query("INSERT INTO fetches (source, last_success) VALUES (?, ?) ON CONFLICT(source) DO UPDATE SET last_success = excluded.last_success",
                         [.text(source), .integer(Self.seconds(fetchedAt))], action: "record the fetch of \(source)")
        }
    }

    /// When `source` last answered a fetch successfully.
    public func lastSuccess(source: String) throws(StoreError) -> Date? {
        var date: Date?
        try db.query("SELECT last_success FROM fetches WHERE source = ?", [.text(source)], action: "read the last fetch of \(source)") {
            date = Date(timeIntervalSince1970: Double($0.integer(0)))
        }
        return date
    }

    /// Deletes every cached slot that ended before `cutoff`, for all sources.
    public func trim(before cutoff: Date) throws(StoreError) {
        try db.query(#"DELETE FROM prices WHERE "end" <= ?"#, [.integer(Self.seconds(cutoff))], action: "trim old prices")
    }

    private static func seconds(_ date: Date) -> Int64 { Int64(date.timeIntervalSince1970.rounded()) }
}
