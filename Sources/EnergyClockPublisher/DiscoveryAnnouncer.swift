import EnergyClockDomain

/// Home Assistant's discovery configs of one profile as retained messages, and the topics they own.
struct DiscoveryAnnouncer {
    let discovery: HADiscovery?
    let topics: TopicTree
    /// The daemon's own tree, whose `status` every profile's entities are available through.
    let root: TopicTree
    /// The profile's name, nil for the first profile.
    let profile: String?

    /// What the configs depend on besides the tree: the units and signal, the jobs' names, and whether
    /// a forecast provider is scored.
    struct Shape: Equatable {
        /// The unit of every value entity: the price's, or gCO₂/kWh for a `co2` profile.
        var unit: String
        /// The unit of the price settings' entities.
        var priceUnit: String
        /// What the profile shows.
        var signal: Signal
        /// The jobs, by name in order, each with entities of its own.
        var jobs: [String]
        /// Whether the profile has a `forecast_provider`, whose accuracy has entities of its own.
        var forecast: Bool

        /// The shape of a profile with `settings`.
        init(_ settings: Settings) {
            unit = settings.unit
            priceUnit = settings.priceUnit
            signal = settings.signal
            jobs = settings.jobs.keys.sorted()
            forecast = !settings.forecastProvider.isEmpty
        }
    }

    /// Every config to publish for `shape`: the entities in `on` mode, empty payloads in `remove`
    /// mode; after `before`, also empty configs for the entities it had and `shape` has not (a
    /// deleted job's), so that Home Assistant removes them.
    func messages(_ shape: Shape, replacing before: Shape? = nil) -> [OutgoingMessage] {
        let now = configs(shape)
        var messages = now.map { OutgoingMessage($0.topic, $0.payload, retain: true) }
        if let before, discovery?.mode == .on {
            let kept = Set(now.map(\.topic))
            messages += configs(before).map(\.topic).filter { !kept.contains($0) }.map { OutgoingMessage($0, "", retain: true) }
        }
        return messages
    }

    /// The config topics this daemon keeps retained for `shape`: none unless discovery is on.
    func owned(_ shape: Shape) -> Set<String> {
        discovery?.mode == .on ? Set(configs(shape).map(\.topic)) : []
    }

    private func configs(_ shape: Shape) -> [HADiscovery.Config] {
        discovery?.configs(
            topics, unit: shape.unit, priceUnit: shape.priceUnit, signal: shape.signal, availability: root.status, profile: profile,
            jobs: shape.jobs, forecast: shape.forecast) ?? []
    }
}
