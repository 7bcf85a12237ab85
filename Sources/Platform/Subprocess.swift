#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs a helper program with bytes on its standard input and collects its standard output.
package enum Subprocess {
    /// What a finished helper left: its exit status (or -1 when it could not run) and its output.
    package struct Outcome: Sendable {
        package var status: Int32
        package var output: [UInt8]
        package var errors: [UInt8]

        /// An outcome from its parts.
        package init(status: Int32, output: [UInt8], errors: [UInt8]) {
            self.status = status
            self.output = output
            self.errors = errors
        }
    }

    /// Runs `path` with `arguments`, writes `input` to it and waits for it to end; blocks the calling thread.
    ///
    /// The helper must read all of its input before it writes much output, as `energyclock-render`
    /// does. SIGPIPE is ignored from the first call on.
    package static func run(_ path: String, _ arguments: [String], input: [UInt8]) -> Outcome {
        var toChild: [Int32] = [0, 0]
        var fromChild: [Int32] = [0, 0]
        var errorsFromChild: [Int32] = [0, 0]
        guard makePipe(&toChild) else { return Outcome(status: -1, output: [], errors: []) }
        guard makePipe(&fromChild), makePipe(&errorsFromChild) else {
            close(toChild[0])
            close(toChild[1])
            return Outcome(status: -1, output: [], errors: [])
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, toChild[0], 0)
        posix_spawn_file_actions_adddup2(&actions, fromChild[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errorsFromChild[1], 2)
        let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, path, &actions, nil, argv, environ)
        close(toChild[0])
        close(fromChild[1])
        close(errorsFromChild[1])
        guard spawned == 0 else {
            close(toChild[1])
            close(fromChild[0])
            close(errorsFromChild[0])
            return Outcome(status: -1, output: [], errors: Array("cannot run \(path): \(String(cString: strerror(spawned)))".utf8))
        }
        // A helper that dies early must end the write with EPIPE, not end this process.
        signal(SIGPIPE, SIG_IGN)
        FileDescriptor.writeAll(toChild[1], input)
        close(toChild[1])
        let output = readAll(fromChild[0])
        let errors = readAll(errorsFromChild[0])
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        let exited = (status & 0x7F) == 0
        return Outcome(status: exited ? (status >> 8) & 0xFF : -1, output: output, errors: errors)
    }

    /// A pipe whose ends are closed in spawned programs (but for the ones given to them).
    private static func makePipe(_ ends: inout [Int32]) -> Bool {
        guard pipe(&ends) == 0 else { return false }
        for fd in ends { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        return true
    }

    private static func readAll(_ fd: Int32) -> [UInt8] {
        defer { close(fd) }
        return FileDescriptor.readAll(fd) ?? []
    }
}
