import EnergyClockDomain
import EnergyClockSupport
import EnergyClockTesting
import Foundation
import MQTTClient
import Synchronization
import Testing

/// The binary's event loop is never held: a job that would take billions of steps is refused at
/// once, a fetch that drips for its whole time-out never delays a slot boundary, and SIGTERM ends
/// the process within five seconds whatever it is doing.
@Suite(.timeLimit(.minutes(2)))
struct LoopGuardTests {
    /// A price list of `seconds`-long slots from `before` seconds ago to `after` seconds ahead,
    /// each priced by its index, as the custom source reads it.
    static func priceList(seconds: Int, before: Int = 600, after: Int) -> [UInt8] {
        let first = (Int(Date().timeIntervalSince1970) - before) / seconds * seconds
        let items = stride(from: first, to: first + before + after, by: seconds).map { start in
            #"{"start":\#(start),"price":\#(Double((start / seconds) % 7) / 100 + 0.05)}"#
        }
        return Array(("[" + items.joined(separator: ",") + "]").utf8)
    }

    /// The daemon on `broker` with the state directory `state`, on the custom source at `url` with
    /// native slots and the given extra arguments.
    static func daemon(_ broker: TestBroker, state: String, url: String, _ extra: [String] = []) throws -> ChildProcess {
        try ChildProcess(
            ProcessTests.binary,
            [
                "run", "--mqtt-host", "127.0.0.1", "--mqtt-port", "\(broker.port)", "--state-dir", state, "--custom-url", url,
                "--settings", #"{"source":"custom","resolution":"native"}"#,
            ] + extra, environment: daemonEnvironment())
    }

    /// The resident memory of `pid` in MiB, from /proc.
    static func residentMiB(_ pid: pid_t) -> Double? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
            let kB = Double(line.split(separator: " ").dropFirst().first ?? "")
        else { return nil }
        return kB / 1024
    }

    /// Waits for `count` slot boundaries of `seconds`-long slots and returns how late each one's
    /// `current` reached a subscriber, in seconds after the slot began.
    static func boundaryLateness(_ live: TopicRecorder, seconds: Int, count: Int) async -> [Double] {
        var lateness: [Double] = []
        var next = (Int(Date().timeIntervalSince1970) / seconds + 1) * seconds
        for _ in 0..<count {
            let stamp = ISO8601.local(Date(timeIntervalSince1970: Double(next)), in: LocalCalendar(identifier: "Europe/Amsterdam")!)
            guard
                await live.wait(for: "energyclock/current", timeout: Double(seconds) + 15, { object($0)?["start"] as? String == stamp })
                    != nil
            else {
                lateness.append(.infinity)
                return lateness
            }
            lateness.append(Date().timeIntervalSince1970 - Double(next))
            next += seconds
        }
        return lateness
    }

    /// A daemon on a broker of its own, on a price file of `seconds`-long slots for `after`
    /// seconds from now in a state directory of its own, once it publishes a price; with a
    /// recorder of its tree.
    static func running(seconds: Int, after: Int) async throws -> (
        broker: TestBroker, state: URL, file: URL, live: TopicRecorder, daemon: ChildProcess
    ) {
        let broker = try await TestBroker.start()
        let state = temporaryDirectory()
        let file = state.appendingPathComponent("prices.json")
        try Data(priceList(seconds: seconds, after: after)).write(to: file)
        let live = try await TopicRecorder(port: broker.port, filter: "energyclock/#")
        let daemon = try Self.daemon(broker, state: state.path, url: file.absoluteString)
        #expect(await live.wait(for: "energyclock/price", timeout: 30) { !$0.isEmpty } != nil, "\(daemon.log.suffix(2000))")
        return (broker, state, file, live, daemon)
    }

    @Test func aJobOfBillionsOfStepsIsRefusedAtOnceAndNeverHoldsTheLoop() async throws {
        // Two days of five-second slots: 34,560 of them.
        let (broker, state, file, live, daemon) = try await Self.running(seconds: 5, after: 2 * 86_400)

        // Sixteen hours in pieces, never above a price nothing reaches: the path that skipped the
        // work limit. Answered at once, refused with the reason, and the loop goes on.
        let asked = Date()
        try live.client.publish(
            "energyclock/settings/set",
            #"{"jobs":{"hog":{"duration":960,"contiguous":false,"min_block":0,"repeat":"once","earliest":null,"deadline":null,"max_price":-5}}}"#
        )
        let answer = await live.wait(for: "energyclock/settings/result", timeout: 30)
        #expect(answer?.contains(#""ok":true"#) == true, "\(answer ?? "no answer")")
        #expect(Date().timeIntervalSince(asked) < 10, "the answer came at once")
        let plan = await live.wait(for: "energyclock/plan/hog", timeout: 10) { $0.contains("unsatisfiable") }
        #expect(plan?.contains("steps a job may") == true, "\(plan ?? "no plan")")
        // Slot boundaries go on: each `current` within two seconds of its slot.
        let late = await Self.boundaryLateness(live, seconds: 5, count: 3)
        #expect(late.allSatisfy { $0 < 2 }, "\(late)")
        #expect((Self.residentMiB(daemon.pid) ?? 0) < 120, "\(Self.residentMiB(daemon.pid) ?? -1) MiB")
        let stopping = Date()
        daemon.signal(SIGTERM)
        #expect(await daemon.waitForExit(timeout: 10) == 0, "\(daemon.log.suffix(2000))")
        #expect(Date().timeIntervalSince(stopping) < 5)

        // The job is stored: the next start refuses it again with a log line, and runs on.
        let again = try Self.daemon(broker, state: state.path, url: file.absoluteString)
        #expect(await live.wait(for: "energyclock/status", timeout: 30) { $0 == "online" } != nil)
        let restarted = Date()
        // The refusal is part of the start; the boundaries after it are on time.
        let deadline = Date().addingTimeInterval(30)
        while !again.log.contains("job hog cannot be planned: choosing"), Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
        #expect(again.log.contains("job hog cannot be planned: choosing"), "\(again.log.suffix(2000))")
        let late2 = await Self.boundaryLateness(live, seconds: 5, count: 2)
        #expect(late2.allSatisfy { $0 < 2 }, "\(late2)")
        // Once, not at every boundary: the reason does not move with the window.
        #expect(again.log.components(separatedBy: "steps a job may").count == 2, "\(again.log.suffix(2000))")
        again.signal(SIGTERM)
        #expect(await again.waitForExit(timeout: 10) == 0, "\(again.log.suffix(3000))")
        #expect(Date().timeIntervalSince(restarted) < 30)
        await live.stop()
    }

    @Test func aFetchThatDripsNeverDelaysABoundaryAndSIGTERMStillEndsIt() async throws {
        let broker = try await TestBroker.start()
        let body = Self.priceList(seconds: 5, after: 3 * 3600)
        let dripping = Atomic<Bool>(false)
        let http = try TestHTTPServer { _ in
            var response = TestHTTPServer.Response.json(body)
            // A refetch answers one byte every half second: 20 s of a 10 MB limit, never done.
            if dripping.load(ordering: .relaxed) { response.drip = 0.5 }
            return response
        }
        let state = temporaryDirectory().path
        let live = try await TopicRecorder(port: broker.port, filter: "energyclock/#")
        let daemon = try Self.daemon(broker, state: state, url: http.baseURL.absoluteString + "/prices.json", ["--fetch-timeout", "20"])
        #expect(await live.wait(for: "energyclock/price", timeout: 30) { !$0.isEmpty } != nil, "\(daemon.log.suffix(2000))")
        dripping.store(true, ordering: .relaxed)
        let requests = http.requests.count
        try live.client.publish("energyclock/refresh", "now")
        // The refetch has begun, and drips.
        let deadline = Date().addingTimeInterval(10)
        while http.requests.count == requests, Date() < deadline { try await Task.sleep(for: .milliseconds(10)) }
        #expect(http.requests.count > requests)
        let late = await Self.boundaryLateness(live, seconds: 5, count: 3)
        #expect(late.allSatisfy { $0 < 2 }, "each boundary while the fetch drips: \(late)")
        let stopping = Date()
        daemon.signal(SIGTERM)
        #expect(await daemon.waitForExit(timeout: 10) == 0, "\(daemon.log.suffix(2000))")
        #expect(Date().timeIntervalSince(stopping) < 5)
        await live.stop()
    }

    /// The guard on the signals thread: a second signal during the shutdown ends the process at
    /// once, with status 1 and a line that says so. SIGINT and SIGTERM are sent back to back, two
    /// signals that the kernel cannot merge into one, so the second always comes mid-shutdown.
    @Test func aSecondSignalEndsTheProcessAtOnce() async throws {
        // The broker lives as long as this test: it stops when released.
        let (broker, _, _, live, daemon) = try await Self.running(seconds: 60, after: 3 * 3600)
        defer { withExtendedLifetime(broker) {} }
        let stopping = Date()
        daemon.signal(SIGINT)
        daemon.signal(SIGTERM)
        #expect(await daemon.waitForExit(timeout: 10) == 1, "\(daemon.log.suffix(2000))")
        #expect(Date().timeIntervalSince(stopping) < 2)
        #expect(daemon.log.contains("a second signal (\(SIGTERM)) came; exiting now"), "\(daemon.log.suffix(2000))")
        await live.stop()
    }
}
