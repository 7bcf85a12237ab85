import EnergyClockDomain
import EnergyClockStore
import EnergyClockTesting
import Foundation
import Testing

/// The store's write-ahead log is kept in place: reserved as real blocks, never deleted, and
/// started over after a checkpoint, so that a settings commit overwrites blocks the file has.
@Suite struct StoreLogTests {
    func logPath(in directory: URL) -> String { directory.appendingPathComponent(PriceStore.fileName).path + "-wal" }

    func size(_ path: String) throws -> Int {
        try #require(FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
    }

    /// The log's checkpoint sequence number (bytes 12–15 of its header): it counts the restarts.
    func restarts(_ path: String) throws -> UInt32 {
        let header = try #require(FileManager.default.contents(atPath: path)).prefix(16)
        return header.dropFirst(12).reduce(0) { $0 << 8 | UInt32($1) }
    }

    func settings(_ n: Int) -> Settings {
        var settings = Settings.defaults
        settings.thresholds.greenMax = 0.05 + Double(n) / 100_000
        return settings
    }

    @Test func theLogIsReservedAndStartsOverAfterALongRunOfCommits() throws {
        let directory = temporaryDirectory()
        let log = logPath(in: directory)
        let store = try PriceStore(directory: directory)
        #expect(try size(log) == 1 << 20, "the log's blocks are there from the first start")

        // A few commits: the log is short, and no checkpoint restarts it.
        for n in 0..<10 { try store.save(settings(n)) }
        try store.checkpointIfLong()
        try store.save(settings(10))
        let first = try restarts(log)

        // 150 commits of one frame each, some 620 KB: long enough to be checkpointed, so that
        // the next 150 start over at the log's beginning instead of growing it past its reserve.
        for n in 11..<161 { try store.save(settings(n)) }
        try store.checkpointIfLong()
        for n in 161..<311 { try store.save(settings(n)) }
        #expect(try restarts(log) == first + 1, "the checkpoint let the next commit start the log over")
        #expect(try size(log) == 1 << 20, "and the commits stayed within the reserved blocks")
        #expect(try store.settingsJSON() == settings(310).json)

        store.close()
        #expect(FileManager.default.fileExists(atPath: log), "the log outlives the connection")
        let reopened = try PriceStore(directory: directory)
        #expect(try reopened.settingsJSON() == settings(310).json)
        #expect(try size(log) == 1 << 20)
    }

    @Test func whatACommitWroteSurvivesACrashBeforeAnyCheckpoint() throws {
        let directory = temporaryDirectory()
        let store = try PriceStore(directory: directory)
        for n in 0..<20 { try store.save(settings(n)) }
        // The files as a power cut would leave them: the commits only in the log, the zeros of
        // the reserve after them.
        let copy = temporaryDirectory()
        for suffix in ["", "-wal"] {
            try FileManager.default.copyItem(
                atPath: directory.appendingPathComponent(PriceStore.fileName).path + suffix,
                toPath: copy.appendingPathComponent(PriceStore.fileName).path + suffix)
        }
        let recovered = try PriceStore(directory: copy)
        #expect(recovered.opening.movedTo == nil, "the log with its reserve reads as a sound store")
        #expect(try recovered.settingsJSON() == settings(19).json)
        store.close()
    }
}
