import EnergyClockTesting
import Foundation
import Platform
import Synchronization
import Testing

/// Small files replaced on a thread of their own (`health.json`), so that no rename holds up the
/// event loop.
@Suite(.timeLimit(.minutes(1)))
struct FileWriterTests {
    @Test func theNewestBytesOfAPathAreWhatIsWrittenLast() async throws {
        let writer = FileWriter(name: "test-files")
        let path = temporaryDirectory().appendingPathComponent("health.json").path
        let failures = Mutex(0)
        for n in 0..<2000 {
            writer.replace(path, with: Array("\(n)".utf8)) { _ in failures.withLock { $0 += 1 } }
        }
        await writer.flush()
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "1999")
        #expect(failures.withLock { $0 } == 0)
        #expect(!FileManager.default.fileExists(atPath: path + ".tmp"), "no temporary file is left")
    }

    @Test func writesFromManyThreadsAllLandAndEachPathHoldsOneOfItsOwn() async throws {
        let writer = FileWriter(name: "test-files")
        let directory = temporaryDirectory()
        let paths = (0..<4).map { directory.appendingPathComponent("file-\($0)").path }
        await withTaskGroup(of: Void.self) { group in
            for (index, path) in paths.enumerated() {
                group.addTask {
                    for n in 0..<500 { writer.replace(path, with: Array("\(index):\(n)".utf8)) { _ in } }
                }
            }
        }
        await writer.flush()
        for (index, path) in paths.enumerated() {
            #expect(try String(contentsOfFile: path, encoding: .utf8) == "\(index):499")
        }
    }

    @Test func aFailedWriteIsReportedOnTheWritersThreadWithItsPath() async throws {
        let writer = FileWriter(name: "test-files")
        let path = temporaryDirectory().appendingPathComponent("missing/health.json").path
        let heard = Mutex<(failure: RegularFile.Failure, thread: String)?>(nil)
        writer.replace(path, with: Array("x".utf8)) { failure in
            let thread = (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? ""
            heard.withLock { $0 = (failure, thread.trimmingCharacters(in: .whitespacesAndNewlines)) }
        }
        await writer.flush()
        let report = try #require(heard.withLock { $0 })
        #expect("\(report.failure)".contains(path + ".tmp"), "\(report.failure)")
        #expect(report.thread == "test-files", "written off the caller's thread")
    }

    @Test func flushWithNothingWrittenReturnsAndStartsNoThread() async {
        let writer = FileWriter(name: "test-files")
        await writer.flush()
        #expect(!writer.hasThread)
    }
}
