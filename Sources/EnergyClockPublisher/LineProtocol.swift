import EnergyClockDomain
import FoundationEssentials

/// InfluxDB line protocol: `measurement,tag=v field=1.5,n=3i 1717200000000000000`.
package enum LineProtocol {
    /// Escapes a measurement name: commas and spaces.
    package static func measurement(_ text: String) -> String { escape(text, [UInt8(ascii: ","), UInt8(ascii: " ")]) }

    /// Escapes a tag key, tag value or field key: commas, `=` and spaces.
    package static func key(_ text: String) -> String { escape(text, [UInt8(ascii: ","), UInt8(ascii: "="), UInt8(ascii: " ")]) }

    /// A string field value: double-quoted, with `"` and `\` escaped.
    package static func string(_ text: String) -> String { "\"" + escape(text, [UInt8(ascii: "\""), UInt8(ascii: "\\")]) + "\"" }

    /// `text` with a backslash before each byte in `special`, byte by byte: every byte that needs
    /// an escape is ASCII, and a byte of a multi-byte character never is. A line break would end
    /// the line and has no escape, so each CR or LF becomes a space first (then escaped).
    private static func escape(_ text: String, _ special: [UInt8]) -> String {
        func lineBreak(_ byte: UInt8) -> Bool { byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") }
        guard text.utf8.contains(where: { lineBreak($0) || special.contains($0) }) else { return text }
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count + 8)
        for byte in text.utf8 {
            let byte = lineBreak(byte) ? UInt8(ascii: " ") : byte
            if special.contains(byte) { out.append(UInt8(ascii: "\\")) }
            out.append(byte)
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// One point: `tags` and `fields` in the order given; fields are preformatted values.
    package static func line(measurement name: String, tags: [(String, String)], fields: [(String, String)], time: Date) -> String {
        var line = measurement(name)
        for (k, v) in tags where !v.isEmpty { line += ",\(key(k))=\(key(v))" }
        line += " " + fields.map { "\(key($0.0))=\($0.1)" }.joined(separator: ",")
        // Nanoseconds hold every instant until 2262; one beyond is clamped, not trapped on.
        let nanoseconds = (time.timeIntervalSince1970 * 1_000_000_000).rounded()
        line += " \(nanoseconds.isNaN ? 0 : Int64(min(max(nanoseconds, -9.2e18), 9.2e18)))"
        return line
    }

    /// The point of the current slot: its prices, band and thresholds, stamped with the slot's start
    /// so that republishing the same slot overwrites rather than adds. A profile other than the
    /// first is named in a `profile` tag; the first has none, and keeps the series it always had.
    ///
    /// A `co2` profile's point is `grid_carbon`, its value the field `intensity`, tagged with its
    /// `area` and `unit` (gCO2/kWh) where a price's has its zone; a `grid` profile's is
    /// `grid_signal`, its value the field `step`, tagged with its `area` and the operator's `state`.
    package static func currentPoint(_ snapshot: Snapshot) -> String? {
        guard let current = snapshot.current else { return nil }
        let settings = snapshot.settings
        let value = DecimalFormat.string(current.price)
        var (measurement, fields, place): (String, [(String, String)], [(String, String)]) =
            switch settings.signal {
            case .price:
                ("energy_price", [("price", value), ("market_price", DecimalFormat.string(current.slot.value))], [("zone", settings.zone)])
            case .co2: ("grid_carbon", [("intensity", value)], [("area", settings.carbonArea), ("unit", settings.unit)])
            case .grid: ("grid_signal", [("step", value)], [("area", settings.carbonArea), ("state", current.slot.levelName ?? "")])
            }
        if let t = snapshot.thresholds {
            fields += [
                ("green_max", DecimalFormat.string(t.greenMax)), ("yellow_max", DecimalFormat.string(t.yellowMax)),
                ("orange_max", DecimalFormat.string(t.orangeMax)),
            ]
        }
        fields.append(("stale", snapshot.stale ? "true" : "false"))
        return line(
            measurement: measurement,
            tags: [("source", snapshot.source)] + place + [
                ("band", current.band?.rawValue ?? ""), ("profile", snapshot.profile == Profiles.firstName ? "" : snapshot.profile),
            ],
            fields: fields, time: current.slot.start
        )
    }
}
