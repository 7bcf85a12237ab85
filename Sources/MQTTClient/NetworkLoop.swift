import CMosquitto
import Dispatch
import FoundationEssentials
import Synchronization

/// The body of a client's network thread: runs libmosquitto's loop step by step and reconnects
/// with exponential backoff and jitter after any error, until the client stops.
///
/// The backoff only starts over after a connection has stayed up for ``stableAfter`` seconds, so
/// a refused login or a session taken over right after connecting backs off like any outage.
struct NetworkLoop {
    let mosq: OpaquePointer
    let context: CallbackContext
    let options: MQTTOptions

    /// Seconds a connection must last before it counts as healthy.
    static let stableAfter: Double = 10
    /// Connections in a row that end sooner than that before ``MQTTEvent/droppedRepeatedly(count:)`` is reported.
    static let dropsBeforeWarning = 3

    private var stopping: Bool { context.lifecycle.current.isStopping }
    private static let success = Int32(MOSQ_ERR_SUCCESS.rawValue)

    func run() {
        var rc = mosquitto_connect_async(mosq, options.host, Int32(options.port), Int32(options.keepalive))
        var delay = Double(options.reconnectDelay.min)
        var quickDrops = 0
        while !stopping {
            if rc == Self.success {
                // One step: read, write and keepalive. It sleeps until the socket has something, a
                // publish from another thread (or stop()'s DISCONNECT) wakes it through libmosquitto's
                // socket pair, or a keepalive ping is due: libmosquitto shortens the wait to that.
                rc = mosquitto_loop(mosq, Int32(clamping: options.keepalive * 1000), 1)
                if rc == Self.success { continue }
            }
            if stopping { break }
            let reason = context.explain(rc)
            if let connectedAt = context.lifecycle.update({ $0.takeUpSince() }) {
                let lasted = Double(DispatchTime.now().uptimeNanoseconds - connectedAt) / 1e9
                if lasted >= Self.stableAfter {
                    delay = Double(options.reconnectDelay.min)
                    quickDrops = 0
                } else {
                    quickDrops += 1
                    if quickDrops == Self.dropsBeforeWarning { context.continuation.yield(.droppedRepeatedly(count: quickDrops)) }
                }
            }
            context.reportOutage(reason)
            pause(delay * Double.random(in: 0.8...1.2))
            delay = min(delay * 2, Double(options.reconnectDelay.max))
            if stopping { break }
            rc = mosquitto_reconnect_async(mosq)
        }
        // Let the DISCONNECT queued by stop() go out, briefly.
        let deadline = DispatchTime.now() + 0.5
        while mosquitto_want_write(mosq), DispatchTime.now() < deadline {
            if mosquitto_loop(mosq, 50, 1) != Self.success { break }
        }
    }

    /// Sleeps `seconds`, or less when the client stops.
    private func pause(_ seconds: Double) {
        _ = context.lifecycle.wait(seconds: seconds) { $0.isStopping }
    }
}
