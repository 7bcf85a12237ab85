import EnergyClockTesting
import Foundation
import MQTTClient
import Testing

/// `MQTTClient.publishing { }`: a burst is queued without waking the network thread, and leaves
/// when the scope ends, corked into as few segments as it fits.
@Suite struct PublishingScopeTests {
    @Test func aBurstInAScopeArrivesWholeAndInOrderAndAPublishFromAnotherThreadIsNotHeldForever() async throws {
        let broker = try await TestBroker.start()
        defer { broker.stop() }
        let recorder = try await TopicRecorder(port: broker.port, filter: "burst/#")
        let client = recorder.client
        // The network thread asleep, with nothing to read or write: only a ring wakes it now.
        try await Task.sleep(for: .milliseconds(300))
        // Nested scopes ring once, when the outer one ends; a publish from another thread while a
        // scope is open waits for that end too, never for the keepalive a minute later.
        try client.publishing { () throws(MQTTError) in
            for index in 0..<100 { try client.publish("burst/\(index % 40)", "\(index)") }
            let done = DispatchSemaphore(value: 0)
            Thread {
                _ = try? client.publish("burst/other", "from another thread")
                done.signal()
            }.start()
            done.wait()
            try client.publishing { () throws(MQTTError) in
                for index in 100..<200 { try client.publish("burst/\(index % 40)", "\(index)") }
            }
        }
        let deadline = Date().addingTimeInterval(5)
        while recorder.messages.count < 201, Date() < deadline { try await Task.sleep(for: .milliseconds(5)) }
        let burst = recorder.messages.filter { $0.topic != "burst/other" }.map(\.text)
        #expect(burst == (0..<200).map { "\($0)" }, "every message of the burst, in the order published, within 5 s")
        #expect(recorder.all("burst/other") == ["from another thread"])
        // After the scope, a single publish still goes out at once.
        try client.publish("burst/after", "alone")
        #expect(await recorder.wait(for: "burst/after", timeout: 5) == "alone")
        await recorder.stop()
    }

    @Test func anExpectedPublishLeavesAndSoDoEverythingBeforeAndAfterItWhetherItComesOrNot() async throws {
        let broker = try await TestBroker.start()
        defer { broker.stop() }
        let recorder = try await TopicRecorder(port: broker.port, filter: "expected/#")
        let client = recorder.client
        // Expected far ahead: a publish now is not held for it.
        client.expectPublish(in: 3600)
        try client.publish("expected/early", "before")
        #expect(await recorder.wait(for: "expected/early") == "before")
        // Expected soon, and it comes from another thread while the network thread spins for it.
        client.expectPublish(in: 0.05)
        try await Task.sleep(for: .milliseconds(50))
        try client.publish("expected/boundary", "on time")
        #expect(await recorder.wait(for: "expected/boundary") == "on time")
        // Expected, and it never comes: the thread gives up, and what comes later still leaves.
        client.expectPublish(in: 0.02)
        try await Task.sleep(for: .milliseconds(200))
        try client.publish("expected/late", "after")
        #expect(await recorder.wait(for: "expected/late") == "after")
        // Withdrawn: not a number of seconds.
        client.expectPublish(in: .nan)
        try client.publish("expected/withdrawn", "still")
        #expect(await recorder.wait(for: "expected/withdrawn") == "still")
        await recorder.stop()
    }
}
