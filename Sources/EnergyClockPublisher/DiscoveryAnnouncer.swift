import EnergyClockCore

/// Home Assistant's discovery configs of one profile as retained messages, and the topics they own.
struct DiscoveryAnnouncer {
    let discovery: HADiscovery?
    let topics: TopicTree
    /// The daemon's own tree, whose `status` every profile's entities are available through.
    let root: TopicTree
    /// The profile's name, nil for the first profile.
    let profile: String?

    /// Every config to publish for prices in `unit`: the entities in `on` mode, empty payloads in `remove` mode.
    func messages(unit: String) -> [OutgoingMessage] {
        configs(unit: unit).map { OutgoingMessage($0.topic, $0.payload, retain: true) }
    }

    /// Empty configs for every entity, so that Home Assistant removes the profile's device.
    func removals() -> [OutgoingMessage] {
        guard discovery?.mode == .on else { return [] }
        return configs(unit: Settings.defaults.unit).map { OutgoingMessage($0.topic, "", retain: true) }
    }

    /// The config topics this daemon keeps retained: none unless discovery is on.
    var owned: Set<String> {
        discovery?.mode == .on ? Set(configs(unit: Settings.defaults.unit).map(\.topic)) : []
    }

    private func configs(unit: String) -> [HADiscovery.Config] {
        discovery?.configs(topics, unit: unit, availability: root.status, profile: profile) ?? []
    }
}
