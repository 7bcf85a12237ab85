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
        // Other tests in this process run daemons whose event loops trim at rest, and free heaps
        // of their own: one may trim these pages first, or free enough between the two calls. So
        // the round is tried again when one of them reads another's doing, a few times at most;
        // a trim that never gives the pages back fails every round.
        var rounds: [String] = []
        for _ in 0..<5 {
            let round = try freedHeapRound()
            if round.isEmpty { return }
            rounds.append(round)
        }
        Issue.record("no round showed the heap trimmed once: \(rounds)")
    }

    /// Frees 32 MiB and trims: empty when the trim gave much of it back and a second trim found
    /// nothing to do, else what was seen.
    func freedHeapRound() throws -> String {
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
        let first = Memory.trimWhenFreed()
        let trimmed = try residentBytes()
        let second = Memory.trimWhenFreed()
        guard first, grown - trimmed > 8 << 20, !second else {
            return "trimmed \(first), \(grown) → \(trimmed) bytes, trimmed again \(second)"
        }
        return ""
    }
}
