import EnergyClockCore

/// Home Assistant's discovery configs as retained messages, and the topics they own.
struct DiscoveryAnnouncer {
    let discovery: HADiscovery?
    let topics: TopicTree

    /// Every config to publish for prices in `unit`: the entities in `on` mode, empty payloads in `remove` mode.
    func messages(unit: String) -> [OutgoingMessage] {
        (discovery?.configs(topics, unit: unit) ?? []).map { OutgoingMessage($0.topic, $0.payload, retain: true) }
    }

    /// The config topics this daemon keeps retained: none unless discovery is on.
    var owned: Set<String> {
        discovery?.mode == .on ? Set(messages(unit: Settings.defaults.unit).map(\.topic)) : []
    }
}
