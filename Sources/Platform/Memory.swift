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
        let free = Int(clamping: mallinfo2().fordblks)
        let base = freeAfterTrim.load(ordering: .relaxed)
        guard free - base >= threshold else {
            // Blocks taken from the free ones: when they are freed again, they count.
            if free < base { freeAfterTrim.store(free, ordering: .relaxed) }
            return false
        }
        _ = malloc_trim(0)
        freeAfterTrim.store(Int(clamping: mallinfo2().fordblks), ordering: .relaxed)
        return true
    }
}
