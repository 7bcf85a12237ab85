import CMosquitto
import FoundationEssentials
import Platform
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// An MQTT client over libmosquitto: connects in the background, reconnects by itself, and
/// delivers connection changes and messages as an `AsyncStream`.
///
/// ``start()`` begins; ``stop(timeout:)`` disconnects cleanly and joins the network thread, and
/// must be called before the client is released.
public final class MQTTClient: Sendable {
    /// Connection changes and received messages, in the order they happened.
    public let events: AsyncStream<MQTTEvent>
    /// The options the client was made with.
    public let options: MQTTOptions
    private let handle: Handle

    /// The broker connected to, or tried last: one of ``MQTTOptions/brokers``.
    public var broker: MQTTBroker { context.broker.withLock { $0 } }
    private let context: CallbackContext
    /// The most QoS 1 messages sent and not yet acknowledged: enough for what one event of the
    /// largest daemon publishes, bounded so that a broker that stops acknowledging is noticed.
    static let sendMaximum: Int32 = 1024

    /// An opaque libmosquitto instance; its own locks make it safe to use from any thread.
    private struct Handle: @unchecked Sendable {
        let mosq: OpaquePointer
    }

    private static let libraryReady: Void = {
        mosquitto_lib_init()
    }()

    /// Creates a configured client; call ``start()`` to connect and ``stop()`` before releasing it.
    public init(options: MQTTOptions) throws(MQTTError) {
        _ = Self.libraryReady
        self.options = options
        let (stream, continuation) = AsyncStream.makeStream(of: MQTTEvent.self)
        events = stream
        context = CallbackContext(continuation: continuation, options: options)
        guard let mosq = mosquitto_new(options.clientID, true, Unmanaged.passUnretained(context).toOpaque()) else {
            throw MQTTError("create a client", code: Int32(MOSQ_ERR_NOMEM.rawValue))
        }
        handle = Handle(mosq: mosq)
        do {
            try configure()
        } catch {
            mosquitto_destroy(mosq)
            throw error
        }
        CallbackContext.install(on: mosq, tls: options.tls != nil)
    }

    deinit {
        context.continuation.finish()
        // A network thread that never ended still uses the handle; leaking it is the safe choice.
        if context.lifecycle.current != .stopping { mosquitto_destroy(handle.mosq) }
    }

    private func configure() throws(MQTTError) {
        let mosq = handle.mosq
        let protocolVersion = options.version == .v5 ? MQTT_PROTOCOL_V5 : MQTT_PROTOCOL_V311
        try check("set the protocol version", mosquitto_int_option(mosq, MOSQ_OPT_PROTOCOL_VERSION, protocolVersion))
        // Many retained topics go out after each change; Nagle would hold them for a delayed ACK.
        try check("disable Nagle's algorithm", mosquitto_int_option(mosq, MOSQ_OPT_TCP_NODELAY, 1))
        // A slot boundary sends a few topics for each of up to 64 profiles at once: with
        // libmosquitto's default of 20 QoS 1 messages in flight, the 21st price would wait a
        // round trip for an acknowledgement. A broker's own receive maximum (MQTT 5) still applies.
        try check("set the messages in flight", mosquitto_int_option(mosq, MOSQ_OPT_SEND_MAXIMUM, Self.sendMaximum))
        try check("enable threading", mosquitto_threaded_set(mosq, true))
        try check(
            "set the reconnect delay",
            mosquitto_reconnect_delay_set(
                mosq, UInt32(options.reconnectDelay.min), UInt32(options.reconnectDelay.max), true))
        if options.username != nil || options.password != nil {
            try check("set the credentials", mosquitto_username_pw_set(mosq, options.username, options.password))
        }
        if let tls = options.tls {
            // Without a CA of its own, trust the system's store (ca-certificates keeps it hashed here).
            let caPath = tls.caFile == nil && tls.caPath == nil ? MQTTTLS.systemCAPath : tls.caPath
            let rc = mosquitto_tls_set(mosq, tls.caFile, caPath, tls.certFile, tls.keyFile) { buffer, size, _, client in
                // OpenSSL asks for the key's passphrase, with libmosquitto's client as its user data.
                guard let buffer, let client, size > 0,
                    let password = CallbackContext.from(mosquitto_userdata(OpaquePointer(client))).options.tls?.keyPassword
                else { return 0 }
                let bytes = Array(password.utf8.prefix(Int(size) - 1))
                for (i, byte) in bytes.enumerated() { buffer[i] = CChar(bitPattern: byte) }
                buffer[bytes.count] = 0
                return Int32(bytes.count)
            }
            try check("set up TLS", rc)
            if tls.insecure { try check("skip the TLS host name check", mosquitto_tls_insecure_set(mosq, true)) }
        }
        if let will = options.will {
            let rc = will.payload.withUnsafeBytes { bytes in
                mosquitto_will_set(mosq, will.topic, Int32(bytes.count), bytes.baseAddress, 1, will.retain)
            }
            try check("set the last will on \(will.topic)", rc)
        }
    }

    /// Throws what failed when `code` is not success. `operation` is worded only then: a publish
    /// named its topic in it for every message it sent.
    private func check(_ operation: @autoclosure () -> String, _ code: Int32) throws(MQTTError) {
        guard code == Int32(MOSQ_ERR_SUCCESS.rawValue) else { throw MQTTError(operation(), code: code) }
    }

    /// Starts connecting in the background; progress arrives on ``events``.
    ///
    /// The network loop is this client's own thread rather than `mosquitto_loop_forever`, so it
    /// reconnects after every error (DNS and refusals included), backs off while connections fail
    /// or drop right after connecting, and notices ``stop()`` at once.
    public func start() {
        let handle = handle
        let context = context
        let options = options
        let started = DetachedThread.start(name: "mqtt") {
            NetworkLoop(mosq: handle.mosq, context: context, options: options).run()
            context.lifecycle.update { $0 = .ended }
        }
        if !started { context.lifecycle.update { $0 = .ended } }
    }

    /// Subscribes to `filter` at QoS 1; the subscription must be renewed after every reconnect.
    ///
    /// With `retainAsPublished` (MQTT 5 only) a message keeps the retain flag its sender set even
    /// when it arrives live; otherwise a broker clears it and only replayed messages carry it.
    ///
    /// With `othersOnly` (MQTT 5 only; with 3.1.1 nothing is subscribed) the broker sends what other
    /// clients publish from now on and nothing else: not this client's own messages (No Local), nor
    /// the retained messages the filter matches now.
    public func subscribe(_ filter: String, qos: Int32 = 1, retainAsPublished: Bool = false, othersOnly: Bool = false) throws(MQTTError) {
        guard !othersOnly || options.version == .v5 else { return }
        var flags = retainAsPublished && options.version == .v5 ? Int32(MQTT_SUB_OPT_RETAIN_AS_PUBLISHED.rawValue) : 0
        if othersOnly { flags |= Int32(MQTT_SUB_OPT_NO_LOCAL.rawValue) | Int32(MQTT_SUB_OPT_SEND_RETAIN_NEVER.rawValue) }
        try check("subscribe to \(filter)", mosquitto_subscribe_v5(handle.mosq, nil, filter, qos, flags, nil))
        context.sent()
    }

    /// Publishes `payload` on `topic`; returns the message id to wait for with ``waitForAcknowledgement(of:timeout:)``.
    ///
    /// An empty retained payload deletes the retained message. A response topic and correlation
    /// data are MQTT 5 properties and are left out with 3.1.1.
    @discardableResult
    public func publish(
        _ topic: String, _ payload: [UInt8], qos: Int32 = 1, retain: Bool = false,
        responseTopic: String? = nil, correlation: [UInt8]? = nil
    ) throws(MQTTError) -> Int32 {
        var mid: Int32 = 0
        var properties: OpaquePointer?
        defer { mosquitto_property_free_all(&properties) }
        if let responseTopic, options.version == .v5 {
            // libmosquitto 2.0.11 crashes sending an empty response topic; it is no valid topic anyway.
            guard !responseTopic.isEmpty else { throw MQTTError("attach an empty response topic", code: Int32(MOSQ_ERR_INVAL.rawValue)) }
            try check(
                "attach a response topic",
                mosquitto_property_add_string(&properties, Int32(MQTT_PROP_RESPONSE_TOPIC.rawValue), responseTopic))
        }
        if let correlation, options.version == .v5 {
            let rc = correlation.withUnsafeBytes { bytes in
                mosquitto_property_add_binary(
                    &properties, Int32(MQTT_PROP_CORRELATION_DATA.rawValue), bytes.baseAddress, UInt16(min(bytes.count, 65535)))
            }
            try check("attach correlation data", rc)
        }
        let rc = payload.withUnsafeBytes { bytes in
            mosquitto_publish_v5(handle.mosq, &mid, topic, Int32(bytes.count), bytes.baseAddress, qos, retain, properties)
        }
        try check("publish to \(topic)", rc)
        context.sent()
        return mid
    }

    /// Runs `body`, whose publishes are queued without waking the network thread; it is woken
    /// once when the outermost scope ends and writes them together, in as few TCP segments as
    /// they fit (it corks the socket while it writes).
    ///
    /// For a burst: forty prices at a slot boundary reach the broker in one segment and one read,
    /// instead of forty segments, each a wake-up of the broker while the next was being queued.
    public func publishing<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        context.holding.add(1, ordering: .sequentiallyConsistent)
        defer {
            if context.holding.subtract(1, ordering: .sequentiallyConsistent).newValue == 0 { context.releaseHeldRing() }
        }
        return try body()
    }

    /// Tells the network thread that another thread will publish in about `seconds`, such as the
    /// prices of the next slot at its boundary: the thread is awake a moment before and waits for
    /// the packet spinning, so it leaves as soon as it is queued. Woken for it instead, the thread
    /// took 0.1-0.25 ms to run on a virtual machine whose host must first wake an idle virtual
    /// CPU. A later call replaces the expectation; one that is not a positive number of seconds
    /// within a day withdraws it. The thread spins for it once, for a few milliseconds at most
    /// (see ``ExpectedPublish``).
    public func expectPublish(in seconds: Double) {
        let moment = ExpectedPublish.moment(in: seconds, after: EventLoop.now)
        let replaced = context.expectedPublish.exchange(moment, ordering: .relaxed)
        // The thread may sleep in a poll that ends after this one is due; let it reckon with it.
        if ExpectedPublish.comesSooner(moment, than: replaced) { context.wakeNetworkThread() }
    }

    /// Publishes UTF-8 text.
    @discardableResult
    public func publish(
        _ topic: String, _ text: String, qos: Int32 = 1, retain: Bool = false,
        responseTopic: String? = nil, correlation: [UInt8]? = nil
    ) throws(MQTTError) -> Int32 {
        try publish(topic, Array(text.utf8), qos: qos, retain: retain, responseTopic: responseTopic, correlation: correlation)
    }

    /// Waits until the broker acknowledged the QoS 1 message `mid`, or `timeout` seconds passed.
    ///
    /// It does not poll, and a cancelled task still waits: a shutdown publishes `offline` from a
    /// cancelled task and must know whether the broker took it.
    public func waitForAcknowledgement(of mid: Int32, timeout: Double) async -> Bool {
        let context = context
        // The timer is a task of its own, so that the cancelled caller's sleep does not end it.
        let timer = Task {
            await MonotonicSleep.pause(seconds: timeout)
            // Cancelled: the acknowledgement came, and the waiter is gone already.
            guard !Task.isCancelled else { return }
            context.acknowledgements.withLock { $0.waiters.removeValue(forKey: mid) }?.resume(returning: false)
        }
        defer { timer.cancel() }
        return await withCheckedContinuation { continuation in
            let known = context.acknowledgements.withLock { state in
                if state.received.contains(mid) { return true }
                state.waiters[mid] = continuation
                return false
            }
            if known { continuation.resume(returning: true) }
        }
    }

    /// Disconnects cleanly (the broker does not send the will) and ends the network thread.
    ///
    /// Waits at most `timeout` seconds for the thread, which may be stuck in a name lookup.
    public func stop(timeout: Double = 1.5) async {
        let lifecycle = context.lifecycle
        // Ending a pause at once: the change of state wakes it.
        let asked = lifecycle.update { state -> Bool in
            guard !state.isStopping else { return false }
            state = .stopping
            return true
        }
        guard asked else { return }
        mosquitto_disconnect(handle.mosq)
        context.sent()
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            let started = DetachedThread.start(name: "mqtt-stop") {
                _ = lifecycle.wait(seconds: timeout) { $0 == .ended }
                done.resume()
            }
            if !started { done.resume() }
        }
        context.continuation.finish()
    }
}
