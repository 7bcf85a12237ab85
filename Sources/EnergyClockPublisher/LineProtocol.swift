import EnergyClockCore
import FoundationEssentials

/// InfluxDB line protocol: `measurement,tag=v field=1.5,n=3i 1717200000000000000`.
package enum LineProtocol {
    /// Escapes a measurement name: commas and spaces.
    package static func measurement(_ text: String) -> String { escape(text, [",", " "]) }

    /// Escapes a tag key, tag value or field key: commas, `=` and spaces.
    package static func key(_ text: String) -> String { escape(text, [",", "=", " "]) }

    /// A string field value: double-quoted, with `"` and `\` escaped.
    package static func string(_ text: String) -> String { "\"" + escape(text, ["\"", "\\"]) + "\"" }

    private static func escape(_ text: String, _ special: Set<Character>) -> String {
        var out = ""
        out.reserveCapacity(text.count)
        for c in text {
            // A line break would end the line; it has no escape, so it becomes a space (then escaped).
            let character: Character = c == "\n" || c == "\r" ? " " : c
            if special.contains(character) { out.append("\\") }
            out.append(character)
        }
        return out
    }

    /// One point: `tags` and `fields` in the order given; fields are preformatted values.
    package static func line(measurement name: String, tags: [(String, String)], fields: [(String, String)], time: Date) -> String {
        var line = measurement(name)
        for (k, v) in tags where !v.isEmpty { line += ",\(key(k))=\(key(v))" }
        line += " " + fields.map { "\(key($0.0))=\($0.1)" }.joined(separator: ",")
        line += " \(Int64((time.timeIntervalSince1970 * 1_000_000_000).rounded()))"
        return line
    }

    /// The point of the current slot: its prices, band and thresholds, stamped with the slot's start
    /// so that republishing the same slot overwrites rather than adds. A profile other than the
    /// first is named in a `profile` tag; the first has none, and keeps the series it always had.
    package static func currentPoint(_ snapshot: Snapshot) -> String? {
        guard let current = snapshot.current else { return nil }
        var fields = [("price", DecimalFormat.string(current.price)), ("market_price", DecimalFormat.string(current.slot.market))]
        if let t = snapshot.thresholds {
            fields += [
                ("green_max", DecimalFormat.string(t.greenMax)), ("yellow_max", DecimalFormat.string(t.yellowMax)),
                ("orange_max", DecimalFormat.string(t.orangeMax)),
            ]
        }
        fields.append(("stale", snapshot.stale ? "true" : "false"))
        return line(
            measurement: "energy_price",
            tags: [
                ("source", snapshot.source), ("zone", snapshot.settings.zone), ("band", current.band?.rawValue ?? ""),
                ("profile", snapshot.profile == Profiles.firstName ? "" : snapshot.profile),
            ],
            fields: fields, time: current.slot.start
        )
    }
}
