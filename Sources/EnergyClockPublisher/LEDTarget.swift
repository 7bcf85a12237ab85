import EnergyClockCore

/// A light that shows the current band's colour, driven over MQTT without Home Assistant.
package enum LEDTarget: Sendable, Equatable, CustomStringConvertible {
    /// WLED: `#RRGGBB` to `<topic>/col`, brightness to `<topic>`.
    case wled(String)
    /// Zigbee2MQTT: JSON to `<base>/<friendly name>/set`.
    case z2m(String)
    /// Tasmota: `#RRGGBB` to `cmnd/<topic>/Color`, brightness as a percentage to `cmnd/<topic>/Dimmer`.
    case tasmota(String)
    /// Any device: `{"r","g","b","hex","band"}` to `<topic>`.
    case json(String)

    /// Parses `TYPE:TOPIC`, e.g. `wled:wled/kitchen` or `z2m:Desk lamp`.
    package init?(_ text: String) {
        guard let colon = text.firstIndex(of: ":") else { return nil }
        let name = String(text[text.index(after: colon)...])
        guard !name.isEmpty, !name.contains("+"), !name.contains("#") else { return nil }
        switch text[..<colon].lowercased() {
        case "wled": self = .wled(name)
        case "z2m", "zigbee2mqtt": self = .z2m(name)
        case "tasmota": self = .tasmota(name)
        case "json": self = .json(name)
        default: return nil
        }
    }

    /// `TYPE:TOPIC`.
    package var description: String {
        switch self {
        case let .wled(t): "wled:\(t)"
        case let .z2m(t): "z2m:\(t)"
        case let .tasmota(t): "tasmota:\(t)"
        case let .json(t): "json:\(t)"
        }
    }

    /// The commands that set this light to `band` in `color`, with `brightness` (0…255) when given.
    package func messages(band: Band, color: RGBColor, brightness: Int?, z2mBase: String) -> [(topic: String, payload: String)] {
        switch self {
        case let .wled(topic):
            return [("\(topic)/col", color.hex)] + (brightness.map { [(topic, String($0))] } ?? [])
        case let .z2m(name):
            var w = JSONWriter()
            w.beginObject()
            w.field("state", "ON")
            w.key("color")
            w.beginObject()
            w.field("hex", color.hex)
            w.endObject()
            if let brightness { w.field("brightness", brightness) }
            w.endObject()
            return [("\(z2mBase)/\(name)/set", w.output)]
        case let .tasmota(topic):
            let dimmer = brightness.map { [("cmnd/\(topic)/Dimmer", String(Int((Double($0) * 100 / 255).rounded())))] } ?? []
            return [("cmnd/\(topic)/Color", color.hex)] + dimmer
        case let .json(topic):
            var w = JSONWriter()
            w.beginObject()
            w.field("r", Int(color.red))
            w.field("g", Int(color.green))
            w.field("b", Int(color.blue))
            w.field("hex", color.hex)
            w.field("band", band.rawValue)
            if let brightness { w.field("brightness", brightness) }
            w.endObject()
            return [(topic, w.output)]
        }
    }
}
