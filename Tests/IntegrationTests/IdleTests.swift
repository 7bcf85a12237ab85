import EnergyClockTesting
import Foundation
import MQTTClient
import Testing

/// An idle daemon sleeps: its MQTT thread waits for the socket, not for a poll interval, and its
/// tasks wait on one thread for their next timer, with no thread pool ticking.
@Suite(.timeLimit(.minutes(1)))
struct IdleTests {
    /// Voluntary context switches of each of `pid`'s threads, by thread name.
    func wakeups(_ pid: pid_t) -> [String: Int] {
        var counts: [String: Int] = [:]
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        for tid in tasks {
            let name =
                (try? String(contentsOfFile: "/proc/\(pid)/task/\(tid)/comm", encoding: .utf8))?
                .trimmingCharacters(in: .whitespacesAndNewlines) ?? "?"
            let status = (try? String(contentsOfFile: "/proc/\(pid)/task/\(tid)/status", encoding: .utf8)) ?? ""
            let line = status.split(separator: "\n").first { $0.hasPrefix("voluntary_ctxt_switches:") }
            counts[name, default: 0] += line.flatMap { Int($0.split(separator: "\t").last ?? "") } ?? 0
        }
        return counts
    }

    @Test func theMQTTThreadSleepsWhileNothingHappens() async throws {
        let broker = try await TestBroker.start()
        let (daemon, live) = try await daemonSettledOnAFailedFetch(broker)
        // The clock picture follows the stale flag once more, at most a second after its first drawing.
        try await Task.sleep(for: .milliseconds(1500))
        let before = wakeups(daemon.pid)
        #expect(before["mqtt"] != nil, "the network thread is named mqtt: \(before)")
        try await Task.sleep(for: .seconds(4))
        let after = wakeups(daemon.pid)
        // With a 100 ms poll this was 40; asleep on the socket it is none.
        #expect((after["mqtt"] ?? 0) - (before["mqtt"] ?? 0) <= 1, "\(before) → \(after)")
        // The tasks run on the daemon's own event loop, the main thread, which sleeps until its
        // next timer. On libdispatch's pool a worker woke once a second, 4 times here.
        let woken = after.reduce(0) { $0 + $1.value } - before.reduce(0) { $0 + $1.value }
        #expect(woken <= 2, "\(before) → \(after)")
        // `sources` fetches and parses answers off the loop; it sleeps while there is none.
        #expect(
            Set(after.keys).isSubset(of: ["energyclock", "mqtt", "signals", "files", "sources"]), "no thread pool: \(after.keys.sorted())")

        // Time zones come from the tz database and XML from libxml2: neither ICU nor the full
        // Foundation is loaded, which kept 11 MB of library pages resident.
        // Read to the end: /proc files report a size of 0, which cuts a sized read short.
        let handle = try #require(FileHandle(forReadingAtPath: "/proc/\(daemon.pid)/maps"))
        let maps = String(decoding: handle.readDataToEndOfFile(), as: UTF8.self)
        try handle.close()
        // cairo and its X11 and font libraries live only in the short-lived energyclock-render, and
        // libcurl with its TLS stacks only in energyclock-fetch, although a fetch has been made.
        // libxml2 and the system's ICU are loaded on the first XML document, and EnergyZero is JSON.
        for library in [
            "libFoundation.so", "libFoundationInternationalization.so", "lib_FoundationICU.so", "libFoundationXML.so", "libcairo.so",
            "libcurl.so", "libgnutls.so", "libp11-kit.so", "libxml2.so", "libicuuc.so",
        ] {
            #expect(!maps.contains("/" + library), "\(library) is mapped")
        }
        #expect(maps.contains("libFoundationEssentials.so"), "the check reads the right maps")

        // A publish from another thread still wakes it at once: a settings change is answered.
        try live.client.subscribe("energyclock/settings/result")
        try live.client.publish("energyclock/settings/history_days/set", "3")
        #expect(await live.wait(for: "energyclock/settings/result") { $0.contains("\"ok\":true") } != nil)
        daemon.signal(SIGTERM)
        #expect(await daemon.waitForExit(timeout: 20) == 0, "\(daemon.log.suffix(3000))")
        await live.stop()
    }

    /// The MQTT thread runs what a message starts while the event loop's thread sleeps on: a
    /// settings change is read, committed and answered without a wake-up of a thread on another
    /// core in between.
    @Test func settingsChangesAreAnsweredWithoutWakingTheLoopThread() async throws {
        let broker = try await TestBroker.start()
        let (daemon, live) = try await daemonSettledOnAFailedFetch(broker)
        try await Task.sleep(for: .milliseconds(1500))
        try live.client.subscribe("energyclock/settings/result")
        let changes = 20
        let before = wakeups(daemon.pid)
        for change in 0..<changes {
            try live.client.publish("energyclock/settings/surcharge/set", "0.0\(1 + change % 2)")
            let answers = await live.wait(count: change + 1, on: "energyclock/settings/result")
            #expect(answers.count == change + 1 && answers.last?.contains("\"surcharge\":0.0\(1 + change % 2)") == true, "change \(change)")
        }
        let after = wakeups(daemon.pid)
        let loopWakeUps = (after["energyclock"] ?? 0) - (before["energyclock"] ?? 0)
        // Handed to the loop thread, each change woke it three or four times (76 over 20 changes
        // when measured); run on the MQTT thread, 3-4 in all wake it on a quiet machine, for a
        // timer or work that outlasted the help's budget. Under the full suite's load, where 20
        // changes took up to 36 s, 12-20: the bound leaves room for that, not for a hand-off.
        #expect(loopWakeUps < 2 * changes, "\(before) → \(after)")
        daemon.signal(SIGTERM)
        #expect(await daemon.waitForExit(timeout: 20) == 0, "\(daemon.log.suffix(3000))")
        await live.stop()
    }
}
