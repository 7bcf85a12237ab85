import EnergyClockDomain
import EnergyClockStore
import EnergyClockTesting
import Foundation
import MQTTClient
import Testing

/// The binary under the conditions a long-running daemon meets: other daemons, damaged or
/// forbidden state, signals, floods of refused input and SIGKILL at any moment.
@Suite(.timeLimit(.minutes(2)))
struct DaemonSafetyTests {

    func daemon(_ broker: TestBroker, state: String, _ extra: [String] = [], http: TestHTTPServer? = nil) throws -> ChildProcess {
        try ChildProcess(
            ProcessTests.binary,
            [
                "run", "--mqtt-host", "127.0.0.1", "--mqtt-port", "\(broker.port)", "--state-dir", state,
                "--energyzero-url", http?.baseURL.absoluteString ?? "http://127.0.0.1:9",
            ] + extra, environment: daemonEnvironment())
    }

    @Test func aSecondDaemonOnOneStateDirectoryRefusesToStartWhilePricesStillReads() async throws {
        let broker = try await TestBroker.start()
        let state = temporaryDirectory().path
        let live = try await TopicRecorder(port: broker.port, filter: "energyclock/status")
        let first = try daemon(broker, state: state, ["--mqtt-client-id", "first-\(UUID().uuidString)"])
        #expect(await live.wait(for: "energyclock/status") { $0 == "online" } != nil)

        let second = try daemon(broker, state: state, ["--mqtt-client-id", "second-\(UUID().uuidString)"])
        #expect(await second.waitForExit(timeout: 10) == 3)
        #expect(second.log.contains("another energyclock (pid \(first.pid)) is running with it"), "\(second.log)")
        let prices = try ChildProcess(
            ProcessTests.binary, ["prices", "--json", "--state-dir", state, "--energyzero-url", "http://127.0.0.1:9"],
            environment: daemonEnvironment())
        let status = await prices.waitForExit(timeout: 20)
        #expect(status == 0 || status == 1, "\(prices.log)")
        #expect(!prices.log.contains("lock"))
        #expect(first.isRunning)

        // A killed daemon leaves no lock behind.
        first.kill()
        let third = try daemon(broker, state: state)
        while !third.log.contains("connected to"), third.isRunning { try await Task.sleep(for: .milliseconds(10)) }
        third.signal(SIGTERM)
        #expect(await third.waitForExit(timeout: 20) == 0, "\(third.log.suffix(3000))")
        await live.stop()
    }

    @Test func unusableStateDirectoriesExitWithStatus3AndSayWhy() async throws {
        let base = temporaryDirectory()
        let file = base.appendingPathComponent("file")
        try "x".write(to: file, atomically: true, encoding: .utf8)
        var cases: [(String, String)] = [
            (file.path, "\(file.path): it is a file, not a directory"),
            (file.appendingPathComponent("below").path, "\(file.path) is a file, not a directory"),
        ]
        // Permissions do not bind root, so as root the daemon runs as nobody for these.
        let asRoot = geteuid() == 0
        guard !asRoot || FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") else { return }
        let unreadable = base.appendingPathComponent("unreadable")
        let readOnly = base.appendingPathComponent("read-only")
        let readOnlyStore = base.appendingPathComponent("read-only-store")
        for directory in [unreadable, readOnly, readOnlyStore] {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        }
        _ = try PriceStore(directory: readOnlyStore)
        chmod(unreadable.path, 0o000)
        chmod(readOnly.path, 0o555)
        chmod(readOnlyStore.appendingPathComponent(PriceStore.fileName).path, 0o444)
        if asRoot {
            chmod(base.path, 0o755)
            chown(readOnlyStore.path, 65534, 65534)
        } else {
            chmod(readOnlyStore.path, 0o755)
        }
        cases += [
            (unreadable.path, "\(unreadable.path): Permission denied"),
            (readOnly.path, "\(readOnly.path): Permission denied"),
            (readOnlyStore.path, "the file is read-only"),
        ]
        // A copy nobody may run, wherever the checkout lives.
        // Written with O_CLOEXEC, so no process started meanwhile by another test keeps it open for writing.
        let binary = base.appendingPathComponent("energyclock").path
        let bytes = try Data(contentsOf: URL(fileURLWithPath: ProcessTests.binary))
        let fd = open(binary, O_WRONLY | O_CREAT | O_CLOEXEC, 0o755)
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        for (directory, message) in cases {
            let command = asRoot ? ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", binary] : [binary]
            func start() throws -> ChildProcess {
                try ChildProcess(
                    command[0],
                    Array(command.dropFirst()) + [
                        "run", "--state-dir", directory, "--mqtt-host", "127.0.0.1", "--mqtt-port", "9",
                    ], environment: daemonEnvironment())
            }
            var process = try start()
            var status = await process.waitForExit(timeout: 10)
            for _ in 0..<20 where status != 3 && process.log.contains("Text file busy") {
                try await Task.sleep(for: .milliseconds(50))
                process = try start()
                status = await process.waitForExit(timeout: 10)
            }
            #expect(status == 3, "\(directory): \(process.log)")
            #expect(process.log.contains(message), "\(process.log)")
            #expect(!process.log.contains("NSCocoaErrorDomain"))
        }
    }

    @Test func aDamagedStoreIsMovedAsideAndTheDaemonCarriesOnWithItsSettings() async throws {
        let broker = try await TestBroker.start()
        let http = try fixtureServer()
        let state = temporaryDirectory()
        let live = try await TopicRecorder(port: broker.port, filter: "energyclock/#")
        let first = try daemon(broker, state: state.path, http: http)
        _ = await live.wait(for: "energyclock/settings")
        try live.client.publish("energyclock/settings/history_days/set", "3")
        #expect(object(await live.wait(for: "energyclock/settings/result"))?["ok"] as? Bool == true)
        first.signal(SIGTERM)
        #expect(await first.waitForExit(timeout: 20) == 0, "\(first.log.suffix(3000))")

        // The page that holds the schema survives; every page after the settings is scribbled over,
        // and so is every frame of the write-ahead log, which the store keeps between runs and
        // which holds copies of the pages written last.
        let path = state.appendingPathComponent(PriceStore.fileName).path
        for (file, from) in [(path, UInt64(3 * 4096)), (path + "-wal", UInt64(32))] {
            let handle = try #require(FileHandle(forUpdatingAtPath: file))
            let size = try handle.seekToEnd()
            try handle.seek(toOffset: from)
            handle.write(Data((0..<Int(size - from)).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ 3) }))
            try handle.close()
        }

        let second = try daemon(broker, state: state.path, http: http)
        while !second.log.contains("connected to"), second.isRunning { try await Task.sleep(for: .milliseconds(10)) }
        #expect(await live.wait(for: "energyclock/status") { $0 == "online" } != nil)
        #expect(second.log.contains("ERROR [manager] the store was unusable"), "\(second.log)")
        #expect(second.log.contains("keeping the saved settings"), "\(second.log)")
        #expect(await live.wait(for: "energyclock/settings") { object($0)?["history_days"] as? Int == 3 } != nil)
        let moved = try FileManager.default.contentsOfDirectory(atPath: state.path).filter { $0.hasPrefix("energyclock.sqlite.corrupt-") }
        #expect(!moved.isEmpty)
        second.signal(SIGHUP)
        #expect(await second.waitForExit(timeout: 20) == 0, "SIGHUP stops cleanly: \(second.log)")
        #expect(await live.wait(for: "energyclock/status") { $0 == "offline" } != nil)
        await live.stop()
    }

    @Test func refusedPayloadsNeitherForgeLinesNorFloodTheLog() async throws {
        let broker = try await TestBroker.start()
        let live = try await TopicRecorder(port: broker.port, filter: "energyclock/#")
        let process = try daemon(broker, state: temporaryDirectory().path, ["--log-level", "debug"])
        _ = await live.wait(for: "energyclock/settings")
        try live.client.publish("energyclock/settings/set", "{\"zone\":\"NL\\n2099-01-01T00:00:00Z ERROR [manager] FORGED LINE\"}")
        let big = "{\"zone\":\"" + String(repeating: "A", count: 60 * 1024) + "\"}"
        for _ in 0..<300 { try live.client.publish("energyclock/settings/set", big) }
        #expect(await live.wait(count: 301, on: "energyclock/settings/result", timeout: 30).count == 301)
        let lines = process.log.split(separator: "\n")
        #expect(!lines.contains { $0.hasPrefix("2099") }, "a forged line")
        #expect(process.log.contains("\\n2099-01-01T00:00:00Z ERROR [manager] FORGED LINE"))
        // Debug logs a line per publish; what is quoted from the payloads is a few hundred bytes at most.
        #expect(process.log.utf8.count < 200_000, "\(process.log.utf8.count) bytes of log")
        #expect(lines.filter { $0.contains("settings update refused") }.count <= 3)
        process.signal(SIGTERM)
        #expect(await process.waitForExit(timeout: 20) == 0, "\(process.log.suffix(3000))")
        await live.stop()
    }

    @Test func twoDaemonsOnOneHostKeepTheirSessionsAndAClashIsNamed() async throws {
        let broker = try await TestBroker.start()
        // Without --mqtt-client-id, each state directory gets its own id.
        let a = try daemon(broker, state: temporaryDirectory().path, ["--topic-prefix", "a"])
        let b = try daemon(broker, state: temporaryDirectory().path, ["--topic-prefix", "b"])
        while !(a.log.contains("connected to") && b.log.contains("connected to")) { try await Task.sleep(for: .milliseconds(20)) }
        try await Task.sleep(for: .seconds(2))
        #expect(a.log.components(separatedBy: "connected to").count == 2, "\(a.log)")
        #expect(b.log.components(separatedBy: "connected to").count == 2, "\(b.log)")
        a.signal(SIGTERM)
        b.signal(SIGTERM)
        _ = await a.waitForExit(timeout: 20)
        _ = await b.waitForExit(timeout: 20)

        // With one id forced on both, they take the session from each other: one clear error, and backoff.
        let id = "clash-\(UUID().uuidString)"
        let c = try daemon(broker, state: temporaryDirectory().path, ["--mqtt-client-id", id])
        let d = try daemon(broker, state: temporaryDirectory().path, ["--mqtt-client-id", id])
        let started = Date()
        let warning = "another client uses the client id \"\(id)\""
        while !(c.log.contains(warning) || d.log.contains(warning)), Date().timeIntervalSince(started) < 30 {
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(c.log.contains(warning) || d.log.contains(warning), "\(c.log)\n\(d.log)")
        let connects = (c.log + d.log).components(separatedBy: "connected to").count - 1
        #expect(Double(connects) <= Date().timeIntervalSince(started) / 2 + 4, "\(connects) connects")
        c.signal(SIGTERM)
        d.signal(SIGTERM)
        _ = await c.waitForExit(timeout: 20)
        _ = await d.waitForExit(timeout: 20)
    }

    @Test func aHundredKillsDuringAStormNeverLoseAnAcknowledgedSetting() async throws {
        let broker = try await TestBroker.start()
        let http = try fixtureServer()
        let state = temporaryDirectory()
        let live = try await TopicRecorder(port: broker.port, filter: "energyclock/#")
        var submitted = 0
        var lastAcknowledged = -1
        for round in 0..<100 {
            let onlineBefore = live.all("energyclock/status").filter { $0 == "online" }.count
            let process = try daemon(broker, state: state.path, http: http)
            let deadline = Date().addingTimeInterval(10)
            while live.all("energyclock/status").filter({ $0 == "online" }).count <= onlineBefore, Date() < deadline {
                try await Task.sleep(for: .milliseconds(2))
            }
            #expect(live.all("energyclock/status").filter { $0 == "online" }.count > onlineBefore, "round \(round): \(process.log)")
            // Distinct updates, as fast as they go, for a random moment; then SIGKILL.
            let until = Date().addingTimeInterval(Double.random(in: 0.005...0.06))
            while Date() < until {
                submitted += 1
                try live.client.publish("energyclock/settings/surcharge/set", DecimalFormat.string(Double(submitted) / 1e6))
                if submitted % 8 == 0 { try await Task.sleep(for: .milliseconds(1)) }
            }
            // Every tenth round the storm pauses until an answer comes: answers wait while changes
            // keep coming, and without a pause no round might see one before its kill.
            if round % 10 == 9 { _ = await live.wait(for: "energyclock/settings/result", timeout: 10) }
            process.kill()
            for payload in live.all("energyclock/settings/result") {
                if let settings = object(payload)?["settings"] as? [String: Any], let surcharge = settings["surcharge"] as? Double {
                    lastAcknowledged = max(lastAcknowledged, Int((surcharge * 1e6).rounded()))
                }
            }
            let store = try PriceStore(directory: state)
            #expect(store.opening.movedTo == nil, "round \(round)")
            #expect(try store.integrityProblems().isEmpty, "round \(round)")
            let saved = Settings.restore(json: try store.settingsJSON() ?? "{}", sources: ["energyzero"]).settings
            let stored = Int((saved.surcharge * 1e6).rounded())
            store.close()
            #expect(stored >= lastAcknowledged && stored <= submitted, "round \(round): stored \(stored), acknowledged \(lastAcknowledged)")
        }
        #expect(lastAcknowledged > 0)
        let last = try daemon(broker, state: state.path, http: http)
        while !last.log.contains("connected to"), last.isRunning { try await Task.sleep(for: .milliseconds(10)) }
        let published = await live.wait(for: "energyclock/settings") {
            (object($0)?["surcharge"] as? Double).map { $0 * 1e6 >= Double(lastAcknowledged) - 0.5 } == true
        }
        #expect(published != nil)
        last.signal(SIGTERM)
        #expect(await last.waitForExit(timeout: 20) == 0, "\(last.log.suffix(3000))")
        await live.stop()
    }
}
