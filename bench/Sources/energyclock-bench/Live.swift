import Foundation
import MQTTClient

// Measurements against a running daemon and a real broker, each printed as one table row:
// | what | min | median | p99 | max | n |

/// Milliseconds since `start`.
func milliseconds(since start: ContinuousClock.Instant) -> Double {
    let elapsed = ContinuousClock.now - start
    return Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
}

/// One Markdown table row: min, median, p99 and max of `samples` (ms).
func row(_ name: String, _ samples: [Double]) {
    let sorted = samples.sorted()
    guard !sorted.isEmpty else { return print("| \(name) | – | – | – | – | 0 |") }
    func at(_ q: Double) -> String { String(format: "%.2f", sorted[min(sorted.count - 1, Int(Double(sorted.count - 1) * q + 0.5))]) }
    print("| \(name) | \(at(0)) | \(at(0.5)) | \(at(0.99)) | \(at(1)) | \(sorted.count) |")
}

/// A row's name: `name` for the daemon's own topics, followed by any other `prefix` it measured.
func labelled(_ name: String, _ prefix: String) -> String {
    prefix == "energyclock" ? name : "\(name), \(prefix)"
}

/// A started client, connected and subscribed to `filters`; its events stream on.
func connectedClient(port: Int, filters: [String], qos: Int32 = 1) async throws -> MQTTClient {
    let client = try MQTTClient(
        options: MQTTOptions(host: "127.0.0.1", port: port, clientID: "bench-\(getpid())-\(UUID().uuidString.prefix(6))"))
    client.start()
    for await event in client.events {
        if case .connected = event {
            for filter in filters { try client.subscribe(filter, qos: qos) }
            try await Task.sleep(for: .milliseconds(300))
            return client
        }
    }
    throw CancellationError()
}

/// The broker alone: a QoS 1 message to ourselves and back.
func echo(port: Int, count: Int) async throws {
    let client = try await connectedClient(port: port, filters: ["bench/echo"])
    var samples: [Double] = []
    var sentAt = ContinuousClock.now
    try client.publish("bench/echo", "0")
    for await event in client.events {
        guard case .message = event else { continue }
        samples.append(milliseconds(since: sentAt))
        if samples.count == count { break }
        sentAt = .now
        try client.publish("bench/echo", "\(samples.count)")
    }
    row("broker echo (QoS 1, loopback)", samples)
    await client.stop()
}

/// One 4 KiB write and fsync in `directory`, the cost of a durable settings save: back to back,
/// or `gap` milliseconds apart, as changes spaced by a person or an automation meet it. On a
/// virtual machine a sync after a pause costs more: the host's side of the disk has gone idle.
func fsyncCost(directory: String, count: Int, gap: Int = 0) {
    let path = directory + "/energyclock-bench-fsync"
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    defer {
        close(fd)
        unlink(path)
    }
    let block = [UInt8](repeating: 7, count: 4096)
    var samples: [Double] = []
    for _ in 0..<count {
        if gap > 0 { usleep(UInt32(gap * 1000)) }
        let start = ContinuousClock.now
        _ = block.withUnsafeBytes { pwrite(fd, $0.baseAddress, 4096, 0) }
        fsync(fd)
        samples.append(milliseconds(since: start))
    }
    row(gap > 0 ? "one fsync, \(gap) ms apart" : "one fsync on the store's file system", samples)
}

/// A settings change until the new retained band arrives: `green_max` moves across the price.
///
/// Back to back, each change is sent as soon as the last one's colour arrived, while the daemon
/// still sends that change's day payloads and answer; with a `gap` (milliseconds), each waits that
/// long first, as changes from a person or an automation do, and meets a daemon at rest.
///
/// With several `prefixes` (daemons side by side, each idle between its turns), the round trips
/// take turns, one daemon after the other, so that every daemon meets the same moments of a
/// noisy machine. Each row but that of `energyclock` alone names its prefix.
func colorRoundTrip(
    port: Int, count: Int, low: String, high: String, prefixes: [String] = ["energyclock"], gap: Int = 0
) async throws {
    let client = try await connectedClient(port: port, filters: prefixes.map { "\($0)/color" })
    var samples = [[Double]](repeating: [], count: prefixes.count)
    // Defaults put the price in green; the first change makes each one yellow.
    var wanted = [String](repeating: "yellow", count: prefixes.count)
    var turn = 0
    var sentAt = ContinuousClock.now
    try client.publish("\(prefixes[turn])/settings/green_max/set", low)
    for await event in client.events {
        guard case let .message(message) = event, message.topic == "\(prefixes[turn])/color", message.text == wanted[turn],
            !message.retain
        else { continue }
        samples[turn].append(milliseconds(since: sentAt))
        turn = (turn + 1) % prefixes.count
        if samples[turn].count == count { break }
        wanted[turn] = samples[turn].isEmpty ? "yellow" : wanted[turn] == "green" ? "yellow" : "green"
        if gap > 0 { try await Task.sleep(for: .milliseconds(gap)) }
        sentAt = .now
        try client.publish("\(prefixes[turn])/settings/green_max/set", wanted[turn] == "green" ? high : low)
    }
    for (prefix, samples) in zip(prefixes, samples) {
        let name =
            gap > 0
            ? "settings round trip, one change every \(gap) ms: publish → new retained color"
            : "settings round trip: publish → new retained color"
        row(prefixes.count > 1 ? "\(name), \(prefix) in turns" : labelled(name, prefix), Array(samples.dropFirst()))
    }
    await client.stop()
}

/// How late `<prefix>/price` arrives after each one-second slot boundary.
///
/// The first boundary after the subscription is not counted: this client, just connected, took
/// 17-185 ms to hand it on in six probes, while `mosquitto_sub`, subscribed at the same moment,
/// had it within a millisecond of the boundary.
func boundaryLag(port: Int, count: Int, prefix: String = "energyclock") async throws {
    let client = try await connectedClient(port: port, filters: ["\(prefix)/price"])
    var samples: [Double] = []
    for await event in client.events {
        guard case let .message(message) = event, !message.retain, !message.payload.isEmpty else { continue }
        let now = Date().timeIntervalSince1970
        samples.append((now - now.rounded(.down)) * 1000)
        if samples.count == count + 1 { break }
    }
    row(labelled("slot boundary → price at a subscriber (1 s slots)", prefix), Array(samples.dropFirst()))
    await client.stop()
}

/// A job's switch beside the price: the lag from each one-second boundary to `plan/<job>/active`
/// flipping, and to `price` at the same boundaries, until `count` flips have arrived.
func flipLag(port: Int, count: Int) async throws {
    let client = try await connectedClient(port: port, filters: ["energyclock/price", "energyclock/plan/+/active"])
    var prices: [Int: Double] = [:]
    var flips: [(second: Int, lag: Double)] = []
    // The window opens within a minute and lasts three; after five, what has arrived is reported.
    let timeout = Task {
        try await Task.sleep(for: .seconds(300))
        await client.stop()
    }
    defer { timeout.cancel() }
    for await event in client.events {
        guard case let .message(message) = event, !message.retain, !message.payload.isEmpty else { continue }
        let now = Date().timeIntervalSince1970
        let second = Int(now.rounded(.down))
        let lag = (now - now.rounded(.down)) * 1000
        if message.topic == "energyclock/price" { prices[second] = lag } else { flips.append((second, lag)) }
        if flips.count == count { break }
    }
    row("slot boundary → plan/<job>/active flipping (1 s slots)", flips.map(\.lag))
    row("slot boundary → price, at the same boundaries", flips.compactMap { prices[$0.second] })
    await client.stop()
}

/// `count` distinct settings updates as fast as they go; the time until the retained settings
/// hold the last one.
func storm(port: Int, count: Int) async throws {
    let client = try await connectedClient(port: port, filters: ["energyclock/settings"])
    let last = String(format: "%.6f", Double(count) / 1e6)
    let start = ContinuousClock.now
    for k in 1...count { try client.publish("energyclock/settings/surcharge/set", String(format: "%.6f", Double(k) / 1e6)) }
    var final = ""
    for await event in client.events {
        guard case let .message(message) = event else { continue }
        let text = message.text
        if text.contains("\"surcharge\":\(Double(last)!.description)") || text.contains("\"surcharge\":\(last)") {
            final = text
            break
        }
    }
    row("storm of \(count) settings updates: until the last one is published", [milliseconds(since: start)])
    print("storm final state holds the last update: \(!final.isEmpty)")
    await client.stop()
}

/// Prints when the first non-empty retained price arrives, in Unix milliseconds.
func firstPrice(port: Int) async throws {
    let client = try MQTTClient(options: MQTTOptions(host: "127.0.0.1", port: port, clientID: "bench-first-\(getpid())"))
    client.start()
    for await event in client.events {
        switch event {
        case .connected: try client.subscribe("energyclock/price")
        case let .message(message) where !message.payload.isEmpty:
            print(Int64(Date().timeIntervalSince1970 * 1000))
            await client.stop()
            return
        default: break
        }
    }
}
