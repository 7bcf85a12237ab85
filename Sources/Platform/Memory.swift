internal import CMalloc

/// Keeps a long-running process's heap small.
package enum Memory {
    /// Two malloc arenas at most: glibc otherwise grows one per thread that ever allocated, and a
    /// daemon whose work hops between a handful of threads would keep several half-empty ones.
    ///
    /// Blocks of 128 KiB and more always get their own mapping, which goes back to the system when
    /// freed: glibc otherwise raises that threshold after the first large free (a picture's pixels)
    /// and keeps such blocks in the heap for good.
    package static func limitArenas() {
        _ = mallopt(M_ARENA_MAX, 2)
        _ = mallopt(M_MMAP_THRESHOLD, 128 * 1024)
    }

    /// Gives freed heap memory back to the system, after a burst of work such as drawing a picture.
    package static func trim() {
        _ = malloc_trim(0)
    }
}
