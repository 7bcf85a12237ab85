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

    /// Gives the heap's free pages back to the system: after a burst of work (a round of fetches
    /// and parses) the heap stays at its high-water mark otherwise, though most of it is free.
    package static func trim() {
        _ = malloc_trim(0)
    }
}
