import EnergyClockDomain
import Glibc
import Platform

/// SIGTERM, SIGINT and SIGHUP as an async sequence, instead of a process-killing default handler.
///
/// SIGHUP stops the daemon cleanly like SIGTERM: logs go to standard error, so there is nothing
/// to reopen, and a hang-up of the terminal that started it should not leave `online` behind.
///
/// The three signals are blocked in every thread (``block()``, before any thread starts) and
/// taken by one thread that waits for them in `sigwait`: no handler runs on an arbitrary thread,
/// and nothing polls. Children start with no signal blocked (see `Subprocess`).
enum SignalStream {
    /// The signals that end the daemon.
    static let numbers = [SIGTERM, SIGINT, SIGHUP]

    /// Blocks ``numbers`` in the calling thread and in every thread it starts from now on.
    static func block() {
        var set = signalSet()
        pthread_sigmask(SIG_BLOCK, &set, nil)
    }

    /// A stream that yields each termination signal as it arrives; ``block()`` must have run.
    ///
    /// The thread that takes the signals is also the shutdown's guard, outside the event loop, so
    /// that it acts whatever the loop is doing: `limit` seconds after the first signal, or at a
    /// second one, it calls `expire` with what it waited for and ends the process with status 1.
    static func termination(guardedFor limit: Double, expire: @escaping @Sendable (String) -> Void) -> AsyncStream<Int32> {
        let (stream, continuation) = AsyncStream.makeStream(of: Int32.self)
        let started = DetachedThread.start(name: "signals") {
            var set = signalSet()
            var number: Int32 = 0
            while sigwait(&set, &number) != 0 {}
            continuation.yield(number)
            // From here on the process ends within `limit` seconds: a second signal ends it now.
            // A wait cut short by anything else (EINTR) waits again for what is left.
            let deadline = Monotonic.seconds() + limit
            var info = siginfo_t()
            var second: Int32 = -1
            while case let left = deadline - Monotonic.seconds(), left > 0 {
                var timeout = timespec(tv_sec: Int(left), tv_nsec: Int((left - left.rounded(.down)) * 1e9))
                second = sigtimedwait(&set, &info, &timeout)
                if second > 0 || errno != EINTR { break }
            }
            expire(second > 0 ? "a second signal (\(second)) came" : "shutdown took longer than \(DecimalFormat.string(limit)) s")
            _exit(1)
        }
        if !started {
            // Without a thread to take them, the signals end the process the default way.
            var set = signalSet()
            pthread_sigmask(SIG_UNBLOCK, &set, nil)
        }
        return stream
    }

    private static func signalSet() -> sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        for number in numbers { sigaddset(&set, number) }
        return set
    }
}
