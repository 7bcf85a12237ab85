import Foundation
import MQTTClient
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The MQTT client in a process with many files open: libmosquitto's `mosquitto_loop` uses
/// `select`, which refuses every socket numbered 1024 or above, so the client polls by itself.
@Suite(.serialized) struct HighDescriptorTests {
    @Test func aClientWhoseSocketIsNumberedAbove1023ConnectsAndDelivers() async throws {
        var limit = rlimit()
        #expect(getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0)
        let wanted = rlim_t(4096)
        if limit.rlim_cur < wanted {
            var raised = limit
            raised.rlim_cur = min(wanted, limit.rlim_max)
            #expect(setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0)
        }
        #expect(getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0)
        try #require(limit.rlim_cur >= 1300, "the process may open only \(limit.rlim_cur) files")

        let broker = try await TestBroker.start()
        // Fill every descriptor up to 1200, so that the next sockets are numbered above it.
        let null = open("/dev/null", O_RDONLY | O_CLOEXEC)
        var held: [Int32] = []
        while let last = held.last ?? Optional(null), last < 1200 {
            let fd = fcntl(null, F_DUPFD_CLOEXEC, 0)
            guard fd >= 0 else { break }
            held.append(fd)
        }
        defer {
            for fd in held { close(fd) }
            close(null)
        }
        #expect((held.last ?? 0) >= 1200)
        let recorder = try await TopicRecorder(port: broker.port, filter: "high/#")
        try recorder.client.publish("high/topic", "it works", retain: true)
        #expect(await recorder.wait(for: "high/topic") { $0 == "it works" } != nil)
        await recorder.stop()
    }
}
