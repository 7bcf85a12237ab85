import EnergyClockDomain
import EnergyClockFace
import EnergyClockPublisher
import EnergyClockTesting
import Foundation
import Glibc
import MQTTClient
import Testing

/// The clock pictures and the LED ring, through a real broker.
@Suite(.timeLimit(.minutes(1)))
struct ClockTopicTests {
    @Test func theDaemonPublishesTheClockAndTheRingAndAnnouncesTheImage() async throws {
        let broker = try await TestBroker.start()
        let ring = try LEDTarget.parse("wled-ring:wled/ring,leds=24")
        let harness = try ServiceHarness(
            broker: broker, http: try fixtureServer(), clock: ManualClock(start: at("2025-12-17T10:20:00+01:00")),
            options: PublisherOptions(discovery: HADiscovery(sources: ["energyzero"]), leds: [ring]))
        let live = try await TopicRecorder(port: broker.port, filter: "#")
        _ = await live.wait(for: "energyclock/price") { !$0.isEmpty }

        // The PNG is retained and binary; the SVG is a document of its own.
        let deadline = Date().addingTimeInterval(20)
        while live.messages.first(where: { $0.topic == "energyclock/clock/png" }) == nil, Date() < deadline {
            try await Task.sleep(for: .milliseconds(10))
        }
        let png = try #require(live.messages.last { $0.topic == "energyclock/clock/png" })
        #expect(Array(png.payload.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        let svg = try #require(await live.wait(for: "energyclock/clock/svg"))
        #expect(svg.hasPrefix("<?xml") && svg.contains("<svg"))
        let image = try #require(object(live.last("homeassistant/image/energyclock/clock/config")))
        #expect(image["image_topic"] as? String == "energyclock/clock/png")
        #expect(image["content_type"] as? String == "image/png")

        // The ring: one command on <topic>/api, the current hour at full colour.
        let command = try #require(object(await live.wait(for: "wled/ring/api")))
        #expect(command["on"] as? Bool == true)
        let leds = try #require((command["seg"] as? [String: Any])?["i"] as? [Any])
        #expect(leds.contains { ($0 as? String) != nil })
        #expect(live.messages.filter { $0.topic == "wled/ring/api" }.allSatisfy { !$0.retain })

        // A late subscriber gets the retained picture at once.
        let late = try await TopicRecorder(port: broker.port, filter: "energyclock/clock/png")
        let retained = try #require(late.messages.first)
        #expect(retained.retain && Array(retained.payload.prefix(8)) == Array(png.payload.prefix(8)))
        // The retained picture is one of those sent; a newer drawing may reach the late subscriber
        // before the live recorder has it, so wait for the recorder to catch up.
        let caughtUp = Date().addingTimeInterval(5)
        while !live.messages.contains(where: { $0.topic == "energyclock/clock/png" && $0.payload == retained.payload }), Date() < caughtUp {
            try await Task.sleep(for: .milliseconds(10))
        }
        let sent = live.messages.filter { $0.topic == "energyclock/clock/png" }.map(\.payload)
        #expect(sent.contains(retained.payload), "one of the drawings sent")
        await late.stop()
        await live.stop()
        await harness.stop()
    }

    /// A service whose clock helper is the shell `script` (with `$FILE` a file of its own to
    /// write to), running once it publishes a price; and that file's path.
    func serviceDrawing(with script: String) async throws -> (ServiceHarness, TopicRecorder, file: String) {
        let broker = try await TestBroker.start()
        let directory = temporaryDirectory()
        let file = directory.appendingPathComponent("helper.out").path
        let helper = directory.appendingPathComponent("helper").path
        try writeExecutable("#!/bin/sh\ncat >/dev/null\n" + script.replacingOccurrences(of: "$FILE", with: file), to: helper)
        let harness = try ServiceHarness(
            broker: broker, http: try fixtureServer(), clock: ManualClock(start: at("2025-12-17T10:20:00+01:00")),
            options: PublisherOptions(renderer: ClockRenderer(helper: helper)))
        let live = try await TopicRecorder(port: broker.port, filter: "energyclock/#")
        _ = await live.wait(for: "energyclock/price") { !$0.isEmpty }
        return (harness, live, file)
    }

    @Test func aHangingHelperIsStoppedWithTheDaemonAndNothingOfItIsPublished() async throws {
        // A helper that reads the face, says where it is, ignores TERM and never answers.
        let (harness, live, pidFile) = try await serviceDrawing(with: "echo $$ > $FILE\ntrap '' TERM\nsleep 60\n")
        let deadline = Date().addingTimeInterval(10)
        while !FileManager.default.fileExists(atPath: pidFile), Date() < deadline { try await Task.sleep(for: .milliseconds(10)) }
        let pid = try #require(Int32(String(contentsOfFile: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        let stopping = Date()
        await harness.stop()
        #expect(Date().timeIntervalSince(stopping) < 5, "the drawing did not hold up the shutdown")
        try await Task.sleep(for: .milliseconds(100))
        let state = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8))?.split(separator: " ").dropFirst(2).first
        #expect(state == nil || state == "Z", "the helper was ended with the daemon: \(state ?? "")")
        #expect(live.all("energyclock/clock/png").isEmpty)
        #expect(live.last("energyclock/status") == "offline")
        await live.stop()
    }

    @Test func aFailingHelperIsLoggedOnceAndNotRetriedInALoop() async throws {
        let (harness, live, runs) = try await serviceDrawing(with: "echo run >> $FILE\necho 'no fonts here' >&2\nexit 3\n")
        // Five changes of what the picture shows, each a reason to draw again.
        for green in [0.11, 0.12, 0.13, 0.14, 0.15] {
            try live.client.publish("energyclock/settings/green_max/set", "\(green)")
        }
        _ = await live.wait(count: 5, on: "energyclock/settings/result")
        try await Task.sleep(for: .milliseconds(1500))
        let attempts = (try? String(contentsOfFile: runs, encoding: .utf8))?.split(separator: "\n").count ?? 0
        #expect(attempts == 1, "one drawing, then a pause of 30 s before the next: \(attempts)")
        let errors = harness.log.messages(atLeast: .error).filter { $0.contains("could not draw the clock") }
        #expect(errors.count == 1, "\(errors)")
        #expect(errors.first?.contains("ended with status 3: no fonts here; trying again in 30 s") == true, "\(errors)")
        #expect(live.all("energyclock/clock/png").isEmpty)
        await live.stop()
        await harness.stop()
    }

    @Test func aBandChangeRedrawsButNeverTwiceInASecond() async throws {
        let broker = try await TestBroker.start()
        let harness = try ServiceHarness(
            broker: broker, http: try fixtureServer(), clock: ManualClock(start: at("2025-12-17T10:20:00+01:00")))
        let live = try await TopicRecorder(port: broker.port, filter: "energyclock/#")
        _ = await live.wait(for: "energyclock/clock/svg")
        // Five threshold changes at once: each changes the picture, and they are drawn at most once a second.
        let started = Date()
        for green in [0.11, 0.12, 0.13, 0.14, 0.15] {
            try live.client.publish("energyclock/settings/green_max/set", "\(green)")
        }
        _ = await live.wait(count: 5, on: "energyclock/settings/result")
        // The change is drawn (a drawing takes a helper process, slow on a loaded machine), and
        // any further drawing would come within a second or two.
        _ = await live.wait(count: 2, on: "energyclock/clock/svg")
        try await Task.sleep(for: .milliseconds(2500))
        let drawings = live.all("energyclock/clock/svg")
        let elapsed = Date().timeIntervalSince(started)
        #expect(drawings.count >= 2, "the change is drawn")
        #expect(Double(drawings.count - 1) <= elapsed + 1, "\(drawings.count) drawings in \(elapsed) s")
        #expect(drawings.last?.contains("0.15") == true, "the newest thresholds are drawn last")
        await live.stop()
        await harness.stop()
    }
}
