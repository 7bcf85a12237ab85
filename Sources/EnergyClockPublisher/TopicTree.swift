import EnergyClockDomain

/// Every topic energyclock uses, under one configurable prefix.
package struct TopicTree: Sendable, Equatable {
    /// The prefix, e.g. `energyclock`, without a trailing slash.
    package let prefix: String
    /// The topics of the fixed leaves, made once for the tree: made at each use, a settings change
    /// cost some thirty string interpolations and allocations for its topics.
    private let fixed: FixedTopics

    /// A tree under `prefix`; a trailing slash is dropped.
    package init(prefix: String = "energyclock") {
        var trimmed = prefix
        while trimmed.hasSuffix("/") { trimmed.removeLast() }
        self.prefix = trimmed
        fixed = FixedTopics(prefix: trimmed)
    }

    /// Two trees are the same when their prefixes are.
    package static func == (a: TopicTree, b: TopicTree) -> Bool { a.prefix == b.prefix }

    /// A leaf of the tree with a fixed topic, named as ``TopicTree``'s property for it. Numbered,
    /// not spelt: a leaf spelt by its raw value was hashed by that text at every look-up.
    private enum Leaf: Int, CaseIterable {
        case profiles, reply, status, price, color, colorHex, colorRGB, thresholds, current, next, pricesToday, pricesTomorrow,
            pricesForecast
        case settings, stale, statsToday, statsTomorrow, forecastEVCC, forecastEMHASS, forecastEMHASSTimed, forecastAccuracy, events,
            clockPNG, clockSVG, influx
        case refresh, settingsResult, settingsSet, settingsFieldFilter

        /// Its topic under the prefix: its name, unless spelt otherwise here.
        var suffix: String {
            switch self {
            case .colorHex: "color/hex"
            case .colorRGB: "color/rgb"
            case .pricesToday: "prices/today"
            case .pricesTomorrow: "prices/tomorrow"
            case .pricesForecast: "prices/forecast"
            case .statsToday: "stats/today"
            case .statsTomorrow: "stats/tomorrow"
            case .forecastEVCC: "forecast/evcc"
            case .forecastEMHASS: "forecast/emhass"
            case .forecastEMHASSTimed: "forecast/emhass/timed"
            case .forecastAccuracy: "forecast/accuracy"
            case .clockPNG: "clock/png"
            case .clockSVG: "clock/svg"
            case .settingsResult: "settings/result"
            case .settingsSet: "settings/set"
            case .settingsFieldFilter: "settings/+/set"
            default: String(describing: self)
            }
        }
    }

    /// Every leaf's topic under one prefix, by the leaf's number.
    private final class FixedTopics: Sendable {
        let topics: [String]
        init(prefix: String) {
            topics = Leaf.allCases.map { TopicTree.topic($0.suffix, under: prefix) }
        }
        /// The topic of `leaf`; every leaf has one (see ``init(prefix:)``).
        subscript(leaf: Leaf) -> String { topics[leaf.rawValue] }
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

    func topic(_ suffix: String) -> String { Self.topic(suffix, under: prefix) }

    /// `suffix` under `prefix`: every topic of a tree is made here.
    private static func topic(_ suffix: String, under prefix: String) -> String { "\(prefix)/\(suffix)" }

    /// The tree of the profile `name`: the same leaves under `<prefix>/<name>`.
    package func profile(_ name: String) -> TopicTree { TopicTree(prefix: topic(name)) }

    /// The first level of every topic the first profile's tree uses, and the words kept for later
    /// parts of the tree: no profile may take one as its name, or its topics would mix with them.
    package static let leaves: Set<String> = [
        "status", "price", "color", "thresholds", "current", "next", "prices", "settings", "stale", "stats", "cheapest",
        "clock", "influx", "refresh", "reply", "profiles", "plan", "plans", "led", "leds", "forecast", "events",
    ]

    /// The retained list of profiles: every profile's effective settings by name, JSON.
    package var profiles: String { fixed[.profiles] }

    /// Where MQTT 5 requesters may ask for answers by default: `<prefix>/reply/…`; the daemon
    /// publishes nothing of its own there.
    package var reply: String { fixed[.reply] }

    /// `online`, or the Last Will `offline`.
    package var status: String { fixed[.status] }
    /// Current consumer price.
    package var price: String { fixed[.price] }
    /// Current band name.
    package var color: String { fixed[.color] }
    /// Current band as `#RRGGBB`.
    package var colorHex: String { fixed[.colorHex] }
    /// Current band as `r,g,b`.
    package var colorRGB: String { fixed[.colorRGB] }
    /// Thresholds in force, JSON.
    package var thresholds: String { fixed[.thresholds] }
    /// The current slot, JSON.
    package var current: String { fixed[.current] }
    /// The next slot, JSON.
    package var next: String { fixed[.next] }
    /// Today's slots, JSON array.
    package var pricesToday: String { fixed[.pricesToday] }
    /// Tomorrow's slots, JSON array.
    package var pricesTomorrow: String { fixed[.pricesTomorrow] }
    /// The forecast where no official price is yet, JSON array.
    package var pricesForecast: String { fixed[.pricesForecast] }
    /// Effective settings, JSON.
    package var settings: String { fixed[.settings] }
    /// `true` while the last fetch failed, else `false`.
    package var stale: String { fixed[.stale] }
    /// Statistics of today's slots, JSON.
    package var statsToday: String { fixed[.statsToday] }
    /// Statistics of tomorrow's slots, JSON.
    package var statsTomorrow: String { fixed[.statsTomorrow] }
    /// The cheapest window of `hours` hours, JSON.
    package func cheapest(hours: Int) -> String { topic("cheapest/\(hours)h") }
    /// The plan of the job `name`, JSON.
    package func plan(_ name: String) -> String { topic("plan/\(name)") }
    /// `ON` while the job `name` should run, else `OFF`.
    package func planActive(_ name: String) -> String { topic("plan/\(name)/active") }
    /// The prices from now on as evcc's custom tariff forecast, JSON.
    package var forecastEVCC: String { fixed[.forecastEVCC] }
    /// The prices from now on as EMHASS's runtime forecasts, JSON lists.
    package var forecastEMHASS: String { fixed[.forecastEMHASS] }
    /// The same, each value keyed by the time of its step, JSON.
    package var forecastEMHASSTimed: String { fixed[.forecastEMHASSTimed] }
    /// How the profile's forecast providers have fared, JSON.
    package var forecastAccuracy: String { fixed[.forecastAccuracy] }
    /// Events such as tomorrow's prices arriving (not retained).
    package var events: String { fixed[.events] }
    /// The clock as a PNG image.
    package var clockPNG: String { fixed[.clockPNG] }
    /// The clock as an SVG document.
    package var clockSVG: String { fixed[.clockSVG] }
    /// InfluxDB line protocol (not retained).
    package var influx: String { fixed[.influx] }
    /// Takes any payload: fetch prices now.
    package var refresh: String { fixed[.refresh] }
    /// Answers to settings requests (not retained).
    package var settingsResult: String { fixed[.settingsResult] }
    /// Takes a JSON object of settings fields.
    package var settingsSet: String { fixed[.settingsSet] }
    /// Takes a plain value for one field.
    package func settingsSet(_ field: SettingsField) -> String { topic("settings/\(field.rawValue)/set") }
    /// The subscription that covers every per-field set topic.
    package var settingsFieldFilter: String { fixed[.settingsFieldFilter] }

    /// Every filter energyclock subscribes to under its prefix: the first profile's commands, and
    /// those of every other profile one level down.
    package var subscriptions: [String] {
        [settingsSet, settingsFieldFilter, refresh, topic("+/settings/set"), topic("+/settings/+/set"), topic("+/refresh")]
    }

    /// The filters of every state topic the daemon publishes under its prefix, the first profile's
    /// and one level down for the others: what it watches for other clients' writes. None of
    /// them matches a command topic, so no command ever arrives twice.
    package var stateFilters: [String] {
        let leaves = [
            "price", "color", "color/+", "thresholds", "current", "next", "prices/+", "settings", "stale", "stats/+", "cheapest/+",
            "forecast/evcc", "forecast/emhass", "forecast/emhass/timed", "clock/+", "plan/+", "plan/+/active",
        ]
        return [status, profiles] + leaves.map(topic) + leaves.map { topic("+/" + $0) }
    }

    /// The profile `topic` is a command of, and the command's topic as it would be in the first
    /// profile's tree: `<prefix>/export/settings/set` is `export`'s `<prefix>/settings/set`. A
    /// topic of the first profile's tree is the first profile's.
    ///
    /// Topics are compared by their bytes, as a broker matches them.
    package func addressee(of topic: String) -> (profile: String, topic: String) {
        let split = within(topic) { rest -> (String, String)? in
            guard let slash = rest.firstIndex(of: UInt8(ascii: "/")) else { return nil }
            return (String(decoding: rest[..<slash], as: UTF8.self), String(decoding: rest[(slash + 1)...], as: UTF8.self))
        }
        guard let (name, leaf) = split, !Self.leaves.contains(name) else { return (Profiles.firstName, topic) }
        return (name, self.topic(leaf))
    }

    /// The first level of `topic` when that is one of ``leaves`` and a settings command follows
    /// it (`<prefix>/price/settings/set`): a command to a profile no profile can be called, which
    /// is answered, not ignored.
    /// Returns the name and the command's topic as it would be in the first profile's tree.
    package func reservedProfile(of topic: String) -> (profile: String, topic: String)? {
        within(topic) { rest -> (String, String)? in
            guard let slash = rest.firstIndex(of: UInt8(ascii: "/")) else { return nil }
            let name = String(decoding: rest[..<slash], as: UTF8.self)
            let command = self.topic(String(decoding: rest[(slash + 1)...], as: UTF8.self))
            guard Self.leaves.contains(name), settingsCommand(command) != nil else { return nil }
            return (name, command)
        }
    }

    /// Which settings command `topic` is, if any.
    package func settingsCommand(_ topic: String) -> SettingsCommand? {
        within(topic) { rest -> SettingsCommand? in
            guard let fields = Self.level(rest, after: "settings") else { return nil }
            if fields.elementsEqual("set".utf8) { return .object }
            // `settings//set` is a command for the field "", which is answered as unknown like any other.
            guard fields.count >= 4, fields.suffix(4).elementsEqual("/set".utf8) else { return nil }
            let name = fields.dropLast(4)
            guard !name.contains(UInt8(ascii: "/")) else { return nil }
            return .field(String(decoding: name, as: UTF8.self))
        }
    }

    /// `body` of the bytes after the prefix and a slash in `topic`, or nil when `topic` does not
    /// start so. Bytes lent in place: a `String`'s own views index through Unicode-aware code.
    private func within<Result>(_ topic: String, _ body: (UnsafeRawBufferPointer) -> Result?) -> Result? {
        var topic = topic
        var prefix = prefix
        return topic.withUTF8 { bytes in
            prefix.withUTF8 { head in Self.level(UnsafeRawBufferPointer(bytes), after: UnsafeRawBufferPointer(head)).flatMap(body) }
        }
    }

    /// What follows `head` and a slash in `topic`, or nil when `topic` does not start so.
    private static func level(_ topic: UnsafeRawBufferPointer, after head: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer? {
        guard topic.count > head.count, topic[head.count] == UInt8(ascii: "/"), topic.prefix(head.count).elementsEqual(head) else {
            return nil
        }
        return UnsafeRawBufferPointer(rebasing: topic[(head.count + 1)...])
    }

    /// ``level(_:after:)`` for a fixed level.
    private static func level(_ topic: UnsafeRawBufferPointer, after head: StaticString) -> UnsafeRawBufferPointer? {
        head.withUTF8Buffer { level(topic, after: UnsafeRawBufferPointer($0)) }
    }

    /// The two shapes of settings command.
    package enum SettingsCommand: Sendable, Equatable {
        /// `settings/set`: a JSON object.
        case object
        /// `settings/<field>/set`: one plain value.
        case field(String)
    }
}
