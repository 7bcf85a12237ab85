import CMosquitto
import Foundation
import Synchronization

/// The body of a client's network thread: runs libmosquitto's loop step by step and reconnects
/// with exponential backoff after any error, until the client stops.
struct NetworkLoop {
    let mosq: OpaquePointer
    let context: CallbackContext
    let options: MQTTOptions

    private var stopping: Bool { context.stopping.load(ordering: .acquiring) }
    private static let success = Int32(MOSQ_ERR_SUCCESS.rawValue)

    func run() {
        var rc = mosquitto_connect_async(mosq, options.host, Int32(options.port), Int32(options.keepalive))
        var delay = Double(options.reconnectDelay.min)
        while !stopping {
            if rc == Self.success {
                // One step: read, write and keepalive; publishes from other threads wake it early.
                rc = mosquitto_loop(mosq, 100, 1)
                if rc == Self.success {
                    delay = Double(options.reconnectDelay.min)
                    continue
                }
            }
            if stopping { break }
            context.reportOutage(String(cString: mosquitto_strerror(rc)))
            pause(delay)
            delay = min(delay * 2, Double(options.reconnectDelay.max))
            if stopping { break }
            rc = mosquitto_reconnect_async(mosq)
        }
        // Let the DISCONNECT queued by stop() go out, briefly.
        let deadline = Date().addingTimeInterval(0.5)
        while mosquitto_want_write(mosq), Date() < deadline {
            if mosquitto_loop(mosq, 50, 1) != Self.success { break }
        }
    }

    /// Sleeps `seconds`, waking every tenth of a second to notice a stop.
    private func pause(_ seconds: Double) {
        let until = Date().addingTimeInterval(seconds)
        while Date() < until, !stopping { usleep(100_000) }
    }
}
