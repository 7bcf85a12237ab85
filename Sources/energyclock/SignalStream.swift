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
    static func termination() -> AsyncStream<Int32> {
        let (stream, continuation) = AsyncStream.makeStream(of: Int32.self)
        let started = DetachedThread.start(name: "signals") {
            var set = signalSet()
            while true {
                var number: Int32 = 0
                guard sigwait(&set, &number) == 0 else { continue }
                // After the stream ends, later signals are taken and dropped, as if ignored.
                continuation.yield(number)
            }
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
