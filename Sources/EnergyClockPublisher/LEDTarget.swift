import EnergyClockDomain

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
    /// A WLED ring showing the whole day, one LED per share of it: see ``WLEDRing``.
    case wledRing(WLEDRing)

    /// Why a light could not be read from the command line.
    package struct ParseError: Error, CustomStringConvertible {
        /// What is wrong, in words a user can act on.
        package let description: String
        init(_ description: String) { self.description = description }
    }

    /// Parses `TYPE:TOPIC`, e.g. `wled:wled/kitchen`, `z2m:Desk lamp` or `wled-ring:wled/ring,leds=60`.
    package static func parse(_ text: String) throws(ParseError) -> LEDTarget {
        guard let colon = text.firstIndex(of: ":") else { throw ParseError("expected TYPE:TOPIC") }
        let name = String(text[text.index(after: colon)...])
        let kind = text[..<colon].lowercased()
        if kind == "wled-ring" { return .wledRing(try WLEDRing(name)) }
        // A topic of its own must be one a client may publish to; a name below a prefix (cmnd/…,
        // zigbee2mqtt/…) may start with `$`, but holds no wildcard or empty level either.
        let standalone = kind == "wled" || kind == "json"
        if let problem = TopicTree.problem(withPrefix: standalone ? name : "x/" + name) {
            throw ParseError("the topic \(Quote.json(name)) cannot be used: \(problem)")
        }
        switch kind {
        case "wled": return .wled(name)
        case "z2m", "zigbee2mqtt": return .z2m(name)
        case "tasmota": return .tasmota(name)
        case "json": return .json(name)
        default: throw ParseError("unknown type \"\(kind)\"; use wled, wled-ring, z2m, tasmota or json")
        }
    }

    /// Parses `TYPE:TOPIC`, or nil when it is not one.
    package init?(_ text: String) {
        guard let target = try? Self.parse(text) else { return nil }
        self = target
    }

    /// `TYPE:TOPIC`.
    package var description: String {
        switch self {
        case let .wled(t): "wled:\(t)"
        case let .z2m(t): "z2m:\(t)"
        case let .tasmota(t): "tasmota:\(t)"
        case let .json(t): "json:\(t)"
        case let .wledRing(ring): ring.description
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
        case .wledRing:
            // A ring shows the day, not one band: LEDDriver sends it ``WLEDRing/payload(for:)``.
            return []
        }
    }
}
