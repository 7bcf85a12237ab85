import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
    import EnergyClockTesting
#endif

/// A child process started with posix_spawn and reaped with waitpid, so waiting never
/// depends on a run loop and never blocks a Swift concurrency thread for long.
final class ChildProcess: Sendable {
    let pid: pid_t
    private let output: String
    /// Set once the process has been reaped, so its pid is never signalled after the kernel may reuse it.
    private let reaped = Atomic<Bool>(false)

    /// Starts `path` with `arguments` and `environment`; stdout and stderr go to a log file.
    init(_ path: String, _ arguments: [String], environment: [String: String]? = nil) throws {
        output = FileManager.default.temporaryDirectory.appendingPathComponent("energyclock-child-\(UUID().uuidString).log").path
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let env = (environment ?? ProcessInfo.processInfo.environment).map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { env.forEach { free($0) } }
        // A clean signal state: a child inherits the signal mask of the thread that starts it,
        // and a broker started from a thread that blocks SIGTERM would never see one.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        var all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var pid: pid_t = 0
        let rc = Self.running.withLock { running in
            let rc = posix_spawn(&pid, path, &actions, &attributes, argv, env)
            if rc == 0 { running.insert(pid) }
            return rc
        }
        guard rc == 0 else { throw BrokerError("could not start \(path): \(String(cString: strerror(rc)))") }
        self.pid = pid
        Self.killedAtExit
    }

    /// The children not reaped yet: killed when the test process exits, so that no broker or
    /// daemon a test never released outlives the run.
    private static let running = Mutex<Set<pid_t>>([])
    private static let killedAtExit: Void = {
        atexit {
            for pid in ChildProcess.running.withLock({ $0 }) { Glibc.kill(pid, SIGKILL) }
        }
    }()

    private func forget() { Self.running.withLock { _ = $0.remove(pid) } }

    deinit { kill() }

    /// What the process printed so far.
    var log: String { (try? String(contentsOfFile: output, encoding: .utf8)) ?? "" }

    /// Sends `signal` to the process.
    func signal(_ number: Int32) {
        if !reaped.load(ordering: .acquiring) { Glibc.kill(pid, number) }
    }

    /// Whether the process still runs (without reaping it).
    var isRunning: Bool {
        var info = siginfo_t()
        return waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info._sifields._sigchld.si_pid == 0
    }

    /// Waits up to `timeout` seconds for the exit status; nil if it is still running.
    func waitForExit(timeout: Double) async -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            var status: Int32 = 0
            let reaped = waitpid(pid, &status, WNOHANG)
            if reaped == pid {
                self.reaped.store(true, ordering: .releasing)
                forget()
                return (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
            }
            // Looked at once more after the deadline: a test task that was not scheduled for a
            // while (the other tests keeping both cores busy) still sees an exit that came in time.
            if reaped < 0 || Date() >= deadline { return nil }
            try? await Task.sleep(for: .milliseconds(5))
        }
    }

    /// Kills the process with SIGKILL and reaps it; returns as soon as it is gone.
    func kill() {
        guard !reaped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        Glibc.kill(pid, SIGKILL)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        forget()
    }
}
