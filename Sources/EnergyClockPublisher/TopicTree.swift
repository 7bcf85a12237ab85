import EnergyClockCore

/// Every topic energyclock uses, under one configurable prefix.
package struct TopicTree: Sendable, Equatable {
    /// The prefix, e.g. `energyclock`, without a trailing slash.
    package let prefix: String

    /// A tree under `prefix`; a trailing slash is dropped.
    package init(prefix: String = "energyclock") {
        var trimmed = prefix
        while trimmed.hasSuffix("/") { trimmed.removeLast() }
        self.prefix = trimmed
    }

    /// Why `prefix` cannot root a topic tree, or nil when it can: it must be a topic a client may
    /// publish to, with no wildcard or NUL, no empty level (`/`, `a//b`), not `$SYS/…` or
    /// `$share/…` (topics starting with `$` belong to the broker), and at most 200 bytes.
    package static func problem(withPrefix prefix: String) -> String? {
        var trimmed = Substring(prefix)
        while trimmed.hasSuffix("/") { trimmed.removeLast() }
        if trimmed.isEmpty { return "it is empty" }
        if trimmed.utf8.count > 200 { return "it is longer than 200 bytes" }
        if trimmed.contains("+") || trimmed.contains("#") { return "it holds a wildcard (+ or #)" }
        if trimmed.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) { return "it holds a control character" }
        if trimmed.hasPrefix("$") { return "topics starting with $ belong to the broker" }
        if trimmed.split(separator: "/", omittingEmptySubsequences: false).contains(where: \.isEmpty) {
            return "it has an empty level"
        }
        return nil
    }

    func topic(_ suffix: String) -> String { "\(prefix)/\(suffix)" }

    /// The tree of the profile `name`: the same leaves under `<prefix>/<name>`.
    package func profile(_ name: String) -> TopicTree { TopicTree(prefix: topic(name)) }

    /// The first level of every topic the first profile's tree uses, and the words kept for later
    /// parts of the tree: no profile may take one as its name, or its topics would mix with them.
    package static let leaves: Set<String> = [
        "status", "price", "color", "thresholds", "current", "next", "prices", "settings", "stale", "stats", "cheapest",
        "clock", "influx", "refresh", "reply", "profiles", "plan", "plans", "led", "leds", "forecast", "events",
    ]

    /// The retained list of profiles: every profile's effective settings by name, JSON.
    package var profiles: String { topic("profiles") }

    /// Where MQTT 5 requesters may ask for answers by default: `<prefix>/reply/…`; the daemon
    /// publishes nothing of its own there.
    package var reply: String { topic("reply") }

    /// `online`, or the Last Will `offline`.
    package var status: String { topic("status") }
    /// Current consumer price.
    package var price: String { topic("price") }
    /// Current band name.
    package var color: String { topic("color") }
    /// Current band as `#RRGGBB`.
    package var colorHex: String { topic("color/hex") }
    /// Current band as `r,g,b`.
    package var colorRGB: String { topic("color/rgb") }
    /// Thresholds in force, JSON.
    package var thresholds: String { topic("thresholds") }
    /// The current slot, JSON.
    package var current: String { topic("current") }
    /// The next slot, JSON.
    package var next: String { topic("next") }
    /// Today's slots, JSON array.
    package var pricesToday: String { topic("prices/today") }
    /// Tomorrow's slots, JSON array.
    package var pricesTomorrow: String { topic("prices/tomorrow") }
    /// Effective settings, JSON.
    package var settings: String { topic("settings") }
    /// `true` while the last fetch failed, else `false`.
    package var stale: String { topic("stale") }
    /// Statistics of today's slots, JSON.
    package var statsToday: String { topic("stats/today") }
    /// Statistics of tomorrow's slots, JSON.
    package var statsTomorrow: String { topic("stats/tomorrow") }
    /// The cheapest window of `hours` hours, JSON.
    package func cheapest(hours: Int) -> String { topic("cheapest/\(hours)h") }
    /// The plan of the job `name`, JSON.
    package func plan(_ name: String) -> String { topic("plan/\(name)") }
    /// `ON` while the job `name` should run, else `OFF`.
    package func planActive(_ name: String) -> String { topic("plan/\(name)/active") }
    /// The prices from now on as evcc's custom tariff forecast, JSON.
    package var forecastEVCC: String { topic("forecast/evcc") }
    /// The prices from now on as EMHASS's runtime forecasts, JSON.
    package var forecastEMHASS: String { topic("forecast/emhass") }
    /// Events such as tomorrow's prices arriving (not retained).
    package var events: String { topic("events") }
    /// The clock as a PNG image.
    package var clockPNG: String { topic("clock/png") }
    /// The clock as an SVG document.
    package var clockSVG: String { topic("clock/svg") }
    /// InfluxDB line protocol (not retained).
    package var influx: String { topic("influx") }
    /// Takes any payload: fetch prices now.
    package var refresh: String { topic("refresh") }
    /// Answers to settings requests (not retained).
    package var settingsResult: String { topic("settings/result") }
    /// Takes a JSON object of settings fields.
    package var settingsSet: String { topic("settings/set") }
    /// Takes a plain value for one field.
    package func settingsSet(_ field: SettingsField) -> String { topic("settings/\(field.rawValue)/set") }
    /// The subscription that covers every per-field set topic.
    package var settingsFieldFilter: String { topic("settings/+/set") }

    /// Every filter energyclock subscribes to under its prefix: the first profile's commands, and
    /// those of every other profile one level down.
    package var subscriptions: [String] {
        [settingsSet, settingsFieldFilter, refresh, topic("+/settings/set"), topic("+/settings/+/set"), topic("+/refresh")]
    }

    /// The profile `topic` is a command of, and the command's topic as it would be in the first
    /// profile's tree: `<prefix>/export/settings/set` is `export`'s `<prefix>/settings/set`. A
    /// topic of the first profile's tree is the first profile's.
    package func addressee(of topic: String) -> (profile: String, topic: String) {
        let head = self.topic("")
        guard topic.hasPrefix(head) else { return (Profiles.firstName, topic) }
        let rest = topic.dropFirst(head.count)
        guard let slash = rest.firstIndex(of: "/") else { return (Profiles.firstName, topic) }
        let name = String(rest[..<slash])
        guard !Self.leaves.contains(name) else { return (Profiles.firstName, topic) }
        return (name, head + rest[rest.index(after: slash)...])
    }

    /// Which settings command `topic` is, if any.
    package func settingsCommand(_ topic: String) -> SettingsCommand? {
        if topic == settingsSet { return .object }
        let head = self.topic("settings/")
        guard topic.hasPrefix(head), topic.hasSuffix("/set") else { return nil }
        let name = topic.dropFirst(head.count).dropLast(4)
        // `settings//set` is a command for the field "", which is answered as unknown like any other.
        guard topic.utf8.count >= head.utf8.count + 4, !name.contains("/") else { return nil }
        return .field(String(name))
    }

    /// The two shapes of settings command.
    package enum SettingsCommand: Sendable, Equatable {
        /// `settings/set`: a JSON object.
        case object
        /// `settings/<field>/set`: one plain value.
        case field(String)
    }
}
