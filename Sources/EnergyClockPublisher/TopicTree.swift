import EnergyClockCore

/// Every topic energyclock uses, under one configurable prefix.
public struct TopicTree: Sendable, Equatable {
    /// The prefix, e.g. `energyclock`, without a trailing slash.
    public let prefix: String

    /// A tree under `prefix`; a trailing slash is dropped.
    public init(prefix: String = "energyclock") {
        var trimmed = prefix
        while trimmed.hasSuffix("/") { trimmed.removeLast() }
        self.prefix = trimmed
    }

    /// Whether `prefix` is usable: non-empty, with no wildcard or NUL.
    public static func isValidPrefix(_ prefix: String) -> Bool {
        !prefix.isEmpty && !prefix.contains("+") && !prefix.contains("#") && !prefix.contains("\0")
    }

    func topic(_ suffix: String) -> String { "\(prefix)/\(suffix)" }

    /// `online`, or the Last Will `offline`.
    public var status: String { topic("status") }
    /// Current consumer price.
    public var price: String { topic("price") }
    /// Current band name.
    public var color: String { topic("color") }
    /// Current band as `#RRGGBB`.
    public var colorHex: String { topic("color/hex") }
    /// Current band as `r,g,b`.
    public var colorRGB: String { topic("color/rgb") }
    /// Thresholds in force, JSON.
    public var thresholds: String { topic("thresholds") }
    /// The current slot, JSON.
    public var current: String { topic("current") }
    /// The next slot, JSON.
    public var next: String { topic("next") }
    /// Today's slots, JSON array.
    public var pricesToday: String { topic("prices/today") }
    /// Tomorrow's slots, JSON array.
    public var pricesTomorrow: String { topic("prices/tomorrow") }
    /// Effective settings, JSON.
    public var settings: String { topic("settings") }
    /// `true` while the last fetch failed, else `false`.
    public var stale: String { topic("stale") }
    /// Statistics of today's slots, JSON.
    public var statsToday: String { topic("stats/today") }
    /// Statistics of tomorrow's slots, JSON.
    public var statsTomorrow: String { topic("stats/tomorrow") }
    /// The cheapest window of `hours` hours, JSON.
    public func cheapest(hours: Int) -> String { topic("cheapest/\(hours)h") }
    /// InfluxDB line protocol (not retained).
    public var influx: String { topic("influx") }
    /// Takes any payload: fetch prices now.
    public var refresh: String { topic("refresh") }
    /// Answers to settings requests (not retained).
    public var settingsResult: String { topic("settings/result") }
    /// Takes a JSON object of settings fields.
    public var settingsSet: String { topic("settings/set") }
    /// Takes a plain value for one field.
    public func settingsSet(_ field: SettingsField) -> String { topic("settings/\(field.rawValue)/set") }
    /// The subscription that covers every per-field set topic.
    public var settingsFieldFilter: String { topic("settings/+/set") }

    /// Every filter energyclock subscribes to under its prefix.
    public var subscriptions: [String] { [settingsSet, settingsFieldFilter, refresh] }

    /// Which settings command `topic` is, if any.
    public func settingsCommand(_ topic: String) -> SettingsCommand? {
        if topic == settingsSet { return .object }
        let head = self.topic("settings/")
        guard topic.hasPrefix(head), topic.hasSuffix("/set") else { return nil }
        let name = topic.dropFirst(head.count).dropLast(4)
        // `settings//set` is a command for the field "", which is answered as unknown like any other.
        guard topic.utf8.count >= head.utf8.count + 4, !name.contains("/") else { return nil }
        return .field(String(name))
    }

    /// The two shapes of settings command.
    public enum SettingsCommand: Sendable, Equatable {
        /// `settings/set`: a JSON object.
        case object
        /// `settings/<field>/set`: one plain value.
        case field(String)
    }
}
