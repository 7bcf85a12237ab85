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
        if let handle { sqlite3_close_v2(handle) }
        handle = nil
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
    func transaction<T>(action: String, _ body: () throws(StoreError) -> T) throws(StoreError) -> T {
        try execute("BEGIN IMMEDIATE", action: action)
        do {
            let value = try body()
            try execute("COMMIT", action: action)
            return value
        } catch {
            try? execute("ROLLBACK", action: action)
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
