internal import CMalloc
import Synchronization

/// Keeps a long-running process's heap small.
package enum Memory {
    /// The free bytes in malloc's arenas just after the last trim, or fewer when the heap's use grew since.
    private static let freeAfterTrim = Atomic<Int>(0)

    /// Trims the heap when `threshold` bytes or more were freed since the last trim, and returns
    /// whether it did. The daemon calls it each time its loop rests
    /// (``EventLoop/whenResting(after:_:)``), once a burst of work is over.
    ///
    /// glibc keeps freed pages inside the heap, below the last block in use: forty profiles'
    /// fetches, parses and payloads left 2.2 MB of it free and resident, more than the profiles
    /// themselves hold. A trim walks the free blocks (50 µs at the median, 0.3 ms at most, on
    /// the heap of forty profiles), and what it gives back is faulted in again by the next work
    /// that needs it: after a settings change, whose payloads reuse the same blocks, there is
    /// nothing to give back, and trimming anyway made the changes after it slower. Memory freed
    /// since the last trim shows as free bytes above what the arenas held free after it.
    @discardableResult
    package static func trimWhenFreed(atLeast threshold: Int = 256 * 1024) -> Bool {
        let free = freeBytes()
        let base = freeAfterTrim.load(ordering: .relaxed)
        guard free - base >= threshold else {
            // Blocks taken from the free ones: when they are freed again, they count.
            if free < base { freeAfterTrim.store(free, ordering: .relaxed) }
            return false
        }
        _ = malloc_trim(0)
        freeAfterTrim.store(freeBytes(), ordering: .relaxed)
        return true
    }

    /// The free bytes in every arena: what glibc's `malloc_info` totals for all of them as `fast`
    /// and `rest`. `mallinfo2` counts the main arena alone, and a thread that is not the main one
    /// (the sources' worker after a parse, a test) frees into an arena of its own. Falls back on
    /// `mallinfo2` when the report cannot be read.
    static func freeBytes() -> Int {
        var buffer: UnsafeMutablePointer<CChar>?
        var size = 0
        guard let stream = open_memstream(&buffer, &size) else { return Int(clamping: mallinfo2().fordblks) }
        let written = malloc_info(0, stream)
        fclose(stream)
        defer { free(buffer) }
        guard written == 0, let buffer, size > 0 else { return Int(clamping: mallinfo2().fordblks) }
        let report = String(decoding: UnsafeBufferPointer(start: buffer, count: size).lazy.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        // The totals over every arena follow the last heap.
        let lines = report.split(separator: "\n")
        let totals = lines[((lines.lastIndex { $0.contains("</heap>") } ?? -1) + 1)...]
        var total = 0
        for kind in ["fast", "rest"] {
            guard let line = totals.first(where: { $0.hasPrefix("<total type=\"\(kind)\"") }),
                let value = line.split(separator: "size=\"").last?.split(separator: "\"").first, let bytes = Int(value)
            else { return Int(clamping: mallinfo2().fordblks) }
            total += bytes
        }
        return total
    }
}
