import Foundation
import MQTTClient

/// The price topic of every profile of a many-profile daemon: the first and `energyclock/pNN`.
func profileNames(_ count: Int) -> [String] { ["default"] + (1..<count).map { String(format: "p%02d", $0) } }

func priceTopic(_ profile: String, prefix: String = "energyclock") -> String {
    profile == "default" ? "\(prefix)/price" : "\(prefix)/\(profile)/price"
}

/// Waits until every topic matching `filters` that is wanted (`count` of them) holds a price;
/// prints the milliseconds since this command started.
func allPrices(port: Int, count: Int, filters: [String]) async throws {
    let start = ContinuousClock.now
    let client = try await connectedClient(port: port, filters: filters)
    var seen: Set<String> = []
    for await event in client.events {
        guard case let .message(message) = event, message.topic.hasSuffix("/price"), !message.payload.isEmpty else { continue }
        seen.insert(message.topic)
        if seen.count == count { break }
    }
    print(String(format: "%.0f", milliseconds(since: start)))
    await client.stop()
}

/// How late the last of `profiles` prices arrives after each one-second slot boundary, at a
/// QoS 0 subscriber (as Home Assistant subscribes).
func lastProfileLag(port: Int, count: Int, profiles: Int) async throws {
    let client = try await connectedClient(port: port, filters: ["energyclock/price", "energyclock/+/price"], qos: 0)
    let samples = await lastArrivals(client, count: count, of: profiles)
    row("slot boundary → price of the last of \(profiles) profiles (1 s slots)", samples)
    await client.stop()
}

/// The same burst without energyclock: at each whole second a plain client publishes `size`
/// retained QoS 1 messages back to back, and a QoS 0 subscriber times the last of them. What the
/// broker and the machine cost alone, for the figure above.
func brokerBurst(port: Int, count: Int, size: Int) async throws {
    let subscriber = try await connectedClient(port: port, filters: ["burst/+/price"], qos: 0)
    let publisher = try await connectedClient(port: port, filters: [])
    let sender = Task {
        for _ in 0..<(count + 2) {
            let now = Date().timeIntervalSince1970
            try await Task.sleep(for: .seconds(now.rounded(.down) + 1 - now), tolerance: .zero)
            for i in 0..<size { try publisher.publish("burst/\(i)/price", "0.0484", retain: true) }
        }
    }
    let samples = await lastArrivals(subscriber, count: count, of: size)
    sender.cancel()
    row("the same burst from a plain client: \(size) retained QoS 1 messages at each second", samples)
    await subscriber.stop()
    await publisher.stop()
}

/// Per whole second, how many milliseconds after it the last of `topics` distinct topics arrived;
/// `count` seconds in which all came.
func lastArrivals(_ client: MQTTClient, count: Int, of topics: Int) async -> [Double] {
    var bySecond: [Int: (topics: Set<String>, latest: Double)] = [:]
    var samples: [Double] = []
    for await event in client.events {
        guard case let .message(message) = event, !message.retain, !message.payload.isEmpty else { continue }
        let now = Date().timeIntervalSince1970
        let second = Int(now.rounded(.down))
        var entry = bySecond[second] ?? ([], 0)
        entry.topics.insert(message.topic)
        entry.latest = max(entry.latest, (now - Double(second)) * 1000)
        bySecond[second] = entry
        if entry.topics.count == topics {
            samples.append(entry.latest)
            bySecond[second] = nil
            if samples.count == count { break }
        }
    }
    return samples
}

/// `count` settings updates spread over `profiles` profiles as fast as they go; the time until
/// every profile's retained settings hold its last one.
func profileStorm(port: Int, count: Int, profiles: Int) async throws {
    let names = profileNames(profiles)
    let settings = names.map { $0 == "default" ? "energyclock/settings" : "energyclock/\($0)/settings" }
    let client = try await connectedClient(port: port, filters: ["energyclock/settings", "energyclock/+/settings"])
    var last: [String: String] = [:]
    let start = ContinuousClock.now
    for k in 1...count {
        let i = k % profiles
        let value = String(format: "%.6f", Double(k) / 1e6)
        last[settings[i]] = "\"surcharge\":\(Double(value)!.description)"
        try client.publish("\(settings[i])/surcharge/set", value)
    }
    var done: Set<String> = []
    for await event in client.events {
        guard case let .message(message) = event, let wanted = last[message.topic], message.text.contains(wanted) else { continue }
        done.insert(message.topic)
        if done.count == last.count { break }
    }
    row("storm of \(count) settings updates over \(profiles) profiles: until every last one is published", [milliseconds(since: start)])
    await client.stop()
}
