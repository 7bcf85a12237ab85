import EnergyClockDomain
import FoundationEssentials

/// A WLED ring of LEDs showing the day's bands, sent as one JSON command per change.
///
/// In `day` mode the ring is a clock face: LED 0 is midnight and each LED covers an equal share
/// of the local day's 24 clock hours; on the 25-hour day the repeated hour shares its LEDs, and
/// on the 23-hour day the hour that does not exist stays dark. In `ahead` mode LED 0 is the
/// current slot and LED k the k-th slot after it. An LED covering several slots shows the dearest
/// band among them; one without a price stays dark. The current slot's LEDs are at full
/// brightness and every other LED at 40 %, so now stands out in its own colour.
package struct WLEDRing: Sendable, Equatable, CustomStringConvertible {
    /// What the ring shows.
    package enum Mode: String, Sendable, CaseIterable {
        /// Today as a clock face.
        case day
        /// The next slots, starting with the current one.
        case ahead
    }

    /// The WLED device's MQTT topic; commands go to `<topic>/api`.
    package var topic: String
    /// How many LEDs the ring has.
    package var leds = 24
    package var mode = Mode.day
    /// The physical LED that shows position 0 (midnight, or now).
    package var offset = 0
    /// The ring runs counter-clockwise.
    package var reverse = false

    /// Brightness of the LEDs outside the current slot, in percent of the band colour.
    static let dimPercent = 40

    /// Parses `TOPIC[,leds=N][,mode=day|ahead][,offset=N][,reverse]`, or throws why not.
    package init(_ text: String) throws(LEDTarget.ParseError) {
        var parts = text.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        topic = parts.removeFirst()
        if let problem = TopicTree.problem(withPrefix: topic) {
            throw LEDTarget.ParseError("wled-ring cannot use the topic \(Quote.json(topic)): \(problem)")
        }
        for part in parts {
            let pair = part.split(separator: "=", maxSplits: 1).map(String.init)
            switch (pair.first ?? "", pair.count == 2 ? pair[1] : nil) {
            case let ("leds", value?):
                guard let count = Int(value), (1...1024).contains(count) else {
                    throw LEDTarget.ParseError("leds must be a whole number from 1 to 1024, got \"\(value)\"")
                }
                leds = count
            case let ("mode", value?):
                guard let parsed = Mode(rawValue: value) else { throw LEDTarget.ParseError("mode must be day or ahead, got \"\(value)\"") }
                mode = parsed
            case let ("offset", value?):
                guard let shift = Int(value), shift >= 0 else {
                    throw LEDTarget.ParseError("offset must be a whole number from 0, got \"\(value)\"")
                }
                offset = shift
            case ("reverse", nil):
                reverse = true
            default:
                throw LEDTarget.ParseError("unknown ring option \"\(part)\"; use leds=N, mode=day|ahead, offset=N or reverse")
            }
        }
        offset %= leds
    }

    /// `wled-ring:TOPIC,leds=N,mode=M,offset=N[,reverse]`.
    package var description: String {
        "wled-ring:\(topic),leds=\(leds),mode=\(mode.rawValue),offset=\(offset)" + (reverse ? ",reverse" : "")
    }

    /// Green is the cheapest band, red the dearest.
    static func rank(_ band: Band) -> Int { Band.allCases.firstIndex(of: band) ?? 0 }

    /// The colour of each LED in ring order (position 0 first); nil is dark.
    func colors(for snapshot: Snapshot) -> [RGBColor?] {
        var best = [Band?](repeating: nil, count: leds)
        var current = [Bool](repeating: false, count: leds)
        func cover(_ position: Int, _ slot: PricedSlot) {
            if let band = slot.band, best[position].map({ Self.rank(band) > Self.rank($0) }) ?? true { best[position] = band }
            if slot == snapshot.current { current[position] = true }
        }
        switch mode {
        case .day:
            let calendar = snapshot.calendar
            let minutesPerLED = 1440.0 / Double(leds)
            for slot in snapshot.today {
                // The slot's span on the clock face, in local minutes after midnight.
                let from = Double(calendar.wallClock(at: slot.slot.start).second) / 60
                let to = min(1440, from + slot.slot.duration / 60)
                let first = Int((from / minutesPerLED).rounded(.down))
                let last = Int((to / minutesPerLED).rounded(.up))
                for position in max(0, first)..<min(leds, max(first + 1, last)) { cover(position, slot) }
            }
        case .ahead:
            let slots = snapshot.today + snapshot.tomorrow
            if let now = snapshot.current, let start = slots.firstIndex(of: now) {
                for (position, slot) in slots[start...].prefix(leds).enumerated() { cover(position, slot) }
            }
        }
        return best.indices.map { position in
            guard let band = best[position] else { return nil }
            let color = snapshot.settings.color(of: band)
            return current[position] ? color : color.scaled(percent: Self.dimPercent)
        }
    }

    /// The WLED JSON command for `snapshot`: `{"on":true,"bri":N,"seg":{"id":0,"i":[…]}}`, with
    /// runs of equal colours as `start, stop, "RRGGBB"` and single LEDs as `index, "RRGGBB"`.
    package func payload(for snapshot: Snapshot) -> String {
        var physical = [RGBColor?](repeating: nil, count: leds)
        for (position, color) in colors(for: snapshot).enumerated() {
            physical[((reverse ? -position : position) + offset + leds) % leds] = color
        }
        var w = JSONWriter()
        w.beginObject()
        w.field("on", true)
        if let band = snapshot.current?.band, let level = snapshot.settings.brightness[band] { w.field("bri", level) }
        w.key("seg")
        w.beginObject()
        w.field("id", 0)
        w.key("i")
        w.beginArray()
        var start = 0
        while start < leds {
            var stop = start + 1
            while stop < leds, physical[stop] == physical[start] { stop += 1 }
            w.integer(start)
            if stop - start > 1 { w.integer(stop) }
            w.string(physical[start].map { String($0.hex.dropFirst()) } ?? "000000")
            start = stop
        }
        w.endArray()
        w.endObject()
        w.endObject()
        return w.output
    }
}

extension RGBColor {
    /// This colour at `percent` of its brightness.
    func scaled(percent: Int) -> RGBColor {
        func scale(_ value: UInt8) -> UInt8 { UInt8((Int(value) * percent + 50) / 100) }
        return RGBColor(red: scale(red), green: scale(green), blue: scale(blue))
    }
}
