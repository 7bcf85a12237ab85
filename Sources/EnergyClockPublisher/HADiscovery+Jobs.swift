import EnergyClockCore

extension HADiscovery {
    /// The entities of the job `name`: whether it runs now, when it starts next, its plan's mean
    /// price, and its duration and deadline to change from the dashboard. The last two send a
    /// one-job update to the profile's `settings/set`.
    static func jobEntities(
        _ name: String, _ topics: TopicTree, euro: [(String, Field)]
    ) -> [(component: String, object: String, fields: [(String, Field)])] {
        let plan = topics.plan(name)
        let none = "None"
        let setting = "value_json.jobs['\(name)']"
        return [
            (
                "binary_sensor", "plan_\(name)",
                [
                    ("name", .text("\(name) running")), ("state_topic", .text(topics.planActive(name))), ("payload_on", .text("ON")),
                    ("payload_off", .text("OFF")), ("device_class", .text("running")), ("icon", .text("mdi:calendar-clock")),
                ]
            ),
            (
                "sensor", "plan_\(name)_next_start",
                [
                    ("name", .text("\(name) next start")), ("state_topic", .text(plan)),
                    ("value_template", .text("{{ value_json.next_start if value_json.next_start else \(none) }}")),
                    ("json_attributes_topic", .text(plan)), ("device_class", .text("timestamp")),
                ]
            ),
            (
                "sensor", "plan_\(name)_mean_price",
                [
                    ("name", .text("\(name) plan price")), ("state_topic", .text(plan)),
                    ("value_template", .text("{{ value_json.mean_price if value_json.mean_price is not none else \(none) }}")),
                ] + euro
            ),
            (
                "number", "plan_\(name)_duration",
                [
                    ("name", .text("\(name) duration")), ("command_topic", .text(topics.settingsSet)),
                    ("command_template", .text(#"{"jobs":{"\#(name)":{"duration":{{ value | int }}}}}"#)),
                    ("state_topic", .text(topics.settings)),
                    ("value_template", .text("{{ \(setting).duration if \(setting) is defined else \(none) }}")),
                    ("min", .number(1)), ("max", .number(Double(Job.maxDuration))), ("step", .number(15)), ("mode", .text("box")),
                    ("unit_of_measurement", .text("min")), ("entity_category", .text("config")),
                ]
            ),
            (
                "text", "plan_\(name)_deadline",
                [
                    ("name", .text("\(name) deadline")), ("command_topic", .text(topics.settingsSet)),
                    ("command_template", .text(#"{"jobs":{"\#(name)":{"deadline":"{{ value }}"}}}"#)),
                    ("state_topic", .text(topics.settings)),
                    ("value_template", .text("{{ \(setting).deadline if \(setting) is defined and \(setting).deadline else '' }}")),
                    ("pattern", .text("^([01][0-9]|2[0-3]):[0-5][0-9]$")), ("min", .integer(0)), ("max", .integer(5)),
                    ("entity_category", .text("config")),
                ]
            ),
        ]
    }
}
