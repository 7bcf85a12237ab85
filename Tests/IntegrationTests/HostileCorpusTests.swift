import EnergyClockDomain
import EnergyClockStore
import EnergyClockTesting
import Foundation
import MQTTClient
import Testing

/// Hundreds of hostile payloads against the real binary: each is refused with a reason a person
/// can read, and nothing the daemon owns changes, on the broker or on disk.
@Suite(.timeLimit(.minutes(2)))
struct HostileCorpusTests {
    /// A message to send, and whether the daemon must answer it.
    struct Probe {
        var topic: String
        var payload: [UInt8]
        var retain = false
        var responseTopic: String?
        var answered = true
    }

    static let numericFields = ["green_max", "yellow_max", "orange_max", "vat_percent", "surcharge", "history_days"]

    static var corpus: [Probe] {
        let set = "energyclock/settings/set"
        func object(_ text: String) -> Probe { Probe(topic: set, payload: Array(text.utf8)) }
        func field(_ name: String, _ text: String) -> Probe { Probe(topic: "energyclock/settings/\(name)/set", payload: Array(text.utf8)) }
        var probes: [Probe] = []
        // Not UTF-8, not JSON, not an object.
        probes += [
            [0xFF, 0xFE], [0x7B, 0xC3, 0x28, 0x7D], Array(#"{"zone":""#.utf8) + [0xC3, 0x28] + Array(#""}"#.utf8), [0x00],
            [0xEF, 0xBB, 0xBF],
        ]
        .map { Probe(topic: set, payload: $0) }
        probes += [
            "", " ", "{", "}", "{oops", "[", "nul", "tru", #"{"a":}"#, #"{"green_max":0.1,}"#, "{'green_max':0.1}",
            #"{"green_max" 0.1}"#, #""str"#, "1", #""x""#, "[]", "[{}]", "null", "true", "false", "0", "-1", "1e5", "{}",
            #"{"green_max":0.05}x"#, #"{"green_max":01}"#, #"{"green_max":.5}"#, #"{"green_max":+1}"#, #"{"green_max":1.}"#,
        ]
        .map(object)
        probes.append(object(String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)))
        probes.append(object(String(repeating: #"{"a":"#, count: 10_000) + "1" + String(repeating: "}", count: 10_000)))
        probes.append(object(#"{"zone":""# + String(repeating: "A", count: 10 << 20) + #""}"#))
        probes.append(object(#"{"zone":""# + String(repeating: "A", count: 60 << 10) + #""}"#))
        // Numbers that are no finite number, or out of range, in both topic forms.
        for name in numericFields {
            for value in ["NaN", "Infinity", "-Infinity", "1e400", "-1e400", "1e999999"] {
                probes.append(object(#"{"\#(name)":\#(value)}"#))
                probes.append(field(name, value))
            }
            for text in ["abc", "0x10", "", " ", "null", "[1]", "{}", "true", #""""#] { probes.append(field(name, text)) }
            probes.append(object(#"{"\#(name)":"0.1"}"#))
            probes.append(object(#"{"\#(name)":null}"#))
            probes.append(object(#"{"\#(name)":[0.1]}"#))
            probes.append(object(#"{"\#(name)":true}"#))
        }
        for (name, value) in [
            ("vat_percent", "101"), ("vat_percent", "-1"), ("surcharge", "6"), ("surcharge", "-2"), ("green_max", "-11"),
            ("orange_max", "11"), ("history_days", "0"), ("history_days", "61"), ("history_days", "1.5"), ("history_days", "-0"),
            ("history_days", "7.0000001"), ("history_days", "1e9"),
        ] {
            probes.append(object(#"{"\#(name)":\#(value)}"#))
            probes.append(field(name, value))
        }
        probes.append(object(#"{"history_days":"7"}"#))
        // Thresholds out of order once merged.
        probes += [
            #"{"green_max":0.25}"#, #"{"orange_max":0.15}"#, #"{"yellow_max":0.05}"#,
            #"{"green_max":0.3,"yellow_max":0.2,"orange_max":0.1}"#,
            #"{"green_max":-0,"yellow_max":-0}"#, #"{"green_max":0.1000001,"yellow_max":0.1000004}"#,
        ].map(object)
        // Null and wrong types for every other field.
        for name in [
            "source", "color_mode", "resolution", "zone", "fallback_sources", "custom_url", "custom_unit", "palette", "brightness",
        ] {
            probes.append(object(#"{"\#(name)":null}"#))
            probes.append(object(#"{"\#(name)":1}"#))
        }
        probes += [
            #"{"zone":["NL"]}"#, #"{"zone":"XX"}"#, #"{"zone":"nl"}"#, #"{"source":"tibber"}"#, #"{"source":""}"#,
            #"{"color_mode":"RELATIVE"}"#,
            #"{"resolution":"minute"}"#, #"{"custom_unit":"USD/kWh"}"#, #"{"fallback_sources":"entsoe"}"#,
            #"{"fallback_sources":["energyzero"]}"#,
            #"{"fallback_sources":["entsoe","entsoe"]}"#, #"{"fallback_sources":[1]}"#, #"{"fallback_sources":[""]}"#,
            ##"{"palette":"red=#FF0000"}"##, #"{"palette":{"red":"red"}}"#, ##"{"palette":{"purple":"#000000"}}"##,
            ##"{"palette":{"red":"#FF00"}}"##,
            #"{"brightness":{"green":256}}"#, #"{"brightness":{"green":-1}}"#, #"{"brightness":{"green":1.5}}"#,
            #"{"brightness":{"blue":1}}"#,
            #"{"custom_url":"https://example.org/p.json"}"#, #"{"custom_url":"ftp://x"}"#, #"{"custom_url":"javascript:alert(1)"}"#,
            #"{"colour":"red"}"#, #"{"GREEN_MAX":0.1}"#, #"{"":1}"#, #"{"green_max":0.05,"x":1}"#,
            #"{"zone":"NL\n2099-01-01T00:00:00Z ERROR [manager] FORGED LINE"}"#,
        ].map(object)
        // Plain values for the other fields.
        probes += [
            ("color_mode", "RELATIVE"), ("color_mode", ""), ("resolution", "minute"), ("zone", "XX"), ("zone", "nl"),
            ("source", "tibber"),
            ("fallback_sources", "custom,,energyzero"), ("fallback_sources", "energyzero"), ("fallback_sources", "x"),
            ("fallback_sources", ","),
            ("fallback_sources", "entsoe,entsoe"), ("palette", "red"), ("palette", "red=#GG0000"), ("palette", "purple=#000000"),
            ("brightness", "green=256"), ("brightness", "green=x"), ("brightness", "green"), ("custom_url", "http://example.org/p.json"),
            ("custom_unit", "EUR/GWh"), ("GREEN_MAX", "0.1"), ("colour", "red"), ("", "1"), ("%", "1"), ("zone", "NL\nFORGED"),
        ]
        .map { field($0.0, $0.1) }
        probes += [[0xFF], [0xC3, 0x28], [0xED, 0xA0, 0x80]].map { Probe(topic: "energyclock/settings/zone/set", payload: $0) }
        // Retained commands, live.
        probes.append(Probe(topic: set, payload: Array(#"{"green_max":0.111}"#.utf8), retain: true))
        probes.append(Probe(topic: "energyclock/settings/history_days/set", payload: Array("9".utf8), retain: true))
        // MQTT 5 requests with every kind of response topic (and a payload that is refused).
        for address in [
            "energyclock/price", "energyclock/settings/set", "energyclock/settings/green_max/set", "energyclock/status", "energyclock",
            "homeassistant/sensor/energyclock/price/config", "homeassistant/status", "$SYS/broker/x", "reply/ok", "reply/ok/deeper",
        ] {
            probes.append(Probe(topic: set, payload: Array(#"{"green_max":"x"}"#.utf8), responseTopic: address))
        }
        // Topics that are no command: no answer at all.
        for topic in [
            "energyclock/settings/set/extra", "energyclock/settings/green_max/set/x", "energyclock/settings/green_max",
            "energyclock/setting/set", "energyclock/Settings/set", "energyclock/settings/a/b/set", "energyclock/refresh/x",
            "energyclock/settingsset",
        ] {
            probes.append(Probe(topic: topic, payload: Array(#"{"green_max":0.05}"#.utf8), answered: false))
        }
        return probes
    }

    /// Every retained message under the daemon's topics, as a newcomer sees them.
    func retainedState(_ port: Int) async throws -> [String: String] {
        // Ready once the broker has sent it every retained message (TopicRecorder).
        let recorder = try await TopicRecorder(port: port, filter: "#")
        await recorder.stop()
        let owned = recorder.messages.filter { $0.retain && !$0.topic.hasSuffix("/set") }
        return Dictionary(owned.map { ($0.topic, $0.text) }) { $1 }
    }

    func storeBytes(_ directory: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) where name.hasPrefix(PriceStore.fileName) {
            files[name] = try Data(contentsOf: directory.appendingPathComponent(name))
        }
        return files
    }

    @Test func everyHostilePayloadIsRefusedAndChangesNothing() async throws {
        let corpus = Self.corpus
        #expect(corpus.count >= 200)
        let broker = try await TestBroker.start()
        let state = temporaryDirectory()
        let daemon = try ChildProcess(
            ProcessTests.binary,
            [
                "run", "--mqtt-host", "127.0.0.1", "--mqtt-port", "\(broker.port)", "--state-dir", state.path,
                "--energyzero-url", "http://127.0.0.1:9", "--log-level", "debug",
                // The picture is drawn in its own time; no setting reaches it.
                "--clock-image=false",
            ], environment: daemonEnvironment())
        // Settled once the first fetch (nothing listens on port 9) has failed and says so; the retry is 30 s away.
        let live = try await TopicRecorder(port: broker.port, filter: "#")
        #expect(await live.wait(for: "energyclock/stale") { $0 == "true" } != nil, "\(daemon.log)")
        let before = try await retainedState(broker.port)
        #expect(before["energyclock/stale"] == "true", "\(before.keys.sorted())")
        let storeBefore = try storeBytes(state)
        #expect(before["energyclock/status"] == "online")

        for probe in corpus {
            try live.client.publish(probe.topic, probe.payload, retain: probe.retain, responseTopic: probe.responseTopic, correlation: [1])
        }
        // Deleting the retained commands again is no command either.
        try live.client.publish("energyclock/settings/set", [], retain: true)
        try live.client.publish("energyclock/settings/history_days/set", [], retain: true)
        try live.client.publish("energyclock/settings/green_max/set", "x")  // The last one, answered.
        let expected = corpus.filter(\.answered).count + 1
        let results = await live.wait(count: expected, on: "energyclock/settings/result", timeout: 60)
        #expect(results.count == expected)
        try await Task.sleep(for: .milliseconds(300))
        #expect(live.all("energyclock/settings/result").count == expected, "no answers to what is no command")

        for (index, result) in results.enumerated() {
            let answer = try #require(object(result), "\(index)")
            #expect(answer["ok"] as? Bool == false, "\(index): \(result)")
            let reason = try #require(answer["error"] as? String)
            #expect(!reason.isEmpty && reason.utf8.count < 700, "\(index): \(reason)")
            #expect(!reason.unicodeScalars.contains { $0.value < 0x20 }, "\(index): \(reason)")
        }
        // Answers reached the one allowed reply address and nothing the daemon or Home Assistant owns.
        let replies = live.messages.filter { $0.text.hasPrefix(#"{"ok""#) }.map(\.topic)
        #expect(Set(replies) == ["energyclock/settings/result", "reply/ok", "reply/ok/deeper"])

        #expect(daemon.isRunning, "\(daemon.log.suffix(2000))")
        let after = try await retainedState(broker.port)
        let changed = Set(after.keys).union(before.keys).filter { after[$0] != before[$0] }.sorted()
        #expect(
            after == before, "changed: \(changed.map { "\($0): \(before[$0]?.prefix(120) ?? "-") → \(after[$0]?.prefix(120) ?? "-")" })")
        #expect(try storeBytes(state) == storeBefore)
        #expect(!daemon.log.split(separator: "\n").contains { $0.hasPrefix("2099") })
        daemon.signal(SIGTERM)
        #expect(await daemon.waitForExit(timeout: 20) == 0, "\(daemon.log.suffix(3000))")
        await live.stop()
    }
}
