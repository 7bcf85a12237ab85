import CMosquitto
import Dispatch
import FoundationEssentials
import Glibc
import Platform
import Synchronization

/// State shared between the client and libmosquitto's network thread.
///
/// The C callbacks receive it as their user-data pointer; they copy what they need,
/// hand it to the event stream and return at once, so the network thread never blocks.
final class CallbackContext: Sendable {
    let continuation: AsyncStream<MQTTEvent>.Continuation
    let options: MQTTOptions
    var version: MQTTVersion { options.version }
    /// The first error libmosquitto logged since the last ``explain(_:)`` (TLS failures are only explained there).
    let lastLibraryError = Mutex<String?>(nil)
    /// The broker the network thread connects to, or is connected to.
    let broker: Mutex<MQTTBroker>
    /// Where the connection stands; see ``Lifecycle``.
    let lifecycle = LifecycleLock()
    /// Message ids acknowledged lately, and who waits for which; see ``MQTTClient/waitForAcknowledgement(of:timeout:)``.
    let acknowledgements = Mutex(Acknowledgements())
    /// An eventfd that wakes the network thread's poll when another thread has queued a packet.
    let wake: Int32 = eventfd(0, Int32(EFD_NONBLOCK) | Int32(EFD_CLOEXEC))
    /// ``wake`` was rung and the network thread has not drained it yet.
    let wakePending = Atomic<Bool>(false)
    /// When the network thread last looked for input between the jobs it runs for the event loop,
    /// in monotonic nanoseconds.
    let lastLookedForInput = Atomic<UInt64>(0)
    /// When a packet last went to the broker, in monotonic nanoseconds: the keepalive ping is due a
    /// keepalive after it.
    let lastSent = Atomic<UInt64>(DispatchTime.now().uptimeNanoseconds)
    /// When a publish is expected from another thread, in nanoseconds of ``EventLoop/now``; 0 for
    /// none (see ``MQTTClient/expectPublish(in:)``).
    let expectedPublish = Atomic<UInt64>(0)

    /// Acknowledged message ids (the latest few thousand) and the tasks waiting for one.
    struct Acknowledgements {
        var received: Set<Int32> = []
        var waiters: [Int32: CheckedContinuation<Bool, Never>] = [:]
    }

    init(continuation: AsyncStream<MQTTEvent>.Continuation, options: MQTTOptions) {
        self.continuation = continuation
        self.options = options
        broker = Mutex(MQTTBroker(host: options.host, port: options.port))
    }

    deinit { if wake >= 0 { close(wake) } }

    /// Publishing scopes open now (``MQTTClient/publishing(_:)``): while there is one, packets are
    /// queued without waking the network thread.
    let holding = Atomic<Int>(0)
    /// A packet was queued while a scope was open; the last scope to close rings for it.
    let heldRing = Atomic<Bool>(false)

    /// The network thread (`pthread_self()`), once it runs; 0 before.
    let networkThread = Atomic<UInt>(0)
    /// The client queued a packet of its own since the network thread last wrote between jobs.
    let queuedOwn = Atomic<Bool>(false)

    /// Notes a packet the client handed to libmosquitto and wakes the network thread, which then
    /// writes whatever could not be written at once; inside a publishing scope, the scope's end
    /// wakes it instead.
    ///
    /// A burst of publishes (forty profiles' prices at a boundary) rings once: the publishes after
    /// the first find the network thread already rung and not yet woken, and it writes them all.
    /// Rung for each, the network thread was woken forty times, a syscall and a cross-core wake-up
    /// each, while the prices waited behind them. The network thread itself, publishing from the
    /// work it runs for the event loop, rings for nothing: it writes between jobs, and looks at
    /// what waits to be written before it sleeps.
    func sent() {
        lastSent.store(DispatchTime.now().uptimeNanoseconds, ordering: .relaxed)
        queuedOwn.store(true, ordering: .relaxed)
        if pthread_self() == networkThread.load(ordering: .relaxed) { return }
        wakeNetworkThread()
    }

    /// Wakes the network thread to look at its state again, once the outermost publishing scope
    /// has ended, if one is open.
    func wakeNetworkThread() {
        guard holding.load(ordering: .sequentiallyConsistent) > 0 else { return ring() }
        // The last scope may have closed between the check and the store, and found no ring held.
        // Sequentially consistent, here and in the scope's end: of the store and the scope's
        // decrement, whichever comes second sees the other, so one of the two rings.
        heldRing.store(true, ordering: .sequentiallyConsistent)
        if holding.load(ordering: .sequentiallyConsistent) == 0 { releaseHeldRing() }
    }

    /// Rings for a packet queued inside a scope that has closed; only one caller finds it.
    func releaseHeldRing() {
        if heldRing.exchange(false, ordering: .sequentiallyConsistent) { ring() }
    }

    /// Wakes the network thread, unless it is rung already and has not woken yet.
    private func ring() {
        guard !wakePending.exchange(true, ordering: .acquiringAndReleasing) else { return }
        var one: UInt64 = 1
        _ = write(wake, &one, 8)
    }

    /// Clears the wake-up once the network thread has woken, before it looks for packets to write:
    /// a packet queued after this rings again.
    ///
    /// The eventfd is read before the flag is cleared: cleared first, a ring that came in between
    /// would be read away with the flag left set, and no later packet would ring again.
    func drainWake() {
        var count: UInt64 = 0
        _ = read(wake, &count, 8)
        wakePending.store(false, ordering: .sequentiallyConsistent)
    }

    /// What went wrong, in words a user can act on; TLS failures are told apart by what
    /// libmosquitto logged for them.
    func explain(_ code: Int32) -> String {
        let logged = lastLibraryError.withLock { text in
            defer { text = nil }
            return text
        }
        let general = String(cString: mosquitto_strerror(code))
        guard code == Int32(MOSQ_ERR_TLS.rawValue) else {
            // Dropped before the broker answered the login: say what usually causes that.
            guard code == Int32(MOSQ_ERR_CONN_LOST.rawValue) || code == Int32(MOSQ_ERR_PROTOCOL.rawValue), !lifecycle.current.wasUp
            else { return general }
            let port = broker.withLock { $0.port }
            if options.tls == nil { return "\(general) (if the broker expects TLS on port \(port), start with --mqtt-tls)" }
            if options.tls?.certFile == nil {
                return "\(general) (if the broker requires a client certificate, give --mqtt-cert-file and --mqtt-key-file)"
            }
            return general
        }
        let detail = logged ?? general
        if detail.contains("Unable to load client key") {
            return "TLS: could not load the client key (a wrong passphrase in --mqtt-key-password-file, or not a PEM key)"
        }
        if detail.contains("host name verification failed") {
            return "TLS: the broker's certificate does not name \(broker.withLock { $0.host }) (host name mismatch)"
        }
        if detail.contains("certificate verify failed") {
            return "TLS: the broker's certificate is not trusted (signed by an unknown CA, or expired); name its CA with --mqtt-ca-file"
        }
        if detail.contains("certificate required") {
            return "TLS: the broker requires a client certificate (--mqtt-cert-file and --mqtt-key-file)"
        }
        return "TLS handshake failed: \(detail)"
    }

    /// Reports a lost or failed connection once per outage, so retries do not flood the log.
    func reportOutage(_ reason: String) {
        guard lifecycle.update({ $0.report() }) else { return }
        continuation.yield(.connectionLost(reason))
    }

    static func from(_ pointer: UnsafeMutableRawPointer?) -> CallbackContext {
        Unmanaged<CallbackContext>.fromOpaque(pointer!).takeUnretainedValue()
    }

    func reason(_ code: Int32) -> String {
        switch version {
        case .v5: String(cString: mosquitto_reason_string(code))
        case .v311: String(cString: mosquitto_connack_string(code))
        }
    }

    /// Installs the C callbacks on `mosq`; the log callback only with `tls`.
    ///
    /// The library's log is read only to explain a TLS failure (``explain(_:)``). With a log
    /// callback set, libmosquitto allocates and formats a line for every packet it sends or
    /// receives, whatever its level: 3-5 % of the daemon's instructions for a settings
    /// change, spent on lines nobody reads.
    static func install(on mosq: OpaquePointer, tls: Bool) {
        if tls {
            mosquitto_log_callback_set(mosq) { _, user, level, text in
                guard level == MOSQ_LOG_ERR, let text else { return }
                let message = String(cString: text)
                CallbackContext.from(user).lastLibraryError.withLock { last in
                    // The first line of a burst is the cause; OpenSSL's later lines only trace it.
                    if last == nil { last = message }
                }
            }
        }
        mosquitto_connect_v5_callback_set(mosq) { _, user, code, _, _ in
            let context = CallbackContext.from(user)
            if code == 0 {
                context.lifecycle.update { $0.connected(at: DispatchTime.now().uptimeNanoseconds) }
                context.continuation.yield(.connected)
            } else if context.lifecycle.update({ $0.report() }) {
                // A refused login is retried with backoff; it is reported once per outage.
                context.continuation.yield(.refused(context.reason(code)))
            }
        }
        mosquitto_disconnect_v5_callback_set(mosq) { _, user, code, _ in
            let context = CallbackContext.from(user)
            guard !context.lifecycle.current.isStopping else { return }
            context.reportOutage(context.explain(code))
        }
        mosquitto_publish_v5_callback_set(mosq) { _, user, mid, reasonCode, _ in
            let context = CallbackContext.from(user)
            if reasonCode >= 0x80 {
                context.continuation.yield(.publishRefused(messageID: mid, reason: String(cString: mosquitto_reason_string(reasonCode))))
            }
            let waiter = context.acknowledgements.withLock { state in
                if state.received.count > 4096 { state.received.removeAll() }
                state.received.insert(mid)
                return state.waiters.removeValue(forKey: mid)
            }
            waiter?.resume(returning: true)
        }
        mosquitto_message_v5_callback_set(mosq) { _, user, message, properties in
            // The message and its properties are freed when this returns: copy everything now.
            guard let message = message?.pointee, let topic = message.topic else { return }
            var copy = MQTTMessage(topic: String(cString: topic), payload: [], retain: message.retain)
            if let payload = message.payload, message.payloadlen > 0 {
                copy.payload = Array(UnsafeRawBufferPointer(start: payload, count: Int(message.payloadlen)))
            }
            if let properties {
                var text: UnsafeMutablePointer<CChar>?
                if mosquitto_property_read_string(properties, Int32(MQTT_PROP_RESPONSE_TOPIC.rawValue), &text, false) != nil,
                    let text
                {
                    copy.responseTopic = String(cString: text)
                    free(text)
                }
                var data: UnsafeMutableRawPointer?
                var length: UInt16 = 0
                if mosquitto_property_read_binary(properties, Int32(MQTT_PROP_CORRELATION_DATA.rawValue), &data, &length, false) != nil {
                    copy.correlationData = data.map { Array(UnsafeRawBufferPointer(start: $0, count: Int(length))) } ?? []
                    free(data)
                }
            }
            CallbackContext.from(user).continuation.yield(.message(copy))
        }
    }
}
