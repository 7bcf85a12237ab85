import Foundation
import Platform
import Testing

/// The daemon's heap trim at rest (`EventLoop.whenResting` calls `Memory.trimWhenFreed` in the daemon).
struct MemoryTests {
    /// This process's resident size, from `/proc/self/statm` (its second field, in pages).
    func residentBytes() throws -> Int {
        let fields = try String(contentsOfFile: "/proc/self/statm", encoding: .utf8).split(separator: " ")
        return try #require(Int(fields[1])) * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    @Test func aFreedHeapGoesBackToTheSystemOnceAndAHeapAtRestIsLeftAlone() throws {
        Memory.trimWhenFreed()
        // 32 MiB in blocks below the mmap threshold, each page touched, then freed.
        var blocks: [UnsafeMutableRawPointer] = []
        for _ in 0...8192 {
            let block = try #require(malloc(4096))
            memset(block, 1, 4096)
            blocks.append(block)
        }
        // The last block stays: below it the freed pages cannot go back by shrinking the heap's
        // top, which free() does by itself, but only by a trim.
        let pin = blocks.removeLast()
        defer { free(pin) }
        for block in blocks { free(block) }
        blocks = []
        let grown = try residentBytes()
        #expect(Memory.trimWhenFreed(), "32 MiB were freed since the last trim")
        let trimmed = try residentBytes()
        #expect(grown - trimmed > 8 << 20, "much of the freed 32 MiB went back: \(grown) → \(trimmed) bytes")
        #expect(!Memory.trimWhenFreed(), "nothing was freed since")
    }
}
