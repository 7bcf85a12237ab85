import EnergyClockCore

/// Everything the publisher shows of one profile: its topic tree, retained topics, Home Assistant
/// device, lights, clock pictures and line-protocol points, each deciding for itself.
struct ProfileView {
    /// The profile's name.
    let name: String
    /// Its topics: the daemon's own tree for the first profile, `<prefix>/<name>/…` for the others.
    let topics: TopicTree
    /// The newest snapshot of it.
    var latest: Snapshot?
    var retained: RetainedTopics
    var lights: LEDDriver
    var lineProtocol = LineProtocolOutput()
    let discovery: DiscoveryAnnouncer
    /// The price unit of the discovery configs last announced; they follow the currency setting.
    var announcedUnit: String?
    var clock: ClockOutput

    /// The view of the profile `name` under the daemon's tree `root`.
    init(name: String, root: TopicTree, options: PublisherOptions) {
        self.name = name
        let first = name == Profiles.firstName
        topics = first ? root : root.profile(name)
        retained = RetainedTopics(topics: topics, cheapestHours: options.cheapestHours)
        lights = LEDDriver(leds: options.leds(following: name), z2mBaseTopic: options.z2mBaseTopic)
        discovery = DiscoveryAnnouncer(discovery: options.discovery, topics: topics, root: root, profile: first ? nil : name)
        clock = ClockOutput(topics: topics, enabled: options.clockImage)
    }

    /// Every retained topic the view publishes now: its tree, its discovery configs and its pictures.
    var owned: Set<String> {
        (latest.map(retained.owned(for:)) ?? []).union(discovery.owned).union(clock.owned)
    }

    /// Forgets what the broker holds, so that everything goes out again.
    mutating func forget() {
        announcedUnit = nil
        clock.forget()
        retained.forget()
        lights.forget()
    }
}
