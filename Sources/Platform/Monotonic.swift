#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The monotonic clock, for deadlines of work that happens now (a file read, a parse, a helper):
/// a wall-clock jump must neither cut them short nor stretch them.
package enum Monotonic {
    /// Seconds since an arbitrary start.
    package static func seconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}
