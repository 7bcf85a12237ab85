import EnergyClockDomain

/// The text of `energyclock --help` and `energyclock <command> --help`, built from the option
/// declarations, defaults included, so the two cannot drift.
enum Help {
    /// A command as the help lists it.
    struct Command {
        let name: String
        let summary: String
        let specs: [OptionSpec]
    }

    /// Every command, in the order the help lists them.
    static let commands = [
        Command(name: "run", summary: "run the daemon", specs: RunConfiguration.specs),
        Command(name: "prices", summary: "print today's and tomorrow's prices with their band", specs: DayConfiguration.pricesSpecs),
        Command(
            name: "clock", summary: "draw today's 24-hour price clock (--tomorrow, or --date for any day)",
            specs: DayConfiguration.clockSpecs),
        Command(
            name: "render", summary: "write the clock as --svg FILE and/or --png FILE (- for stdout)", specs: DayConfiguration.renderSpecs),
        Command(
            name: "health", summary: "exit 0 while a daemon on the state directory runs and keeps publishing",
            specs: HealthConfiguration.specs),
    ]

    private static let environmentLines = [
        "Every option can also be set as ENERGYCLOCK_<NAME>, e.g. --mqtt-host as ENERGYCLOCK_MQTT_HOST.",
        "The broker password comes from ENERGYCLOCK_MQTT_PASSWORD or --mqtt-password-file, never a flag.",
    ]

    /// Every command and every option, each option once, under the first command that has it.
    static var text: String {
        var lines = [
            "energyclock \(EnergyClockVersion.string): day-ahead electricity prices as colour bands on retained MQTT topics",
            "",
            "Usage:",
        ]
        lines += commands.map { "  " + pad("energyclock \($0.name) [options]", 32) + $0.summary }
        lines += ["  energyclock <command> --help    the options of one command", "  energyclock --help | --version", ""]
        lines += environmentLines
        var shown: Set<String> = []
        for (index, command) in commands.enumerated() {
            let new = command.specs.filter { shown.insert($0.name).inserted }
            guard !new.isEmpty else { continue }
            lines += ["", index == 0 ? "Options of run:" : "Options of \(command.name) (also the shared ones above):"]
            lines += new.map(describe)
        }
        return lines.joined(separator: "\n")
    }

    /// The usage and every option of the command `name`; the whole help for an unknown one.
    static func text(for name: String) -> String {
        guard let command = commands.first(where: { $0.name == name }) else { return text }
        let lines =
            ["Usage: energyclock \(command.name) [options]", "", command.summary, ""] + environmentLines + ["", "Options:"]
            + command.specs.map(describe)
        return lines.joined(separator: "\n")
    }

    private static func describe(_ spec: OptionSpec) -> String {
        let flag = "--\(spec.name)" + (spec.value.map { " \($0)" } ?? "") + (spec.repeatable ? " …" : "")
        return "  \(pad(flag, 30))\(spec.help)"
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        text.count < width ? text + String(repeating: " ", count: width - text.count) : text + "  "
    }
}
