import CMosquitto
import Dispatch
import FoundationEssentials
import Synchronization

/// The body of a client's network thread: runs libmosquitto's loop step by step and reconnects
/// with exponential backoff and jitter after any error, until the client stops.
///
/// The backoff only starts over after a connection has stayed up for ``stableAfter`` seconds, so
/// a refused login or a session taken over right after connecting backs off like any outage.
///
/// With several brokers, each failed or lost connection moves on to the next one after the
/// shortest pause; the backoff grows only once a whole round of them has failed.
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
        let brokers = options.brokers
        var index = 0
        var rc = connect(to: brokers[index])
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
            index = (index + 1) % brokers.count
            let roundOver = index == 0
            pause((roundOver ? delay : Double(options.reconnectDelay.min)) * Double.random(in: 0.8...1.2))
            if roundOver { delay = min(delay * 2, Double(options.reconnectDelay.max)) }
            if stopping { break }
            rc = brokers.count == 1 ? mosquitto_reconnect_async(mosq) : connect(to: brokers[index])
        }
        // Let the DISCONNECT queued by stop() go out, briefly.
        let deadline = DispatchTime.now() + 0.5
        while mosquitto_want_write(mosq), DispatchTime.now() < deadline {
            if mosquitto_loop(mosq, 50, 1) != Self.success { break }
        }
    }

    /// Starts a connection to `broker`, which the client then reports as its own.
    private func connect(to broker: MQTTBroker) -> Int32 {
        context.broker.withLock { $0 = broker }
        return mosquitto_connect_async(mosq, broker.host, Int32(broker.port), Int32(options.keepalive))
    }

    /// Sleeps `seconds`, or less when the client stops.
    private func pause(_ seconds: Double) {
        _ = context.lifecycle.wait(seconds: seconds) { $0.isStopping }
    }
}
