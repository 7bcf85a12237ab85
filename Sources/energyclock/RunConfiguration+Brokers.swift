import EnergyClockDomain
import MQTTClient

extension RunConfiguration {
    /// Most brokers `--mqtt-host` may list.
    static let maxBrokers = 16

    /// The brokers of `--mqtt-host`: one host, or several as `host[:port],…` (an IPv6 address in
    /// brackets when it has a port), each on `defaultPort` unless it names its own.
    static func brokers(_ options: ParsedOptions, defaultPort: Int) throws(UsageError) -> [MQTTBroker] {
        let origin = options.origin(BrokerOptions.host)
        let text = try options.value(BrokerOptions.host)
        let entries = text.split(separator: ",", omittingEmptySubsequences: false).map { String($0.trimmed) }
        guard entries.count <= maxBrokers else { throw UsageError("\(origin) lists \(entries.count) brokers; at most \(maxBrokers)") }
        var brokers: [MQTTBroker] = []
        for entry in entries {
            let broker = try broker(entry, defaultPort: defaultPort, origin: origin)
            guard !brokers.contains(broker) else { throw UsageError("\(origin) lists \(broker) twice") }
            brokers.append(broker)
        }
        return brokers
    }

    /// One entry: `host`, `host:port`, `[v6]`, `[v6]:port`, or a bare IPv6 address.
    private static func broker(_ entry: String, defaultPort: Int, origin: String) throws(UsageError) -> MQTTBroker {
        func refused(_ why: String) -> UsageError { UsageError("\(origin): \(Quote.json(entry)) \(why)") }
        guard !entry.isEmpty else { throw UsageError("\(origin) must not be empty, nor hold an empty entry") }
        guard !entry.unicodeScalars.contains(where: { $0.value < 0x21 || $0.value == 0x7F }) else {
            throw refused("holds a space or a control character")
        }
        var host = entry
        var portText: Substring?
        if entry.hasPrefix("[") {
            guard let close = entry.firstIndex(of: "]") else { throw refused("opens [ without closing it") }
            host = String(entry[entry.index(after: entry.startIndex)..<close])
            let rest = entry[entry.index(after: close)...]
            if !rest.isEmpty {
                guard rest.hasPrefix(":") else { throw refused("has something after ] that is not :port") }
                portText = rest.dropFirst()
            }
        } else if entry.filter({ $0 == ":" }).count == 1, let colon = entry.firstIndex(of: ":") {
            host = String(entry[..<colon])
            portText = entry[entry.index(after: colon)...]
        }
        guard !host.isEmpty, host.utf8.count <= 253 else { throw refused("has no host, or one longer than 253 bytes") }
        var port = defaultPort
        if let portText {
            guard let number = Int(portText), (1...65535).contains(number) else { throw refused("needs a port from 1 to 65535") }
            port = number
        }
        return MQTTBroker(host: host, port: port)
    }
}
