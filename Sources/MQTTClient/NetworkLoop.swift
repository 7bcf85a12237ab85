import CMosquitto
import Dispatch
import FoundationEssentials
import Glibc
import Platform
import Synchronization

/// The body of a client's network thread: runs libmosquitto's loop step by step and, after any
/// error, reconnects as ``Reconnection`` decides (which broker, how long a pause, when to warn),
/// until the client stops.
struct NetworkLoop {
    let mosq: OpaquePointer
    let context: CallbackContext
    let options: MQTTOptions

    private var stopping: Bool { context.lifecycle.current.isStopping }
    private static let success = Int32(MOSQ_ERR_SUCCESS.rawValue)

    /// Connects, and reconnects, until the client stops. In a process whose global executor
    /// is an ``EventLoop`` (the daemon), this thread helps it: the task a message resumes runs
    /// here, while the loop thread sleeps on, and what it publishes is written between its jobs.
    func run() {
        context.networkThread.store(pthread_self(), ordering: .relaxed)
        guard let loop = EventLoop.global else { return follow(helping: nil) }
        let exchange = { [mosq, context] in NetworkLoop.exchange(mosq, context) }
        loop.helping(between: exchange) { follow(helping: loop) }
    }

    /// How long this thread runs the loop's work in one go before it hands the rest to the loop
    /// thread and goes back to the socket: far more than a settings change takes (0.3 ms in a
    /// release build), far less than any keepalive. A timer that falls due hands over at once.
    static let helpBudget = 0.02

    private func follow(helping loop: EventLoop?) {
        let brokers = options.brokers
        let delays = options.reconnectDelay
        var reconnection = Reconnection(
            brokers: brokers.count, delays: Double(delays.min)...Double(max(delays.min, delays.max)))
        var rc = connect(to: brokers[0])
        while !stopping {
            if rc == Self.success {
                rc = step(helping: loop)
                if rc == Self.success { continue }
            }
            if stopping { break }
            let reason = context.explain(rc)
            let upSince = context.lifecycle.update { $0.takeUpSince() }
            let next = reconnection.failed(upSince: upSince, at: DispatchTime.now().uptimeNanoseconds)
            if let count = next.droppedRepeatedly { context.continuation.yield(.droppedRepeatedly(count: count)) }
            context.reportOutage(reason)
            loop?.help(budget: Self.helpBudget)
            pause(next.pause * Double.random(in: Reconnection.jitter))
            if stopping { break }
            rc = next.sameBroker ? mosquitto_reconnect_async(mosq) : connect(to: brokers[next.broker])
        }
        // Let the DISCONNECT queued by stop() go out, briefly.
        let deadline = DispatchTime.now() + 0.5
        while mosquitto_want_write(mosq), DispatchTime.now() < deadline {
            if step(helping: nil) != Self.success { break }
        }
    }

    /// One step: sleeps until the socket can be read (or written while libmosquitto has a packet
    /// queued), another thread has queued a packet (``CallbackContext/sent()``), or the keepalive
    /// ping is due; then reads, writes and runs libmosquitto's timers.
    ///
    /// It polls with `poll`, not with `mosquitto_loop`, whose `select` refuses every socket numbered
    /// 1024 or above with "invalid function arguments": in a process with many files open the
    /// connection would never come up.
    ///
    /// The work the last step's events owe the loop runs first, before the wait (see ``run()``),
    /// unless more is there to read: then the loop thread takes it, and the two work side by side.
    private func step(helping loop: EventLoop?) -> Int32 {
        if let loop {
            if Self.readable(mosquitto_socket(mosq)) { loop.handOver() } else { loop.help(budget: Self.helpBudget) }
        }
        // Read after the help, whose reads may have lost the connection.
        let socket = mosquitto_socket(mosq)
        guard socket >= 0 else { return Int32(MOSQ_ERR_NO_CONN.rawValue) }
        let untilExpected = awaitExpectedPublish()
        let writing = mosquitto_want_write(mosq)
        var fds = [
            pollfd(fd: socket, events: Int16(POLLIN) | (writing ? Int16(POLLOUT) : 0), revents: 0),
            pollfd(fd: context.wake, events: Int16(POLLIN), revents: 0),
        ]
        let keepalive = UInt64(max(options.keepalive, 1)) * 1_000_000_000
        let due = context.lastSent.load(ordering: .relaxed) &+ keepalive
        let now = DispatchTime.now().uptimeNanoseconds
        // A millisecond past the ping's due time, as libmosquitto counts it in whole seconds.
        let wait = min(due > now ? due - now + 1_000_000 : 0, untilExpected ?? .max)
        if PreciseWait.poll(&fds, nanoseconds: wait) < 0, errno != EINTR { return Int32(MOSQ_ERR_ERRNO.rawValue) }
        if fds[1].revents != 0 { context.drainWake() }
        let events = fds[0].revents
        if events & Int16(POLLIN | POLLHUP | POLLERR | POLLNVAL) != 0 {
            let rc = mosquitto_loop_read(mosq, 1)
            guard rc == Self.success else { return rc }
        }
        if events & Int16(POLLOUT) != 0 || (writing && events & Int16(POLLERR | POLLHUP) != 0) {
            let rc = Self.write(mosq, context, socket: socket)
            guard rc == Self.success else { return rc }
        }
        // The ping goes out here once it is due; the next one is due a keepalive later.
        if DispatchTime.now().uptimeNanoseconds >= due { context.lastSent.store(DispatchTime.now().uptimeNanoseconds, ordering: .relaxed) }
        return mosquitto_loop_misc(mosq)
    }

    /// Sleeps until a moment before a publish another thread announced
    /// (``MQTTClient/expectPublish(in:)``), then spins until it is queued (the thread is rung or
    /// libmosquitto has something to write) and withdraws the expectation; returns how long the
    /// next poll may sleep for one expected later, if any.
    private func awaitExpectedPublish() -> UInt64? {
        let expected = context.expectedPublish.load(ordering: .relaxed)
        switch ExpectedPublish(expected: expected, now: EventLoop.now) {
        case .none: return nil
        case let .sleep(nanoseconds): return nanoseconds
        case let .spin(deadline):
            _ = context.expectedPublish.compareExchange(expected: expected, desired: 0, ordering: .relaxed)
            _ = PreciseWait.spin(until: deadline) { [mosq, context] in
                context.wakePending.load(ordering: .acquiring) || mosquitto_want_write(mosq)
            }
            return nil
        }
    }

    /// Writes what libmosquitto has queued. libmosquitto writes every packet, one `write` each;
    /// corked, a burst leaves in full segments, as soon as the last is written (Nagle's algorithm
    /// stays off).
    private static func write(_ mosq: OpaquePointer, _ context: CallbackContext, socket: Int32) -> Int32 {
        context.lastSent.store(DispatchTime.now().uptimeNanoseconds, ordering: .relaxed)
        // What the client queued goes now; a packet queued from here on marks itself again.
        context.queuedOwn.store(false, ordering: .relaxed)
        cork(socket, true)
        let rc = mosquitto_loop_write(mosq, 1)
        cork(socket, false)
        return rc
    }

    /// Packets read at most between two jobs this thread runs for the loop; with more to read, the
    /// loop thread takes the jobs. Tuning: one, not 64 as before (weighed in turns, three runs: a
    /// storm of 10,000 changes 468–500 ms against 437–530 ms, the settings round trip's p99
    /// 0.77–0.87 ms against 1.17–3.12 ms).
    static let readsBetweenJobs = 1

    /// Between the jobs this thread runs for the loop: reads what the broker sent meanwhile and
    /// writes what the jobs queued, at once. A failure shows again in the next step, which
    /// handles it.
    ///
    /// Reading here keeps the connection moving while the jobs run: messages are acknowledged as
    /// they come, and a storm of settings changes reaches the manager while it commits the ones
    /// before, which it then folds into one commit. Read only between runs of jobs, a storm was
    /// applied one change at a time, and the broker dropped what overflowed its queue for the
    /// daemon (1,000 messages by default). At most ``readsBetweenJobs`` packets, so that a
    /// flood cannot keep the jobs from running.
    ///
    /// The acknowledgement of the message that started the work waits for the work's first
    /// publish, `color` after a settings change, and leaves in its segment: sent alone before
    /// the store's commit, it cost a transmission on loopback and a wake-up of the broker on the
    /// way to the colour. Whatever is still queued when the work is done goes out before the
    /// thread sleeps, and acknowledgements of what was read here go at once, as before.
    private static func exchange(_ mosq: OpaquePointer, _ context: CallbackContext) {
        // Looked at every 100 µs at most, not with a `poll` after each of the fifteen-odd jobs of a
        // settings change; at once for work that lets a message read meanwhile go first.
        let now = DispatchTime.now().uptimeNanoseconds
        var readSome = false
        if EventLoop.betweenLooks || now &- context.lastLookedForInput.load(ordering: .relaxed) >= inputInterval {
            context.lastLookedForInput.store(now, ordering: .relaxed)
            readSome = read(mosq)
        }
        let own = context.queuedOwn.exchange(false, ordering: .relaxed)
        let socket = mosquitto_socket(mosq)
        guard socket >= 0, own || readSome, mosquitto_want_write(mosq) else { return }
        _ = write(mosq, context, socket: socket)
    }

    /// Nanoseconds between two looks for input between jobs.
    static let inputInterval: UInt64 = 100_000

    /// Reads what is there to read, at most ``readsBetweenJobs`` packets; returns whether it read any.
    private static func read(_ mosq: OpaquePointer) -> Bool {
        var reads = 0
        while readable(mosquitto_socket(mosq)) {
            guard reads < readsBetweenJobs else {
                // A storm: the loop thread takes the jobs, and this thread goes back to reading.
                EventLoop.helpEnough()
                break
            }
            guard mosquitto_loop_read(mosq, 1) == success else { break }
            reads += 1
        }
        return reads > 0
    }

    /// Whether `socket` has something to read now.
    private static func readable(_ socket: Int32) -> Bool {
        guard socket >= 0 else { return false }
        var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, 0) > 0 && descriptor.revents & Int16(POLLIN) != 0
    }

    /// Holds a TCP socket's partial segments (`TCP_CORK`) until uncorked; uncorking sends them
    /// at once. A socket that is not TCP refuses, and is written as it is.
    private static func cork(_ socket: Int32, _ on: Bool) {
        var value: Int32 = on ? 1 : 0
        _ = setsockopt(socket, Int32(IPPROTO_TCP), TCP_CORK, &value, socklen_t(MemoryLayout<Int32>.size))
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
