import CSQLite
import EnergyClockDomain
import EnergyClockStore
import EnergyClockTesting
import Foundation
import Testing

/// Runs `sql` on the database at `path` directly, as an older version or a broken disk would
/// have left it; returns the first column of every row.
@discardableResult
func sqlite(_ path: String, _ sql: String) throws -> [String] {
    var handle: OpaquePointer?
    defer { sqlite3_close_v2(handle) }
    guard sqlite3_open(path, &handle) == SQLITE_OK else { throw StoreError(action: "open", message: path) }
    var rows: [String] = []
    var statement: OpaquePointer?
    var tail: UnsafePointer<CChar>?
    var remaining = sql
    while !remaining.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
        let rc = remaining.withCString { text -> Int32 in
            let rc = sqlite3_prepare_v2(handle, text, -1, &statement, &tail)
            remaining = tail.map { String(cString: $0) } ?? ""
            return rc
        }
        guard rc == SQLITE_OK else { throw StoreError(action: "prepare", message: String(cString: sqlite3_errmsg(handle))) }
        while sqlite3_step(statement) == SQLITE_ROW {
            rows.append(sqlite3_column_text(statement, 0).map { String(cString: $0) } ?? "")
        }
        sqlite3_finalize(statement)
    }
    return rows
}

@Suite struct StoreSafetyTests {
    /// The layout every store had before schema versions, exactly as version 1 created it.
    static let versionOneSchema = """
        CREATE TABLE settings (id INTEGER PRIMARY KEY CHECK (id = 1), json TEXT NOT NULL);
        CREATE TABLE prices (source TEXT NOT NULL, start INTEGER NOT NULL, "end" INTEGER NOT NULL, market REAL NOT NULL,
            PRIMARY KEY (source, start)) WITHOUT ROWID;
        CREATE TABLE fetches (source TEXT PRIMARY KEY, last_success INTEGER NOT NULL);
        INSERT INTO settings VALUES (1, '{"green_max":0.05,"zone":"BE"}');
        INSERT INTO prices VALUES ('energyzero', 1768431600, 1768435200, 0.12);
        INSERT INTO fetches VALUES ('energyzero', 1768431000);
        """

    func store(in directory: URL) -> String { directory.appendingPathComponent(PriceStore.fileName).path }

    @Test func aVersionOneStoreIsMigratedWithItsContents() throws {
        let directory = temporaryDirectory()
        try sqlite(store(in: directory), Self.versionOneSchema)
        #expect(try sqlite(store(in: directory), "PRAGMA user_version") == ["0"])

        let opened = try PriceStore(directory: directory)
        #expect(!opened.opening.fresh && opened.opening.movedTo == nil)
        #expect(try opened.settingsJSON() == #"{"green_max":0.05,"zone":"BE"}"#)
        let all = DateInterval(start: Date(timeIntervalSince1970: 0), duration: 4e9)
        #expect(try opened.slots(source: "energyzero", overlapping: all).map(\.value) == [0.12])
        #expect(try opened.lastSuccess(source: "energyzero") == Date(timeIntervalSince1970: 1_768_431_000))
        try opened.saveNote("published", ["energyclock/price", "energyclock/status"])
        #expect(try opened.note("published") == ["energyclock/price", "energyclock/status"])
        opened.close()
        #expect(try sqlite(store(in: directory), "PRAGMA user_version") == ["\(PriceStore.schemaVersion)"])
        // Opening again changes nothing.
        let again = try PriceStore(directory: directory)
        #expect(try again.note("published") == ["energyclock/price", "energyclock/status"])
    }

    @Test func aVersionThreeStoreKeepsWhatWasPublishedAsANote() throws {
        let directory = temporaryDirectory()
        try sqlite(
            store(in: directory),
            Self.versionOneSchema + """
                CREATE TABLE retained_topics (topic TEXT PRIMARY KEY) WITHOUT ROWID;
                INSERT INTO retained_topics VALUES ('energyclock/price'), ('homeassistant/sensor/energyclock/price/config');
                CREATE TABLE exchange_rates (day TEXT NOT NULL, currency TEXT NOT NULL, rate REAL NOT NULL, PRIMARY KEY (day, currency)) WITHOUT ROWID;
                PRAGMA user_version = 3;
                """)
        let opened = try PriceStore(directory: directory)
        #expect(try opened.note("published") == ["energyclock/price", "homeassistant/sensor/energyclock/price/config"])
        #expect(try opened.note("other").isEmpty)
        opened.close()
        #expect(try sqlite(store(in: directory), "SELECT name FROM sqlite_master WHERE name = 'retained_topics'").isEmpty)
        #expect(try sqlite(store(in: directory), "PRAGMA user_version") == ["\(PriceStore.schemaVersion)"])
    }

    @Test func aStoreFromANewerVersionIsMovedAsideKeepingTheSettings() throws {
        let directory = temporaryDirectory()
        try sqlite(store(in: directory), Self.versionOneSchema + "PRAGMA user_version = 99;")
        let now = at("2026-12-01T10:11:12Z")
        let opened = try PriceStore(directory: directory, now: now)
        let aside = store(in: directory) + ".corrupt-20261201T101112Z"
        #expect(opened.opening.movedTo == aside)
        #expect(opened.opening.reason?.contains("schema version 99") == true)
        #expect(opened.opening.settingsKept)
        #expect(try opened.settingsJSON() == #"{"green_max":0.05,"zone":"BE"}"#)
        #expect(FileManager.default.fileExists(atPath: aside))
        #expect(try sqlite(aside, "PRAGMA user_version") == ["99"])
    }

    @Test func aDamagedPricesTableIsDetectedAndMovedAside() throws {
        let directory = temporaryDirectory()
        let path = store(in: directory)
        do {
            let store = try PriceStore(directory: directory)
            try store.save(Settings.defaults)
            let start = at("2026-01-01T00:00:00Z")
            try store.save(slots(from: start, count: 5000, minutes: 15) { Double($0 % 97) / 100 }, source: "energyzero", fetchedAt: start)
            store.close()
        }
        try sqlite(path, "PRAGMA wal_checkpoint(TRUNCATE)")
        // Scribble over the last pages, which hold prices, as a failing disk would.
        let handle = try #require(FileHandle(forUpdatingAtPath: path))
        let size = try handle.seekToEnd()
        try handle.seek(toOffset: size - 3 * 4096)
        handle.write(Data((0..<(2 * 4096)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }))
        try handle.close()

        let opened = try PriceStore(directory: directory, now: at("2026-12-01T00:00:00Z"))
        #expect(opened.opening.movedTo != nil)
        #expect(opened.opening.reason?.isEmpty == false)
        #expect(opened.opening.settingsKept)
        #expect(try opened.settingsJSON() == Settings.defaults.json)
        #expect(try opened.slots(source: "energyzero", overlapping: DateInterval(start: .distantPast, end: .distantFuture)).isEmpty)
        #expect(try sqlite(path, "PRAGMA integrity_check") == ["ok"])
    }

    @Test func aFileThatIsNoDatabaseIsMovedAsideWithoutSettings() throws {
        let directory = temporaryDirectory()
        try Data(repeating: 0x41, count: 10_000).write(to: URL(fileURLWithPath: store(in: directory)))
        let opened = try PriceStore(directory: directory)
        #expect(opened.opening.movedTo != nil)
        #expect(!opened.opening.settingsKept)
        #expect(try opened.settingsJSON() == nil)
    }

    @Test func anEmptyFileIsAFreshStore() throws {
        let directory = temporaryDirectory()
        _ = FileManager.default.createFile(atPath: store(in: directory), contents: Data())
        let opened = try PriceStore(directory: directory)
        #expect(opened.opening.fresh && opened.opening.movedTo == nil)
        #expect(try opened.settingsJSON() == nil)
    }

    @Test func aStateDirectoryThatIsAFileIsNamedAsSuch() throws {
        let file = temporaryDirectory().appendingPathComponent("plain")
        _ = FileManager.default.createFile(atPath: file.path, contents: Data("x".utf8))
        #expect { try PriceStore(directory: file) } throws: { "\($0)".contains("it is a file, not a directory") }
        #expect { try PriceStore(directory: file.appendingPathComponent("below")) } throws: {
            "\($0)" == "store: could not use state directory \(file.path)/below: \(file.path) is a file, not a directory"
        }
    }

    @Test func oneDaemonPerStateDirectory() throws {
        let directory = try StateDirectory(path: temporaryDirectory().path)
        var first: StateLock? = try StateLock(directory)
        #expect(first != nil)
        #expect { try StateLock(directory) } throws: { "\($0)".contains("another energyclock (pid \(getpid())) is running") }
        first = nil
        #expect(try StateLock(directory).path == directory.file(StateLock.fileName))
    }
}
