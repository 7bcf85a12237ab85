import CSQLite
import FoundationEssentials
import Glibc

extension PriceStore {
    /// The schema version this build writes (`PRAGMA user_version`).
    ///
    /// 1: settings, prices and fetches (stores from before versioning read as 0 and hold this
    /// layout). 2: the topics an outer layer last published. 3: euro exchange rates by day. 4: those
    /// topics become one of the named notes that outer layers keep (`notes`), which the core gives
    /// no meaning. 5: the profiles after the first, by name and position. 6: each price keeps the
    /// currency it was quoted in, its basis and the source's level (the prices before are EUR
    /// market prices without a level).
    public static let schemaVersion: Int64 = 6

    /// Bytes of the write-ahead log file kept as real blocks: some 250 frames of 4 KiB pages, a
    /// few hundred settings changes between checkpoints.
    static let logReserve: Int64 = 1 << 20

    /// Frames in the write-ahead log from which ``checkpointIfLong()`` copies them into the
    /// database file: half of ``logReserve``, so that commits stay within the reserved blocks.
    static let checkpointFrames: Int32 = 128

    /// Why a store file could not be opened.
    enum OpenFailure: Error {
        /// The file is damaged or from a newer version: move it aside and start afresh.
        case damaged(String)
        /// The file or its directory cannot be used (permissions, read-only): stop.
        case unusable(StoreError)
    }

    /// Opens `path`, checks its integrity and version, migrates it to ``schemaVersion`` and proves
    /// that it can be written.
    static func openChecked(_ path: String) -> Result<SQLiteDatabase, OpenFailure> {
        let db: SQLiteDatabase
        do {
            db = try SQLiteDatabase(path: path)
        } catch {
            return .failure(error.isCorruption ? .damaged(error.message) : .unusable(error))
        }
        do {
            guard !db.isReadOnly else {
                throw StoreError(
                    action: "open \(path) for writing", message: "the file is read-only; energyclock must be able to save settings")
            }
            let logged = try db.keepLog()
            try db.execute("PRAGMA synchronous=FULL", action: "set durable writes")
            // The store is read at start and when history is backfilled, written a row at a time:
            // a page cache of 256 KiB (SQLite's default is 2 MiB) costs nothing measurable.
            try db.execute("PRAGMA cache_size=-256", action: "size the page cache")
            var findings: [String] = []
            try db.query("PRAGMA quick_check", action: "check the store's integrity") { findings.append($0.text(0)) }
            guard findings == ["ok"] else {
                throw OpenFailure.damaged("the integrity check failed: \(findings.prefix(3).joined(separator: "; "))")
            }
            var version: Int64 = 0
            try db.query("PRAGMA user_version", action: "read the schema version") { version = $0.integer(0) }
            guard version <= schemaVersion else {
                throw OpenFailure.damaged(
                    "it has schema version \(version), written by a newer energyclock; this one knows up to \(schemaVersion)")
            }
            // Always a write, so that a store that cannot be written fails here and not at the first change.
            try db.transaction(action: "migrate the store from schema version \(version)") { () throws(StoreError) in
                for step in migrations.dropFirst(Int(version)) {
                    try db.execute(step, action: "migrate the store from schema version \(version)")
                }
                try db.execute("PRAGMA user_version = \(schemaVersion)", action: "record the schema version")
            }
            // After a write: the log is open, and the database file is not empty (SQLite deletes
            // the log of an empty database when it opens it).
            if logged { try db.reserveLog(logReserve) }
        } catch let failure as OpenFailure {
            db.close()
            return .failure(failure)
        } catch let error as StoreError {
            db.close()
            return .failure(error.isCorruption ? .damaged(error.message) : .unusable(error))
        } catch {
            db.close()
            return .failure(.unusable(StoreError(action: "open \(path)", message: "\(error)")))
        }
        return .success(db)
    }

    /// The SQL that brings a store from version N to N + 1, at index N.
    static let migrations = [
        """
        CREATE TABLE IF NOT EXISTS settings (id INTEGER PRIMARY KEY CHECK (id = 1), json TEXT NOT NULL);
        CREATE TABLE IF NOT EXISTS prices (
            source TEXT NOT NULL, start INTEGER NOT NULL, "end" INTEGER NOT NULL, market REAL NOT NULL,
            PRIMARY KEY (source, start)) WITHOUT ROWID;
        CREATE TABLE IF NOT EXISTS fetches (source TEXT PRIMARY KEY, last_success INTEGER NOT NULL);
        """,
        "CREATE TABLE IF NOT EXISTS retained_topics (topic TEXT PRIMARY KEY) WITHOUT ROWID;",
        """
        CREATE TABLE IF NOT EXISTS exchange_rates (
            day TEXT NOT NULL, currency TEXT NOT NULL, rate REAL NOT NULL, PRIMARY KEY (day, currency)) WITHOUT ROWID;
        """,
        """
        CREATE TABLE IF NOT EXISTS notes (name TEXT NOT NULL, item TEXT NOT NULL, PRIMARY KEY (name, item)) WITHOUT ROWID;
        INSERT OR IGNORE INTO notes (name, item) SELECT 'published', topic FROM retained_topics;
        DROP TABLE IF EXISTS retained_topics;
        """,
        "CREATE TABLE IF NOT EXISTS profiles (name TEXT PRIMARY KEY, position INTEGER NOT NULL, json TEXT NOT NULL) WITHOUT ROWID;",
        """
        ALTER TABLE prices ADD COLUMN currency TEXT NOT NULL DEFAULT 'EUR';
        ALTER TABLE prices ADD COLUMN basis INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE prices ADD COLUMN level INTEGER;
        """,
    ]

    /// The settings JSON of a damaged store, if it can still be read.
    static func salvageSettings(_ path: String) -> String? {
        var handle: OpaquePointer?
        defer { sqlite3_close_v2(handle) }
        guard sqlite3_open_v2(path, &handle, SQLITE_OPEN_READONLY, nil) == SQLITE_OK else { return nil }
        var statement: OpaquePointer?
        defer { sqlite3_finalize(statement) }
        guard sqlite3_prepare_v2(handle, "SELECT json FROM settings WHERE id = 1", -1, &statement, nil) == SQLITE_OK,
            sqlite3_step(statement) == SQLITE_ROW, let text = sqlite3_column_text(statement, 0)
        else { return nil }
        return String(cString: text)
    }

    /// Whether `path` does not exist or holds no bytes.
    static func isEmptyOrMissing(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) != 0 || info.st_size == 0
    }
}
