import CSQLite
import FoundationEssentials

/// A minimal owner of one SQLite connection: statements, binding and transactions.
final class SQLiteDatabase {
    private var handle: OpaquePointer?
    /// Prepared statements by SQL text, reused so bulk inserts do not re-parse their SQL.
    private var statements: [String: OpaquePointer] = [:]
    let path: String

    /// Opens (creating if needed) the database at `path`.
    init(path: String) throws(StoreError) {
        self.path = path
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let rc = sqlite3_open_v2(path, &handle, flags, nil)
        guard rc == SQLITE_OK else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(rc))
            sqlite3_close(handle)
            handle = nil
            throw StoreError(action: "open \(path)", message: message, code: rc)
        }
        sqlite3_busy_timeout(handle, 2000)
    }

    deinit { close() }

    /// Closes the connection; later calls fail.
    func close() {
        statements.values.forEach { sqlite3_finalize($0) }
        statements.removeAll()
        if let handle {
            sqlite3_wal_hook(handle, nil, nil)
            sqlite3_close_v2(handle)
        }
        handle = nil
    }

    /// Frames in the write-ahead log that are not yet in the database file, as of the last commit
    /// or checkpoint.
    private(set) var logFrames: Int32 = 0

    /// Frames after which a commit checkpoints at once, as SQLite's own automatic checkpoint
    /// does: only for a log that ``checkpoint(from:)`` was not given the time to keep short.
    static let logFramesLimit: Int32 = 1000

    /// Switches to a write-ahead log that is kept, and overwritten in place, across checkpoints
    /// and restarts. False when SQLite could not use a write-ahead log here (then the store
    /// keeps SQLite's rollback journal). ``reserveLog(_:)`` gives the log its blocks.
    ///
    /// A commit appends its frames to the log and waits for `fdatasync`. Appended, the file grows,
    /// and the sync also writes the inode and a journal commit of the file system: 0.2–0.3 ms on
    /// the development machine, against 0.1 ms for a sync of blocks overwritten in place. So the
    /// log file is never deleted (`SQLITE_FCNTL_PERSIST_WAL`) nor truncated, its first bytes are
    /// real blocks from the start, and after a full checkpoint SQLite starts the log over at its
    /// beginning: a settings commit then overwrites blocks the file already has.
    func keepLog() throws(StoreError) -> Bool {
        var mode = ""
        try query("PRAGMA journal_mode=WAL", action: "enable the write-ahead log") { mode = $0.text(0) }
        guard mode == "wal" else { return false }
        var persist: Int32 = 1
        sqlite3_file_control(handle, "main", SQLITE_FCNTL_PERSIST_WAL, &persist)
        // Replaces SQLite's automatic checkpoint, which is itself a hook of this kind.
        sqlite3_wal_hook(
            handle,
            { context, _, _, frames in
                let database = Unmanaged<SQLiteDatabase>.fromOpaque(context!).takeUnretainedValue()
                database.logFrames = frames
                // A failure shows again at the next commit or checkpoint; the commit stands.
                try? database.checkpoint(from: SQLiteDatabase.logFramesLimit)
                return SQLITE_OK
            }, Unmanaged.passUnretained(self).toOpaque())
        return true
    }

    /// Extends the write-ahead log file with zeros to `bytes`, through SQLite's own handle on it;
    /// after a write, when the log is open. Nothing for a log that is longer already.
    ///
    /// SQLite reads a log only as far as its frames are valid, each checked against the salt in
    /// the log's header and the running checksum, so bytes past the last valid frame are never
    /// taken for data; SQLite itself leaves the old frames of a restarted log in place.
    func reserveLog(_ bytes: Int64) throws(StoreError) {
        var pointer: UnsafeMutablePointer<sqlite3_file>?
        guard sqlite3_file_control(handle, "main", SQLITE_FCNTL_JOURNAL_POINTER, &pointer) == SQLITE_OK,
            let file = pointer, let methods = file.pointee.pMethods
        else { return }
        var size: sqlite3_int64 = 0
        guard methods.pointee.xFileSize(file, &size) == SQLITE_OK, size < bytes else { return }
        let zeros = [UInt8](repeating: 0, count: 65_536)
        while size < bytes {
            let count = Int32(min(Int64(zeros.count), bytes - size))
            guard methods.pointee.xWrite(file, zeros, count, size) == SQLITE_OK else {
                throw StoreError(action: "reserve the write-ahead log of \(path)", message: "the write failed", code: SQLITE_IOERR)
            }
            size += Int64(count)
        }
        guard methods.pointee.xSync(file, SQLITE_SYNC_NORMAL) == SQLITE_OK else {
            throw StoreError(action: "reserve the write-ahead log of \(path)", message: "fsync failed", code: SQLITE_IOERR)
        }
    }

    /// Copies the write-ahead log into the database file when it holds `frames` frames or more,
    /// so that the next commit starts it over at its beginning. Passive: a reader (another
    /// `energyclock prices`) is never waited for, and what it still reads stays in the log.
    func checkpoint(from frames: Int32) throws(StoreError) {
        guard logFrames >= frames else { return }
        var left: Int32 = 0
        var copied: Int32 = 0
        guard sqlite3_wal_checkpoint_v2(handle, "main", SQLITE_CHECKPOINT_PASSIVE, &left, &copied) == SQLITE_OK else {
            throw error("checkpoint the write-ahead log")
        }
        logFrames = left - copied
    }

    private var message: String { handle.map { String(cString: sqlite3_errmsg($0)) } ?? "database is closed" }
    private var code: Int32 { handle.map { sqlite3_errcode($0) } ?? SQLITE_MISUSE }

    /// The error SQLite reports for the last call, while doing `action`.
    func error(_ action: String) -> StoreError { StoreError(action: action, message: message, code: code) }

    /// Whether SQLite opened the file for reading only (it does so silently for a write-protected file).
    var isReadOnly: Bool { handle.map { sqlite3_db_readonly($0, "main") == 1 } ?? true }

    /// Runs SQL with no parameters and no result rows.
    func execute(_ sql: String, action: String) throws(StoreError) {
        guard sqlite3_exec(handle, sql, nil, nil, nil) == SQLITE_OK else { throw error(action) }
    }

    /// Runs `body` inside one transaction, committed only if it returns.
    ///
    /// Its three statements are prepared once and kept, like every query's: run through
    /// `sqlite3_exec`, each was parsed again at every commit, some 17,000 instructions, half of
    /// what SQLite did for a settings change before its `fdatasync`.
    func transaction<T>(action: String, _ body: () throws(StoreError) -> T) throws(StoreError) -> T {
        try query("BEGIN IMMEDIATE", action: action)
        do {
            let value = try body()
            try query("COMMIT", action: action)
            return value
        } catch {
            try? query("ROLLBACK", action: action)
            throw error
        }
    }

    /// A bindable value.
    enum Value {
        case integer(Int64)
        case real(Double)
        case text(String)
        case null
    }

    /// Runs `sql` with `values` bound in order, calling `row` for each result row.
    func query(_ sql: String, _ values: [Value] = [], action: String, row: (Row) -> Void = { _ in }) throws(StoreError) {
        let statement = try prepared(sql, action: action)
        defer {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
        }
        for (i, value) in values.enumerated() {
            let index = Int32(i + 1)
            switch value {
            case let .integer(v): sqlite3_bind_int64(statement, index, v)
            case let .real(v): sqlite3_bind_double(statement, index, v)
            case let .text(v): sqlite3_bind_text(statement, index, v, -1, SQLITE_TRANSIENT)
            case .null: sqlite3_bind_null(statement, index)
            }
        }
        while true {
            switch sqlite3_step(statement) {
            case SQLITE_ROW: row(Row(statement: statement))
            case SQLITE_DONE: return
            default: throw error(action)
            }
        }
    }

    private func prepared(_ sql: String, action: String) throws(StoreError) -> OpaquePointer? {
        if let cached = statements[sql] { return cached }
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, let statement else { throw error(action) }
        statements[sql] = statement
        return statement
    }

    /// One result row; valid only inside the `row` callback.
    struct Row {
        let statement: OpaquePointer?
        func integer(_ column: Int32) -> Int64 { sqlite3_column_int64(statement, column) }
        func real(_ column: Int32) -> Double { sqlite3_column_double(statement, column) }
        func isNull(_ column: Int32) -> Bool { sqlite3_column_type(statement, column) == SQLITE_NULL }
        /// The column as a byte, or nil when it holds a number outside 0…255.
        func byte(_ column: Int32) -> UInt8? { UInt8(exactly: integer(column)) }
        func text(_ column: Int32) -> String {
            sqlite3_column_text(statement, column).map { String(cString: $0) } ?? ""
        }
    }
}

/// SQLite's "copy this string now" destructor.
private let SQLITE_TRANSIENT = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
