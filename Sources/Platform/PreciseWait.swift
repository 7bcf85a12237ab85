import CEventLoop

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Waits for a thread that must be awake at an exact moment: a sleeping virtual CPU is woken
/// late by its host (0.17-0.37 ms here, now and then more), so such a thread sleeps until a
/// little before the moment and spins the rest.
package enum PreciseWait {
    /// `poll` for at most `nanoseconds`, to the nanosecond rather than poll's whole milliseconds.
    package static func poll(_ fds: inout [pollfd], nanoseconds: UInt64) -> Int32 {
        fds.withUnsafeMutableBufferPointer { buffer in
            ecl_poll_for(buffer.baseAddress, UInt(buffer.count), nanoseconds)
        }
    }

    /// Spins until `done` returns true or the monotonic clock (``EventLoop/now``) reaches
    /// `deadline`; true when `done` did. `done` is called between looks, so it must be cheap (an
    /// atomic load, not a syscall).
    ///
    /// Between looks the thread gives the processor up (`sched_yield`) rather than pausing on it:
    /// the thread it waits for may have been woken onto the same core, and would otherwise wait
    /// there for the spin to end (a first version that paused held a slot boundary's prices back
    /// 3 ms). With the core to itself it goes on at once.
    package static func spin(until deadline: UInt64, _ done: () -> Bool) -> Bool {
        while !done() {
            guard ecl_now() < deadline else { return false }
            sched_yield()
        }
        return true
    }
}
