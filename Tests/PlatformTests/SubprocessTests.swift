import Foundation
import Platform
import Testing

/// The clock helper runs on a leash: a time limit, an output limit, stderr drained, a clean signal
/// state, and killed when its caller stops.
@Suite struct SubprocessTests {
    /// Generous time, so that only the tests of the time limit meet it on a loaded machine.
    let limits = Subprocess.Limits(seconds: 20, outputBytes: 1 << 20, errorBytes: 256)
    let short = Subprocess.Limits(seconds: 2, outputBytes: 1 << 20, errorBytes: 256)

    /// The helper run on a thread of its own, as the daemon runs it: a test that waited for it on
    /// one of the few threads all tests share would stall every other test for seconds, and those
    /// that time a daemon's slot boundaries would see them late.
    func shell(_ script: String, input: [UInt8] = [], limits: Subprocess.Limits? = nil) async -> Subprocess.Outcome {
        await Subprocess.run("/bin/sh", ["-c", script], input: input, limits: limits ?? self.limits, thread: "test")
    }

    /// The same, on the calling thread: for what that thread's signal mask must reach.
    func shellHere(_ script: String) -> Subprocess.Outcome {
        Subprocess.run("/bin/sh", ["-c", script], input: [], limits: limits)
    }

    @Test func aHelperThatHangsIsKilledAtItsTimeLimit() async {
        let started = ContinuousClock.now
        let outcome = await shell("sleep 30", limits: short)
        #expect(outcome.ending == .timedOut(seconds: 2))
        #expect(ContinuousClock.now - started < .seconds(4))
        // One that closes its output and lingers is stopped too.
        #expect(await shell("exec >&- 2>&-; sleep 30", limits: short).ending == .timedOut(seconds: 2))
    }

    @Test func floodsOnEitherPipeNeitherDeadlockNorGrowWithoutLimit() async {
        // 64 KiB on stderr before anything on stdout: both pipes are drained together.
        let noisy = await shell("head -c 200000 /dev/zero >&2; printf done")
        #expect(noisy.ending == .exited(0))
        #expect(noisy.output == Array("done".utf8))
        #expect(noisy.errors.count == 256, "only the first bytes of stderr are kept")
        // 600 MB on stdout stop at the limit.
        let flood = await shell("head -c 600000000 /dev/zero")
        #expect(flood.ending == .outputTooLarge(limit: 1 << 20))
        #expect(flood.output.count <= 1 << 20)
    }

    @Test func theHelperStartsWithNoSignalBlockedOrIgnored() {
        // Whatever this process blocks and ignores (the daemon ignores TERM, INT, HUP and PIPE).
        signal(SIGPIPE, SIG_IGN)
        signal(SIGHUP, SIG_IGN)
        var blocked = sigset_t()
        sigemptyset(&blocked)
        sigaddset(&blocked, SIGTERM)
        pthread_sigmask(SIG_BLOCK, &blocked, nil)
        defer {
            pthread_sigmask(SIG_UNBLOCK, &blocked, nil)
            signal(SIGHUP, SIG_DFL)
        }
        let outcome = shellHere("grep -E '^Sig(Blk|Ign)' /proc/self/status")
        let text = String(decoding: outcome.output, as: UTF8.self)
        // Signals 1 to 31: none blocked, none ignored (32 and 33 belong to glibc itself).
        func mask(_ name: String) -> UInt64? {
            text.split(separator: "\n").first { $0.hasPrefix(name + ":") }.flatMap {
                UInt64($0.split(separator: "\t").last ?? "", radix: 16)
            }
        }
        #expect(mask("SigBlk").map { $0 & 0x7FFF_FFFF } == 0, "\(text)")
        #expect(mask("SigIgn").map { $0 & 0x7FFF_FFFF } == 0, "\(text)")
        // A TERM ends it: it is not blocked there.
        #expect(shellHere("kill -TERM $$; sleep 5").ending == .signalled(SIGTERM))
    }

    @Test func aCancelledRunKillsTheHelperAndItsChildren() async throws {
        let marker = FileManager.default.temporaryDirectory.appendingPathComponent("ec-\(UUID().uuidString)").path
        let run = Task {
            await Subprocess.run(
                "/bin/sh", ["-c", "sleep 30 & echo $! > \(marker); wait"], input: [],
                limits: Subprocess.Limits(seconds: 60, outputBytes: 1024), thread: "test")
        }
        while !FileManager.default.fileExists(atPath: marker) { try await Task.sleep(for: .milliseconds(10)) }
        try await Task.sleep(for: .milliseconds(50))
        run.cancel()
        #expect(await run.value.ending == .cancelled)
        let child = try #require(Int32(String(contentsOfFile: marker, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        // Gone, or a zombie waiting for init: either way no longer running.
        try await Task.sleep(for: .milliseconds(100))
        let state = (try? String(contentsOfFile: "/proc/\(child)/stat", encoding: .utf8))?.split(separator: " ").dropFirst(2).first
        #expect(state == nil || state == "Z", "the helper's own child went with it: \(state ?? "")")
    }

    @Test func inputLargerThanAPipeIsFedWhileOutputIsRead() async {
        let input = [UInt8](repeating: 0x61, count: 300_000)
        let outcome = await shell("cat", input: input)
        #expect(outcome.ending == .exited(0))
        #expect(outcome.output == input)
        #expect(await shell("exit 3").ending == .exited(3))
        #expect(await Subprocess.run("/nonexistent", [], input: [], limits: limits, thread: "test").ending != .exited(0))
    }
}
