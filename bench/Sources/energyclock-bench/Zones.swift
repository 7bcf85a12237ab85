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

/// How late the last of `profiles` prices arrives after each one-second slot boundary.
func lastProfileLag(port: Int, count: Int, profiles: Int) async throws {
    let client = try await connectedClient(port: port, filters: ["energyclock/price", "energyclock/+/price"])
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
        if entry.topics.count == profiles {
            samples.append(entry.latest)
            bySecond[second] = nil
            if samples.count == count { break }
        }
    }
    row("slot boundary → price of the last of \(profiles) profiles (1 s slots)", samples)
    await client.stop()
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
