internal import CMalloc

/// Keeps a long-running process's heap small.
package enum Memory {
    /// Two malloc arenas at most: glibc otherwise grows one per thread that ever allocated, and a
    /// daemon whose work hops between a handful of threads would keep several half-empty ones.
    ///
    /// Blocks of 128 KiB and more always get their own mapping, which goes back to the system when
    /// freed: glibc otherwise raises that threshold after the first large free (a big price list)
    /// and keeps such blocks in the heap for good.
    package static func limitArenas() {
        _ = mallopt(M_ARENA_MAX, 2)
        _ = mallopt(M_MMAP_THRESHOLD, 128 * 1024)
    }

    /// Gives the heap's free pages back to the system. The daemon trims each time its loop rests
    /// (``EventLoop/whenResting(after:_:)``), once a burst of work is over.
    ///
    /// glibc keeps freed pages inside the heap, below the last block in use: forty profiles'
    /// fetches, parses and payloads left 2.2 MB of it free and resident, more than the profiles
    /// themselves hold. A trim walks the free blocks and costs 50 µs at the median, 0.3 ms at most,
    /// on the heap of a daemon with forty profiles.
    package static func trim() {
        _ = malloc_trim(0)
    }
}
