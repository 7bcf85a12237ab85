import CEventLoop

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One thread that runs work and timers and sleeps, in a single futex wait, while it has none.
///
/// The daemon makes one its global executor (``runProcess(_:)``): its work is a few events a
/// minute, and libdispatch's thread pool, the default executor on Linux, wakes every second for
/// as long as the process lives. A loop lives as long as the process.
package struct EventLoop: @unchecked Sendable {
    // The C loop is thread-safe; this is only its address.
    private let raw: OpaquePointer

    private init(raw: OpaquePointer) {
        self.raw = raw
    }

    /// A new loop, not yet running; nil when the system cannot give it memory or a clock.
    package init?() {
        guard let raw = ecl_loop_create() else { return nil }
        self.raw = raw
    }

    /// The loop that is Swift concurrency's global executor in this process, if any.
    package static var global: EventLoop? { ecl_global().map(EventLoop.init(raw:)) }

    /// Now on the loop's clock (monotonic), in nanoseconds.
    package static var now: UInt64 { ecl_now() }

    /// Runs the loop on the calling thread until ``stop()``.
    package func run() {
        ecl_loop_run(raw)
    }

    /// Makes ``run()`` return after the work it is doing now; from any thread.
    package func stop() {
        ecl_loop_stop(raw)
    }

    /// Lets what was just queued for another thread to send leave before going on.
    ///
    /// On the loop thread it gives this core to a thread just woken onto it, such as the MQTT
    /// thread after a publish: Linux tends to place a woken thread on its waker's core, where it
    /// waits until the waker sleeps or is preempted, milliseconds later. On a helper (see
    /// ``helping(between:_:)``) it runs the helper's `between`, which sends at once.
    package static func yieldProcessor() {
        ecl_yield()
    }

    /// Lets what waits go first: on a helper, what its `between` reads meanwhile (the tasks a
    /// message resumes), and every task already queued, before the caller goes on.
    ///
    /// The caller's task is resumed by work posted behind them, not by `Task.yield()`, which
    /// this toolchain does not route through the global executor's hooks: the resumed task then
    /// woke the loop thread from another one. Without a loop (the tests), it is `Task.yield()`.
    package static func giveWay() async {
        ecl_yield_looking()
        guard let loop = global else { return await Task.yield() }
        await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
            loop.post { continuation.resume() }
        }
    }

    /// Inside a helper's `between`: it was called by ``giveWay()``, and is to look for input now,
    /// however recently it looked.
    package static var betweenLooks: Bool { ecl_yield_looks() }

    /// Runs `body` with the calling thread as a helper of this loop: work it posts while the loop
    /// thread sleeps (a task its event resumes) does not wake the loop thread, and runs on this
    /// thread in its next ``help(budget:)``, which it must call before it blocks. `between` runs
    /// here after each piece of work and at each ``yieldProcessor()`` inside one. What the thread
    /// still owes the loop when `body` returns goes to the loop thread.
    ///
    /// The daemon's MQTT thread is its helper: a settings message then runs to its answer on the
    /// thread that read it, without a wake-up of the loop thread on another core in between.
    package func helping<T>(between: @escaping () -> Void, _ body: () throws -> T) rethrows -> T {
        // Called on this thread only, so `between` need not be sendable.
        let box = Unmanaged.passRetained(ThreadBox(between))
        ecl_loop_set_helper(raw, runThreadBox, box.toOpaque())
        defer {
            ecl_loop_set_helper(nil, nil, nil)
            box.release()
        }
        return try body()
    }

    /// On a helper thread, gives the loop thread the work this thread owes it, instead of running
    /// it here: for a helper with more of its own to do first (the MQTT thread with more to read).
    package func handOver() {
        ecl_loop_hand_over(raw)
    }

    /// Inside work a helper runs for the loop, or its `between`: the help hands what is left to
    /// the loop thread after the work it runs now.
    package static func helpEnough() {
        ecl_help_enough()
    }

    /// On a helper thread, runs the work it owes the loop while the loop thread sleeps on, for at
    /// most `budget` seconds between pieces of work; what is left then goes to the loop thread.
    /// True when it ran something.
    @discardableResult
    package func help(budget seconds: Double) -> Bool {
        ecl_loop_help(raw, UInt64(max(0, min(seconds, 1e9)) * 1e9))
    }

    /// Runs `body` each time a burst of work is over: when the loop, having run something since the
    /// last call, is about to sleep with no timer due within `seconds`; on the loop thread, or on
    /// the helper that ran the burst (``helping(between:_:)``). It never wakes the loop itself, so a
    /// loop at rest stays asleep. Set it once, before ``run()``.
    ///
    /// The daemon gives its heap back here: whatever was allocated for a fetch, a settings change
    /// or a boundary is free by then, and a loop that sleeps for a second or more has time to spare.
    package func whenResting(after seconds: Double, _ body: @escaping @Sendable () -> Void) {
        let nanoseconds = UInt64(max(0, min(seconds, 1e9)) * 1e9)
        // Kept by the loop for the life of the process.
        ecl_loop_set_rest(raw, nanoseconds, runKeptBox, Unmanaged.passRetained(Box(body)).toOpaque())
    }

    /// Watches every piece of work the loop runs: one that holds it for longer than `limit`
    /// seconds is reported to `held` once it is over, with how long it took and the activity it
    /// first named (``doing(_:_:)``). Set it once, before ``run()``.
    package func watch(limit seconds: Double, _ held: @escaping @Sendable (_ seconds: Double, _ activity: String?) -> Void) {
        let box = Unmanaged.passRetained(HeldBox(held)).toOpaque()  // Kept by the loop for the life of the process.
        ecl_loop_set_watch(raw, UInt64(max(0.000_001, min(seconds, 1e6)) * 1e9), runHeldBox, box)
    }

    /// Runs `body` named `activity`, so that a watch (``watch(limit:_:)``) that finds the loop
    /// held says what held it. A thread-local store and back: cheap enough for every change.
    package static func doing<T, Failure: Error>(_ activity: StaticString, _ body: () throws(Failure) -> T) throws(Failure) -> T {
        // A literal's text is NUL-terminated and lives as long as the program.
        let previous = ecl_activity_begin(UnsafeRawPointer(activity.utf8Start).assumingMemoryBound(to: CChar.self))
        defer { ecl_activity_end(previous) }
        return try body()
    }

    /// What the loop has been running, and for how long, when it runs something now: "has run
    /// planning jobs for 12.3 s". From any thread; the shutdown's guard says it.
    package var busyReport: String? {
        var nanoseconds: UInt64 = 0
        var activity: UnsafePointer<CChar>?
        guard ecl_loop_busy(raw, &nanoseconds, &activity) else { return nil }
        let what = activity.map { String(cString: $0) } ?? "a piece of work"
        return "has run \(what) for \(Double(nanoseconds / 1_000_000) / 1000) s"
    }

    /// How often the loop thread woke from a wait: each wake-up is a timer, new work or a stop.
    package var wakeUps: UInt64 { ecl_loop_wakeups(raw) }

    /// Runs `body` on the loop thread soon, after the work posted before it.
    package func post(_ body: @escaping @Sendable () -> Void) {
        ecl_loop_post(raw, runBox, Unmanaged.passRetained(Box(body)).toOpaque())
    }

    /// Runs `body` on the loop thread at `deadline` (nanoseconds of ``now``), or soon when that
    /// has passed. Timers due together run in the order they were armed.
    package func addTimer(at deadline: UInt64, _ body: @escaping @Sendable () -> Void) -> Timer {
        let box = Unmanaged.passRetained(Box(body)).toOpaque()
        return Timer(id: ecl_loop_add_timer(raw, deadline, runBox, box), box: box)
    }

    /// Disarms `timer`; true when it had not fired, so its body will never run.
    @discardableResult
    package func cancel(_ timer: Timer) -> Bool {
        guard ecl_loop_cancel_timer(raw, timer.id) else { return false }
        Unmanaged<Box>.fromOpaque(timer.box).release()
        return true
    }

    /// An armed timer, to cancel with ``cancel(_:)``.
    package struct Timer: @unchecked Sendable {
        fileprivate let id: UInt64
        // Owned by the loop until the timer fires or is cancelled.
        fileprivate let box: UnsafeMutableRawPointer
    }

    /// Runs `body` as the process's only task tree on a loop that is Swift concurrency's global
    /// executor, on this thread, and exits with status 0 when it returns (it may exit sooner).
    ///
    /// Call it first thing in a synchronous `main`, before any task exists: every job from then on
    /// runs on this thread. Sleeps go through ``MonotonicSleep``, which arms the loop's timers;
    /// `Task.sleep` would still start libdispatch's pool.
    package static func runProcess(_ body: @escaping @Sendable () async -> Void) -> Never {
        guard let loop = EventLoop(), ecl_install_global(loop.raw) else {
            _ = FileDescriptor.writeAll(2, Array("energyclock: cannot set up the event loop\n".utf8))
            exit(70)
        }
        Task.detached {
            await body()
            exit(0)
        }
        loop.run()
        exit(0)
    }
}

/// A closure the C loop calls through `runBox`, retained once for that call.
private final class Box: Sendable {
    let body: @Sendable () -> Void
    init(_ body: @escaping @Sendable () -> Void) { self.body = body }
}

private func runBox(_ context: UnsafeMutableRawPointer?) {
    Unmanaged<Box>.fromOpaque(context!).takeRetainedValue().body()
}

/// A closure that only the thread that made it calls.
private final class ThreadBox {
    let body: () -> Void
    init(_ body: @escaping () -> Void) { self.body = body }
}

private func runThreadBox(_ context: UnsafeMutableRawPointer?) {
    Unmanaged<ThreadBox>.fromOpaque(context!).takeUnretainedValue().body()
}

/// The watch's report, kept by the C loop.
private final class HeldBox: Sendable {
    let body: @Sendable (Double, String?) -> Void
    init(_ body: @escaping @Sendable (Double, String?) -> Void) { self.body = body }
}

private func runHeldBox(_ context: UnsafeMutableRawPointer?, _ nanoseconds: UInt64, _ activity: UnsafePointer<CChar>?) {
    Unmanaged<HeldBox>.fromOpaque(context!).takeUnretainedValue().body(Double(nanoseconds) / 1e9, activity.map { String(cString: $0) })
}

/// Runs a closure the C loop keeps, and calls again.
private func runKeptBox(_ context: UnsafeMutableRawPointer?) {
    Unmanaged<Box>.fromOpaque(context!).takeUnretainedValue().body()
}
