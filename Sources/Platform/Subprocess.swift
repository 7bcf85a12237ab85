import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs a helper program on a leash: bytes on its standard input, its output collected, and
/// limits on its time and output.
///
/// The helper starts with an empty signal mask and every signal at its default action (a child
/// of `posix_spawn` otherwise inherits the daemon's blocked TERM, INT and HUP and its ignored
/// SIGPIPE, and could never be stopped), in a process group of its own. Standard output and
/// standard error are drained together, so a helper that fills one pipe cannot stall the other.
package enum Subprocess {
    /// The limits one run is held to.
    package struct Limits: Sendable {
        /// Longest the helper may run, in seconds, before it is killed.
        package var seconds: Double
        /// Most bytes taken from standard output; more kills the helper.
        package var outputBytes: Int
        /// Most bytes of standard error kept; the rest is read and dropped.
        package var errorBytes: Int

        /// Limits from their parts.
        package init(seconds: Double, outputBytes: Int, errorBytes: Int = 4096) {
            self.seconds = seconds
            self.outputBytes = outputBytes
            self.errorBytes = errorBytes
        }
    }

    /// How a run ended.
    package enum Ending: Sendable, Equatable {
        /// The helper exited with this status.
        case exited(Int32)
        /// A signal ended it.
        case signalled(Int32)
        /// It ran longer than the limit and was killed.
        case timedOut(seconds: Double)
        /// It wrote more than the limit and was killed.
        case outputTooLarge(limit: Int)
        /// It was stopped because its caller no longer wanted it (a shutdown).
        case cancelled
        /// It could not be started, with the reason.
        case notStarted(String)
    }

    /// What a finished helper left: how it ended, its output and the first of its errors.
    package struct Outcome: Sendable {
        package var ending: Ending
        package var output: [UInt8]
        package var errors: [UInt8]

        /// An outcome from its parts.
        package init(ending: Ending, output: [UInt8], errors: [UInt8]) {
            self.ending = ending
            self.output = output
            self.errors = errors
        }
    }

    /// Set to stop a run early; the helper is then killed within 50 ms.
    package final class Cancellation: Sendable {
        private let flag = Atomic<Bool>(false)

        /// A flag not yet set.
        package init() {}

        /// Asks the run to kill its helper and return.
        package func cancel() { flag.store(true, ordering: .relaxed) }

        var isCancelled: Bool { flag.load(ordering: .relaxed) }
    }

    /// Runs `path` with `arguments`, writes `input` to it and waits for it to end within `limits`;
    /// blocks the calling thread.
    package static func run(
        _ path: String, _ arguments: [String], input: [UInt8], limits: Limits, cancellation: Cancellation = Cancellation()
    ) -> Outcome {
        var toChild: [Int32] = [-1, -1]
        var fromChild: [Int32] = [-1, -1]
        var errorsFromChild: [Int32] = [-1, -1]
        defer { for fd in toChild + fromChild + errorsFromChild where fd >= 0 { close(fd) } }
        guard makePipe(&toChild), makePipe(&fromChild), makePipe(&errorsFromChild) else {
            return Outcome(ending: .notStarted("no pipe: \(String(cString: strerror(errno)))"), output: [], errors: [])
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, toChild[0], 0)
        posix_spawn_file_actions_adddup2(&actions, fromChild[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errorsFromChild[1], 2)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))
        let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, path, &actions, &attributes, argv, environ)
        // The child's ends, now that it has them.
        for fd in [toChild[0], fromChild[1], errorsFromChild[1]] { close(fd) }
        (toChild[0], fromChild[1], errorsFromChild[1]) = (-1, -1, -1)
        guard spawned == 0 else {
            return Outcome(ending: .notStarted("cannot run \(path): \(String(cString: strerror(spawned)))"), output: [], errors: [])
        }
        // A helper that dies early must end a write with EPIPE, not end this process.
        signal(SIGPIPE, SIG_IGN)
        let deadline = Monotonic.seconds() + limits.seconds
        var pump = Pump(input: input, limits: limits, deadline: deadline, cancellation: cancellation)
        var status: Int32 = 0
        var ending = pump.run(stdin: &toChild[1], stdout: fromChild[0], stderr: errorsFromChild[0])
        // Both pipes closed: the helper has ended, or will soon; one that lingers is killed too.
        while ending == nil {
            let reaped = waitpid(pid, &status, WNOHANG)
            if reaped == pid { break }
            if reaped < 0, errno != EINTR { break }
            ending = pump.stopReason()
            if ending == nil { usleep(5000) }
        }
        guard let ending else {
            let exited = status & 0x7F == 0
            return Outcome(
                ending: exited ? .exited((status >> 8) & 0xFF) : .signalled(status & 0x7F), output: pump.output, errors: pump.errors)
        }
        kill(-pid, SIGKILL)
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        return Outcome(ending: ending, output: pump.output, errors: pump.errors)
    }

    /// Moves bytes between the helper's pipes without blocking on any one of them.
    private struct Pump {
        let input: [UInt8]
        let limits: Limits
        let deadline: Double
        let cancellation: Cancellation
        var written = 0
        var output: [UInt8] = []
        var errors: [UInt8] = []

        init(input: [UInt8], limits: Limits, deadline: Double, cancellation: Cancellation) {
            self.input = input
            self.limits = limits
            self.deadline = deadline
            self.cancellation = cancellation
        }

        /// Why the helper must be stopped now, or nil: its caller cancelled or its time is up.
        func stopReason() -> Ending? {
            if cancellation.isCancelled { return .cancelled }
            return Monotonic.seconds() >= deadline ? .timedOut(seconds: limits.seconds) : nil
        }

        /// Runs until both output pipes close; returns why the helper must be killed, if it must.
        mutating func run(stdin: inout Int32, stdout: Int32, stderr: Int32) -> Ending? {
            for fd in [stdin, stdout, stderr] { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
            if input.isEmpty { Self.closeInput(&stdin) }
            var outOpen = true
            var errOpen = true
            var chunk = [UInt8](repeating: 0, count: 64 << 10)
            while outOpen || errOpen {
                if let stop = stopReason() { return stop }
                let left = deadline - Monotonic.seconds()
                var fds = [
                    pollfd(fd: outOpen ? stdout : -1, events: Int16(POLLIN), revents: 0),
                    pollfd(fd: errOpen ? stderr : -1, events: Int16(POLLIN), revents: 0),
                    pollfd(fd: stdin, events: Int16(POLLOUT), revents: 0),
                ]
                let ready = poll(&fds, nfds_t(fds.count), Int32(min(left, 0.05) * 1000) + 1)
                if ready < 0, errno != EINTR { return .notStarted("poll failed: \(String(cString: strerror(errno)))") }
                guard ready > 0 else { continue }
                if fds[2].revents != 0 { feed(&stdin) }
                if outOpen, fds[0].revents != 0 {
                    let count = read(stdout, &chunk, chunk.count)
                    if count > 0 {
                        guard output.count + count <= limits.outputBytes else { return .outputTooLarge(limit: limits.outputBytes) }
                        output += chunk[..<count]
                    } else if count == 0 || (errno != EAGAIN && errno != EINTR) {
                        outOpen = false
                    }
                }
                if errOpen, fds[1].revents != 0 {
                    let count = read(stderr, &chunk, chunk.count)
                    if count > 0 {
                        errors += chunk[..<min(count, max(0, limits.errorBytes - errors.count))]
                    } else if count == 0 || (errno != EAGAIN && errno != EINTR) {
                        errOpen = false
                    }
                }
            }
            return nil
        }

        /// Writes what the pipe takes of the rest of the input; closes it when all is written or
        /// the helper no longer reads.
        private mutating func feed(_ stdin: inout Int32) {
            guard stdin >= 0 else { return }
            let count = input[written...].withUnsafeBytes { write(stdin, $0.baseAddress, $0.count) }
            if count > 0 { written += count }
            if written == input.count || (count < 0 && errno != EAGAIN && errno != EINTR) { Self.closeInput(&stdin) }
        }

        private static func closeInput(_ stdin: inout Int32) {
            close(stdin)
            stdin = -1
        }
    }

    /// A pipe whose ends are closed in spawned programs (but for the ones given to them).
    private static func makePipe(_ ends: inout [Int32]) -> Bool {
        guard pipe(&ends) == 0 else { return false }
        for fd in ends { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        return true
    }
}
