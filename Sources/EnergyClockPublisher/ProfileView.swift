import EnergyClockDomain

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
    /// The shape of the discovery configs the broker holds; they follow the currency and the jobs.
    var announced: DiscoveryAnnouncer.Shape?
    /// The shape last announced on any connection: what a new shape's removed entities are cleared from.
    var lastAnnounced: DiscoveryAnnouncer.Shape?
    var clock: ClockOutput
    /// The last day whose complete prices were announced (or found at start), `.some(nil)` for
    /// none yet; nil before the first snapshot: the prices a start finds in its cache are no news.
    var tomorrowAnnounced: LocalDay??

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

    /// The `tomorrow_known` event when `snapshot` is the first to hold all of a new day's prices;
    /// a day is announced once, however often its prices come and go (a missing exchange rate).
    mutating func tomorrowEvent(for snapshot: Snapshot, cheapestHours: [Int]) -> OutgoingMessage? {
        let day = snapshot.tomorrowValid ? snapshot.tomorrow.first.map { snapshot.calendar.day(containing: $0.slot.start) } : nil
        guard let before = tomorrowAnnounced else {
            tomorrowAnnounced = .some(day)
            return nil
        }
        guard let day, day != before, let payload = Payloads.tomorrowKnown(snapshot, cheapestHours: cheapestHours) else { return nil }
        tomorrowAnnounced = .some(day)
        return OutgoingMessage(topics.events, payload, retain: false)
    }

    /// The newest settings, and their JSON as published from the memo; a mutating call, so that
    /// a loop over many profiles reaches each view in place.
    mutating func shownSettings() -> (value: Settings, json: String)? {
        guard let settings = latest?.settings else { return nil }
        return (settings, retained.settingsJSON(settings))
    }

    /// The `forecast_step` of an export profile, nil for an import one.
    mutating func exportStep() -> Int? {
        guard let settings = latest?.settings, settings.kind == .export else { return nil }
        return settings.forecastStep
    }

    /// `forecast/emhass` alone, when the first profile's `importCosts` in it changed.
    mutating func forecastChange(importCosts: [Double]?) -> [OutgoingMessage] {
        guard let latest else { return [] }
        return retained.forecastChange(of: latest, importCosts: importCosts)
    }

    /// Every retained topic the view publishes now: its tree, its discovery configs and its pictures.
    var owned: Set<String> {
        (latest.map(retained.owned(for:)) ?? []).union(discovery.owned(discoveryShape)).union(clock.owned)
    }

    /// What the discovery configs depend on, from the newest snapshot.
    var discoveryShape: DiscoveryAnnouncer.Shape {
        DiscoveryAnnouncer.Shape(latest?.settings ?? .defaults)
    }

    /// Forgets what the broker holds, so that everything goes out again.
    mutating func forget() {
        announced = nil
        clock.forget()
        retained.forget()
        lights.forget()
    }
}
