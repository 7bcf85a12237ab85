import EnergyClockTesting
import Foundation
import MQTTClient
import Testing

/// TLS, logins and ACLs against a real mosquitto, through the binary.
@Suite(.timeLimit(.minutes(2)))
struct BrokerSecurityTests {

    func daemon(port: Int, host: String = "127.0.0.1", state: URL = temporaryDirectory(), _ extra: [String], env: [String: String] = [:])
        throws -> ChildProcess
    {
        try ChildProcess(
            ProcessTests.binary,
            [
                "run", "--mqtt-host", host, "--mqtt-port", "\(port)", "--state-dir", state.path,
                "--energyzero-url", "http://127.0.0.1:9", "--log-level", "debug",
            ] + extra,
            environment: daemonEnvironment(env))
    }

    /// Waits until `text` shows in the log, or the time is up.
    func waitFor(_ text: String, in process: ChildProcess, timeout: Double = 10) async -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while !process.log.contains(text), Date() < deadline { try? await Task.sleep(for: .milliseconds(20)) }
        return process.log.contains(text)
    }

    /// Waits until `broker` has logged `text` `times` times: a daemon that was refused has then
    /// tried again as often, and what it says of a refusal is in its log.
    func waitFor(_ text: String, times: Int, in broker: TestBroker, timeout: Double = 30) async -> Bool {
        func count() -> Int { broker.log.components(separatedBy: text).count - 1 }
        let deadline = Date().addingTimeInterval(timeout)
        while count() < times, Date() < deadline { try? await Task.sleep(for: .milliseconds(20)) }
        return count() >= times
    }

    @Test func tlsConnectsOnlyToABrokerItCanTrust() async throws {
        let certs = try await TestCertificates.make()
        let plain = try TestBroker.freePort()
        let broker = try await TestBroker.start(extraConfig: certs.listener(plainPort: plain))
        let live = try await TopicRecorder(port: plain, filter: "#")

        // The right CA: connected, and everything published.
        let trusted = try daemon(port: broker.port, ["--mqtt-ca-file", certs.path("ca.crt"), "--topic-prefix", "trusted"])
        #expect(await live.wait(for: "trusted/status") { $0 == "online" } != nil, "\(trusted.log)")
        #expect(trusted.log.contains("(TLS)"))

        // Another CA, and a host name the certificate does not name: refused, said once, retried, alive.
        let unknownCA = try daemon(port: broker.port, ["--mqtt-ca-file", certs.path("other-ca.crt"), "--topic-prefix", "unknown"])
        let wrongHost = try daemon(
            port: broker.port, host: "localhost", ["--mqtt-ca-file", certs.path("ca.crt"), "--topic-prefix", "renamed"])
        #expect(await waitFor("not trusted (signed by an unknown CA", in: unknownCA), "\(unknownCA.log)")
        let mismatchBroker = try await TestBroker.start(
            extraConfig: certs.listener(certificate: "wrong-name", plainPort: try TestBroker.freePort()))
        let mismatch = try daemon(
            port: mismatchBroker.port, host: "localhost", ["--mqtt-ca-file", certs.path("ca.crt"), "--topic-prefix", "mismatch"])
        #expect(await waitFor("does not name localhost (host name mismatch)", in: mismatch), "\(mismatch.log)")
        #expect(await waitFor("connected to", in: wrongHost), "localhost is named by the server certificate: \(wrongHost.log)")
        // Until both were refused again: the refusal is said once, however often it is retried.
        #expect(await waitFor("unknown ca", times: 2, in: broker), "\(broker.log)")
        #expect(await waitFor("New connection from", times: 2, in: mismatchBroker), "\(mismatchBroker.log)")
        for process in [unknownCA, mismatch] {
            #expect(process.isRunning)
            #expect(!process.log.contains("connected to"))
            #expect(process.log.components(separatedBy: "no connection to").count - 1 == 1, "\(process.log)")
        }
        #expect(!live.messages.contains { $0.topic.hasPrefix("unknown/") || $0.topic.hasPrefix("mismatch/") })

        // A directory of hashed CA certificates, as the system's store is kept, works the same.
        let store = certs.directory.appendingPathComponent("store")
        try FileManager.default.createDirectory(at: store, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: certs.path("ca.crt"), toPath: store.appendingPathComponent("ca.pem").path)
        let rehash = try ChildProcess("/usr/bin/openssl", ["rehash", store.path])
        #expect(await rehash.waitForExit(timeout: 20) == 0, "\(rehash.log)")
        let byPath = try daemon(port: broker.port, ["--mqtt-ca-path", store.path, "--topic-prefix", "bypath"])
        #expect(await live.wait(for: "bypath/status") { $0 == "online" } != nil, "\(byPath.log)")
        byPath.signal(SIGTERM)
        #expect(await byPath.waitForExit(timeout: 20) == 0, "\(byPath.log.suffix(3000))")

        // --mqtt-tls-insecure accepts the wrong name, and says so.
        let insecure = try daemon(
            port: mismatchBroker.port, host: "localhost", ["--mqtt-ca-file", certs.path("ca.crt"), "--mqtt-tls-insecure"])
        #expect(await waitFor("connected to", in: insecure), "\(insecure.log)")
        #expect(insecure.log.contains("WARNING [energyclock] --mqtt-tls-insecure"))

        for process in [trusted, unknownCA, wrongHost, mismatch, insecure] {
            process.signal(SIGTERM)
            #expect(await process.waitForExit(timeout: 20) == 0, "\(process.log.suffix(3000))")
        }
        await live.stop()
    }

    @Test func mutualTLSNeedsTheClientCertificate() async throws {
        let certs = try await TestCertificates.make()
        let broker = try await TestBroker.start(
            extraConfig: certs.listener(requireClientCertificate: true, plainPort: try TestBroker.freePort()))
        let with = try daemon(
            port: broker.port,
            [
                "--mqtt-ca-file", certs.path("ca.crt"), "--mqtt-cert-file", certs.path("client.crt"),
                "--mqtt-key-file", certs.path("client.key"),
            ])
        let without = try daemon(port: broker.port, ["--mqtt-ca-file", certs.path("ca.crt")])
        let encrypted = try daemon(
            port: broker.port,
            [
                "--mqtt-ca-file", certs.path("ca.crt"), "--mqtt-cert-file", certs.path("client.crt"),
                "--mqtt-key-file", certs.path("client-encrypted.key"),
                "--mqtt-key-password-file", certs.path("passphrase"),
            ])
        #expect(await waitFor("connected to", in: with), "\(with.log)")
        #expect(await waitFor("connected to", in: encrypted), "\(encrypted.log)")
        #expect(!encrypted.log.contains(TestCertificates.keyPassphrase))
        #expect(await waitFor("if the broker requires a client certificate", in: without), "\(without.log)")
        #expect(await waitFor("did not return a certificate", times: 2, in: broker), "\(broker.log)")
        #expect(!without.log.contains("connected to"))
        #expect(without.isRunning)
        for process in [with, without, encrypted] {
            process.signal(SIGTERM)
            #expect(await process.waitForExit(timeout: 20) == 0, "\(process.log.suffix(3000))")
        }
    }

    @Test func port8883MeansTLSUnlessTurnedOff() async throws {
        for (extra, tls) in [([String](), true), (["--mqtt-tls=false"], false)] {
            let process = try ChildProcess(
                ProcessTests.binary,
                [
                    "run", "--state-dir", temporaryDirectory().path, "--mqtt-host", "127.0.0.1", "--mqtt-port", "8883",
                    "--energyzero-url", "http://127.0.0.1:9",
                ] + extra,
                environment: daemonEnvironment())
            #expect(await waitFor("starting: broker", in: process), "\(process.log)")
            #expect(process.log.contains("127.0.0.1:8883 (TLS)") == tls, "\(process.log)")
            process.signal(SIGTERM)
            #expect(await process.waitForExit(timeout: 20) == 0, "\(process.log.suffix(3000))")
        }
    }

    @Test(arguments: [
        (["--mqtt-ca-file", "/nonexistent/ca.crt"], "--mqtt-ca-file: /nonexistent/ca.crt does not exist"),
        (["--mqtt-ca-path", "/etc/hostname"], "--mqtt-ca-path: /etc/hostname is a file, not a directory"),
        (["--mqtt-cert-file", "/etc/hostname"], "--mqtt-cert-file and --mqtt-key-file go together"),
        (["--mqtt-tls=false", "--mqtt-ca-file", "/etc/hostname"], "--mqtt-tls is false, but TLS options are given"),
    ])
    func badTLSFilesExitWithStatus2NamingThem(arguments: [String], message: String) async throws {
        let process = try ChildProcess(
            ProcessTests.binary, ["run", "--state-dir", temporaryDirectory().path] + arguments, environment: daemonEnvironment())
        #expect(await process.waitForExit(timeout: 10) == 2)
        #expect(process.log.contains(message), "\(process.log)")
    }

    @Test func aRefusedLoginBacksOffAndADeniedTopicIsNamedOnce() async throws {
        let directory = temporaryDirectory()
        let passwords = directory.appendingPathComponent("passwd").path
        for (user, password) in [("clock", "s3cret word"), ("watcher", "look")] {
            let maker = try ChildProcess(
                "/usr/bin/mosquitto_passwd",
                (FileManager.default.fileExists(atPath: passwords) ? [] : ["-c"]) + ["-b", passwords, user, password])
            #expect(await maker.waitForExit(timeout: 10) == 0, "\(maker.log)")
        }
        let acl = directory.appendingPathComponent("acl").path
        try
            "user clock\ntopic readwrite energyclock/#\ntopic readwrite homeassistant/#\ntopic readwrite recorder/#\n\nuser watcher\ntopic read #\ntopic readwrite recorder/#\n"
            .write(toFile: acl, atomically: true, encoding: .utf8)
        for file in [passwords, acl] { chmod(file, 0o644) }
        chmod(directory.path, 0o755)
        // Every log type: a denied publish is logged at debug.
        let config = "allow_anonymous false\npassword_file \(passwords)\nacl_file \(acl)\nlog_type all"
        var broker = try await TestBroker.start(extraConfig: config)

        // A wrong password: refused, said once, retried with growing pauses.
        let refused = try daemon(port: broker.port, ["--mqtt-username", "clock"], env: ["ENERGYCLOCK_MQTT_PASSWORD": "wrong"])
        #expect(await waitFor("refused the connection", in: refused))
        // Until it has tried a third time, so that the second refusal was taken in (the pauses
        // themselves are ReconnectionTests', on a clock of their own): still running, and the
        // refusal said once.
        func attempts() -> Int { broker.log.components(separatedBy: "not authorised").count - 1 }
        let deadline = Date().addingTimeInterval(30)
        while attempts() < 3, Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
        #expect(attempts() >= 3, "\(broker.log)")
        #expect(refused.isRunning)
        #expect(refused.log.components(separatedBy: "refused the connection").count - 1 == 1, "\(refused.log)")
        refused.signal(SIGTERM)
        #expect(await refused.waitForExit(timeout: 20) == 0, "\(refused.log.suffix(3000))")

        // The right one from the environment; prices that cover now, so the lamp is driven.
        let state = try stateWithCurrentPrices()
        let live = try await TopicRecorder(port: broker.port, filter: "#", username: "watcher", password: "look")
        let daemon = try daemon(
            port: broker.port, state: state, ["--mqtt-username", "clock", "--led", "z2m:lamp", "--led", "json:energyclock/lamp"],
            env: ["ENERGYCLOCK_MQTT_PASSWORD": "s3cret word"])
        #expect(await live.wait(for: "energyclock/color") { $0 == "green" } != nil, "\(daemon.log)")
        #expect(await live.wait(for: "energyclock/lamp") { $0.contains("green") } != nil)
        #expect(await waitFor("refused a publish to zigbee2mqtt/lamp/set (Not authorized)", in: daemon), "\(daemon.log)")
        await live.stop()
        // After a reconnect the lamp is driven again, and refused again, but not reported again.
        let port = broker.port
        broker.stop()
        broker = try await TestBroker.start(port: port, extraConfig: config)
        #expect(await waitFor("Denied PUBLISH", times: 1, in: broker), "\(broker.log)")
        // The broker answered the refused publish before it passes on this command, and the daemon
        // takes in what comes on its connection in order: by its answer, it knew of the refusal.
        let phone = try await TopicRecorder(port: port, filter: "energyclock/settings/result", username: "clock", password: "s3cret word")
        try phone.client.publish("energyclock/settings/set", #"{"green_max":"x"}"#)
        #expect(await phone.wait(for: "energyclock/settings/result") != nil)
        #expect(daemon.log.components(separatedBy: "connected to").count - 1 == 2, "\(daemon.log)")
        #expect(daemon.log.components(separatedBy: "refused a publish").count - 1 == 1, "\(daemon.log)")
        #expect(!daemon.log.contains("s3cret"))
        daemon.signal(SIGTERM)
        #expect(await daemon.waitForExit(timeout: 20) == 0, "\(daemon.log.suffix(3000))")
        await phone.stop()
        broker.stop()
    }
}
