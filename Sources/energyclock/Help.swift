import EnergyClockCore

/// The text of `energyclock --help`, built from the option tables so the two cannot drift.
enum Help {
    static var text: String {
        var lines = [
            "energyclock \(EnergyClockVersion.string): day-ahead electricity prices as colour bands on retained MQTT topics",
            "",
            "Usage:",
            "  energyclock run [options]       run the daemon",
            "  energyclock prices [options]    print today's and tomorrow's prices with their band",
            "  energyclock clock [options]     draw today's 24-hour price clock (--tomorrow, or --date for any day)",
            "  energyclock render [options]    write the clock as --svg FILE and/or --png FILE (- for stdout)",
            "  energyclock health [options]    exit 0 while a daemon on the state directory runs and keeps publishing",
            "  energyclock --help | --version",
            "",
            "Every option can also be set as ENERGYCLOCK_<NAME>, e.g. --mqtt-host as ENERGYCLOCK_MQTT_HOST.",
            "The broker password comes from ENERGYCLOCK_MQTT_PASSWORD or --mqtt-password-file, never a flag.",
            "",
            "Options of run:",
        ]
        lines += Configuration.runSpecs.map(describe)
        lines += ["", "Options of prices (also the shared ones above):"]
        lines += Configuration.pricesSpecs.filter { spec in !Configuration.runSpecs.contains { $0.name == spec.name } }.map(describe)
        lines += ["", "Options of clock and render (also the shared ones above):"]
        lines += Configuration.renderSpecs.filter { spec in !Configuration.runSpecs.contains { $0.name == spec.name } }.map(describe)
        lines += ["", "Options of health (also the shared ones above):"]
        lines += Configuration.healthSpecs.filter { spec in !Configuration.runSpecs.contains { $0.name == spec.name } }.map(describe)
        return lines.joined(separator: "\n")
    }

    private static func describe(_ spec: OptionSpec) -> String {
        let flag = "--\(spec.name)" + (spec.value.map { " \($0)" } ?? "") + (spec.repeatable ? " …" : "")
        let padded = flag.count < 30 ? flag + String(repeating: " ", count: 30 - flag.count) : flag + "  "
        return "  \(padded)\(spec.help)"
    }
}
