import EnergyClockDomain

/// Home Assistant MQTT discovery: one retained config per entity, all on one device.
package struct HADiscovery: Sendable {
    /// Publish configs, remove the entities with empty configs, or leave discovery alone.
    package enum Mode: String, Sendable, CaseIterable {
        /// Publish every config.
        case on = "true"
        /// Publish nothing.
        case off = "false"
        /// Publish empty configs once, so Home Assistant removes the entities.
        case remove
    }

    /// The discovery prefix, `homeassistant` by default.
    package var prefix: String
    /// What to do.
    package var mode: Mode
    /// Source ids offered by the `source` select.
    package var sources: [String]
    /// Whether the clock picture is published, and so announced as an image entity.
    package var clockImage: Bool

    /// Discovery under `prefix`.
    package init(prefix: String = "homeassistant", mode: Mode = .on, sources: [String], clockImage: Bool = true) {
        self.prefix = prefix
        self.mode = mode
        self.sources = sources
        self.clockImage = clockImage
    }

    /// Where Home Assistant announces that it (re)started.
    package var statusTopic: String { "\(prefix)/status" }

    /// One entity's config topic and payload.
    package struct Config: Sendable, Equatable {
        /// `<prefix>/<component>/<node_id>/<object_id>/config`.
        package var topic: String
        /// The JSON config.
        package var payload: String
    }

    /// The node id: the topic prefix with every character outside `[a-zA-Z0-9_-]` made `_`.
    package static func nodeID(_ topics: TopicTree) -> String {
        String(topics.prefix.map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") ? $0 : "_" })
    }

    /// The device's name on the dashboard: `energyclock`, `energyclock <node>` under another
    /// prefix, and the profile's name after it for a profile other than the first.
    static func deviceName(node: String, profile: String?) -> String {
        let rootNode = profile.map { String(node.dropLast($0.count + 1)) } ?? node
        let name = rootNode == "energyclock" ? "energyclock" : "energyclock \(rootNode)"
        return profile.map { "\(name) \($0)" } ?? name
    }

    /// Every entity's config for `topics`, prices in `unit`, with five entities for each of `jobs`
    /// and two for the accuracy of a `forecast` provider; empty payloads in `remove` mode.
    ///
    /// A profile other than the first (`profile`, with `topics` its own tree) is a device of its
    /// own, available through the daemon's `availability` topic.
    ///
    /// A `co2` profile (`signal`) names its value sensors after the intensity, in `unit`
    /// (gCO₂/kWh), while its price settings keep `priceUnit`; a `grid` profile's show the step,
    /// without a unit, beside a "Grid state" sensor with the operator's name for it.
    package func configs(
        _ topics: TopicTree, unit: String = Settings.defaults.unit, priceUnit: String? = nil, signal: Signal = .price,
        availability: String? = nil, profile: String? = nil, jobs: [String] = [], forecast: Bool = false
    ) -> [Config] {
        guard mode != .off else { return [] }
        let node = Self.nodeID(topics)
        let none = "None"  // Home Assistant's "unknown" for a rendered template.
        var entities: [Entity] = []
        func sensor(_ object: String, _ name: String, _ topic: String, _ template: String, _ extra: [(String, Field)] = []) {
            entities.append(
                Entity(
                    "sensor", object, [("name", .text(name)), ("state_topic", .text(topic)), ("value_template", .text(template))] + extra))
        }
        let (name, nextName, icon) =
            switch signal {
            case .price: ("Price", "Next price", "mdi:currency-eur")
            case .co2: ("Carbon intensity", "Next intensity", "mdi:molecule-co2")
            case .grid: ("Grid signal", "Next signal", "mdi:transmission-tower")
            }
        let euro: [(String, Field)] =
            (signal == .grid ? [] : [("unit_of_measurement", .text(unit))]) + [
                ("state_class", .text("measurement")), ("suggested_display_precision", .integer(signal == .price ? 4 : 0)),
            ]
        sensor(
            "price", name, topics.price, "{{ value if value else \(none) }}",
            euro + [("json_attributes_topic", .text(topics.statsToday)), ("icon", .text(icon))])
        if signal == .grid {
            sensor(
                "grid_state", "Grid state", topics.current, "{{ value_json.level if value and value_json.level is defined else \(none) }}",
                [("device_class", .text("enum")), ("options", .list(GridScale.names)), ("icon", .text("mdi:traffic-light"))])
        }
        sensor(
            "band", "Band", topics.color, "{{ value if value else \(none) }}",
            [("device_class", .text("enum")), ("options", .list(Band.allCases.map(\.rawValue))), ("icon", .text("mdi:palette"))])
        sensor("next_price", nextName, topics.next, "{{ value_json.price if value else \(none) }}", euro)
        for (object, name, key) in [
            ("today_min", "Today's minimum", "min"), ("today_max", "Today's maximum", "max"),
            ("today_average", "Today's average", "mean"),
        ] {
            sensor(object, name, topics.statsToday, "{{ value_json.\(key) if value_json.\(key) is defined else \(none) }}", euro)
        }
        for (object, name, key) in [
            ("cheapest_start", "Cheapest slot today", "cheapest"), ("dearest_start", "Most expensive slot today", "most_expensive"),
        ] {
            sensor(
                object, name, topics.statsToday, "{{ value_json.\(key).start if value_json.\(key) is defined else \(none) }}",
                [("device_class", .text("timestamp"))])
        }
        if forecast {
            let diagnostic: (String, Field) = ("entity_category", .text("diagnostic"))
            sensor(
                "forecast_error", "Forecast error (30 days)", topics.forecastAccuracy,
                "{{ value_json.mae if value_json.mae is not none else \(none) }}", euro + [diagnostic])
            sensor(
                "forecast_band_agreement", "Forecast band agreement (30 days)", topics.forecastAccuracy,
                "{{ (value_json.band_agreement * 100) | round(1) if value_json.band_agreement is not none else \(none) }}",
                [("unit_of_measurement", .text("%")), ("state_class", .text("measurement")), diagnostic])
        }
        entities.append(
            Entity(
                "binary_sensor", "stale",
                [
                    ("name", .text("Stale prices")), ("state_topic", .text(topics.stale)), ("payload_on", .text("true")),
                    ("payload_off", .text("false")), ("device_class", .text("problem")), ("entity_category", .text("diagnostic")),
                ]
            ))
        func setting(_ component: String, _ field: SettingsField, _ name: String, _ extra: [(String, Field)]) {
            entities.append(
                Entity(
                    component, field.rawValue,
                    [
                        ("name", .text(name)), ("command_topic", .text(topics.settingsSet(field))), ("state_topic", .text(topics.settings)),
                        ("value_template", .text("{{ value_json.\(field.rawValue) }}")), ("entity_category", .text("config")),
                    ] + extra
                ))
        }
        // One entity per setting that has one, from its declaration.
        for descriptor in SettingDescriptor.all {
            guard let entity = descriptor.entity else { continue }
            var extra: [(String, Field)] = []
            switch (entity.component, descriptor.kind) {
            case let (.number, .number(range)):
                extra = [("min", .number(range.lowerBound)), ("max", .number(range.upperBound))]
            case let (.number, .integer(range)):
                extra = [("min", .number(Double(range.lowerBound))), ("max", .number(Double(range.upperBound)))]
            case let (.select, .choice(choices)):
                extra = [("options", .list(choices.isEmpty ? sources : choices))]
            case (.switch, _):
                extra = [
                    ("payload_on", .text("true")), ("payload_off", .text("false")), ("state_on", .text("True")),
                    ("state_off", .text("False")),
                ]
            default:
                preconditionFailure("\(descriptor.field.rawValue) has no \(entity.component) form")
            }
            if entity.component == .number {
                extra += [("step", .number(entity.step ?? 1)), ("mode", .text("box"))]
                switch entity.unit {
                case .pricePerKWh: extra.append(("unit_of_measurement", .text(priceUnit ?? unit)))
                case .co2PerKWh: extra.append(("unit_of_measurement", .text(Quantity.carbonIntensity.unit)))
                case .percent: extra.append(("unit_of_measurement", .text("%")))
                case .days: extra.append(("unit_of_measurement", .text("d")))
                case .none: break
                }
            }
            setting(entity.component.rawValue, descriptor.field, entity.name, extra)
        }
        if signal == .price {
            sensor(
                "grid_fee", "Grid fee now", topics.current, "{{ value_json.components.grid_fee if value else \(none) }}",
                euro + [("icon", .text("mdi:transmission-tower"))])
        }
        for job in jobs { entities += Self.jobEntities(job, topics, euro: euro) }
        if clockImage {
            entities.append(
                Entity(
                    "image", "clock",
                    [
                        ("name", .text("Price clock")), ("image_topic", .text(topics.clockPNG)), ("content_type", .text("image/png")),
                        ("icon", .text("mdi:clock-outline")),
                    ]
                ))
        }
        entities.append(
            Entity(
                "button", "refresh",
                [
                    ("name", .text("Refresh prices")), ("command_topic", .text(topics.refresh)),
                    ("payload_press", .text("PRESS")), ("icon", .text("mdi:refresh")),
                ]
            ))

        return entities.map { entity in
            let topic = "\(prefix)/\(entity.component)/\(Self.topicNode(node, profile: profile))/\(Self.topicObject(of: entity))/config"
            guard mode == .on else { return Config(topic: topic, payload: "") }
            var w = JSONWriter()
            w.beginObject()
            for (key, value) in entity.fields { value.write(key, to: &w) }
            w.field("unique_id", Self.uniqueID(of: entity, node: node, profile: profile))
            w.field("availability_topic", availability ?? topics.status)
            w.key("device")
            w.beginObject()
            w.key("identifiers")
            w.beginArray()
            w.string("energyclock_\(node)")
            w.endArray()
            w.field("name", Self.deviceName(node: node, profile: profile))
            w.field("manufacturer", "energyclock")
            w.field("model", "Day-ahead price daemon")
            w.field("sw_version", EnergyClockVersion.string)
            w.endObject()
            w.endObject()
            return Config(topic: topic, payload: w.output)
        }
    }

    /// One entity: its component, its object id (the config topic's last level), what it says,
    /// and for a job's entity the job and what of it the entity shows.
    struct Entity {
        var component: String
        var object: String
        var job: String?
        var kind: String?
        var fields: [(String, Field)]

        init(_ component: String, _ object: String, job: String? = nil, kind: String? = nil, _ fields: [(String, Field)]) {
            self.component = component
            self.object = object
            self.job = job
            self.kind = kind
            self.fields = fields
        }
    }

    /// The node level of a config topic: the node, or for a profile other than the first
    /// `<root node>-<profile>`. A profile's entities and every job's moved to topics of their own
    /// when their `unique_id`s became unique by construction: Home Assistant keeps an entity's first
    /// `unique_id` however its config changes, so a new one needs a new topic, and the old topics
    /// are cleared with the ledger at the next connect, which removes the old entities.
    static func topicNode(_ node: String, profile: String?) -> String {
        profile.map { "\(node.dropLast($0.count + 1))-\($0)" } ?? node
    }

    /// The object level of a config topic: the entity's object id, or for a job's entity
    /// `job-<job>-<kind>`.
    static func topicObject(of entity: Entity) -> String {
        entity.job.map { "job-\($0)-\(entity.kind ?? entity.object)" } ?? entity.object
    }

    /// The entity's `unique_id`, unique by construction: the first profile's own entities keep
    /// `<node>_<object>` as they have always been; every other is `<root node>/<profile>/<object>`,
    /// or for a job's `<root node>/<profile>/plan/<job>/<kind>`. No name, node or kind holds a `/`,
    /// so two entities never share one, whatever their profiles and jobs are called (profile `a`'s
    /// `next_price` and profile `a_next`'s `price` were once both `energyclock_a_next_price`).
    static func uniqueID(of entity: Entity, node: String, profile: String?) -> String {
        guard profile != nil || entity.job != nil else { return "\(node)_\(entity.object)" }
        let root = profile.map { String(node.dropLast($0.count + 1)) } ?? node
        let what = entity.job.map { "plan/\($0)/\(entity.kind ?? entity.object)" } ?? entity.object
        return "\(root)/\(profile ?? Profiles.firstName)/\(what)"
    }

    /// A config value.
    enum Field {
        case text(String)
        case number(Double)
        case integer(Int)
        case list([String])

        func write(_ key: String, to w: inout JSONWriter) {
            switch self {
            case let .text(v): w.field(key, v)
            case let .number(v): w.field(key, v)
            case let .integer(v): w.field(key, v)
            case let .list(v):
                w.key(key)
                w.beginArray()
                v.forEach { w.string($0) }
                w.endArray()
            }
        }
    }
}
