import EnergyClockDomain

extension HADiscovery {
    /// What the deadline text entity takes and shows: a time of day, or nothing for a job without
    /// a window. Home Assistant checks every state against it.
    static let deadlinePattern = "^(([01][0-9]|2[0-3]):[0-5][0-9])?$"

    /// The entities of the job `name`: whether it runs now, when it starts next, its plan's mean
    /// price, and its duration and deadline to change from the dashboard. The last two send a
    /// one-job update to the profile's `settings/set`.
    static func jobEntities(_ name: String, _ topics: TopicTree, euro: [(String, Field)]) -> [Entity] {
        let plan = topics.plan(name)
        let none = "None"
        let setting = "value_json.jobs['\(name)']"
        return [
            Entity(
                "binary_sensor", "plan_\(name)", job: name, kind: "running",
                [
                    ("name", .text("\(name) running")), ("state_topic", .text(topics.planActive(name))), ("payload_on", .text("ON")),
                    ("payload_off", .text("OFF")), ("device_class", .text("running")), ("icon", .text("mdi:calendar-clock")),
                ]
            ),
            Entity(
                "sensor", "plan_\(name)_next_start", job: name, kind: "next_start",
                [
                    ("name", .text("\(name) next start")), ("state_topic", .text(plan)),
                    ("value_template", .text("{{ value_json.next_start if value_json.next_start else \(none) }}")),
                    ("json_attributes_topic", .text(plan)), ("device_class", .text("timestamp")),
                ]
            ),
            Entity(
                "sensor", "plan_\(name)_mean_price", job: name, kind: "mean_price",
                [
                    ("name", .text("\(name) plan price")), ("state_topic", .text(plan)),
                    ("value_template", .text("{{ value_json.mean_price if value_json.mean_price is not none else \(none) }}")),
                ] + euro
            ),
            Entity(
                "number", "plan_\(name)_duration", job: name, kind: "duration",
                [
                    ("name", .text("\(name) duration")), ("command_topic", .text(topics.settingsSet)),
                    ("command_template", .text(#"{"jobs":{"\#(name)":{"duration":{{ value | int }}}}}"#)),
                    ("state_topic", .text(topics.settings)),
                    ("value_template", .text("{{ \(setting).duration if \(setting) is defined else \(none) }}")),
                    ("min", .number(1)), ("max", .number(Double(Job.maxDuration))), ("step", .number(15)), ("mode", .text("box")),
                    ("unit_of_measurement", .text("min")), ("entity_category", .text("config")),
                ]
            ),
            Entity(
                "text", "plan_\(name)_deadline", job: name, kind: "deadline",
                [
                    ("name", .text("\(name) deadline")), ("command_topic", .text(topics.settingsSet)),
                    // Cleared, the deadline is sent as null; a job without a window shows an empty
                    // text, which its pattern allows: a state Home Assistant can refuse is never sent.
                    (
                        "command_template",
                        .text(#"{"jobs":{"\#(name)":{"deadline":{% if value %}"{{ value }}"{% else %}null{% endif %}}}}"#)
                    ),
                    ("state_topic", .text(topics.settings)),
                    ("value_template", .text("{{ \(setting).deadline if \(setting) is defined and \(setting).deadline else '' }}")),
                    ("pattern", .text(Self.deadlinePattern)), ("min", .integer(0)), ("max", .integer(5)),
                    ("entity_category", .text("config")),
                ]
            ),
        ]
    }
}
