import EnergyClockDomain

/// Sets every light to the current band's colour when band, colour or brightness change, and
/// every ring to the day's bands when what it shows changes.
struct LEDDriver {
    let leds: [LEDTarget]
    let z2mBaseTopic: String
    private var shown: String?
    /// The command each ring last got, by topic.
    private var ringsShown: [String: String] = [:]

    init(leds: [LEDTarget], z2mBaseTopic: String) {
        self.leds = leds
        self.z2mBaseTopic = z2mBaseTopic
    }

    private var rings: [WLEDRing] {
        leds.compactMap { if case let .wledRing(ring) = $0 { ring } else { nil } }
    }

    /// The commands that show `snapshot`, or none when the lights already show it.
    func commands(for snapshot: Snapshot) -> [OutgoingMessage] {
        var messages: [OutgoingMessage] = []
        if let band = snapshot.current?.band, state(of: snapshot) != shown {
            let color = snapshot.settings.color(of: band)
            let brightness = snapshot.settings.brightness[band]
            messages += leds.flatMap { led in
                led.messages(band: band, color: color, brightness: brightness, z2mBase: z2mBaseTopic)
                    .map { OutgoingMessage($0.topic, $0.payload, retain: false) }
            }
        }
        for ring in rings {
            let payload = ring.payload(for: snapshot)
            if ringsShown[ring.topic] != payload { messages.append(OutgoingMessage("\(ring.topic)/api", payload, retain: false)) }
        }
        return messages
    }

    /// Notes that the lights show `snapshot`, after `commands` (from ``commands(for:)``) were sent.
    mutating func shown(_ snapshot: Snapshot, commands: [OutgoingMessage]) {
        shown = state(of: snapshot)
        for ring in rings {
            if let sent = commands.first(where: { $0.topic == "\(ring.topic)/api" }) { ringsShown[ring.topic] = sent.payload }
        }
    }

    /// Forgets what the lights show, so they are set again (after a reconnect).
    mutating func forget() {
        shown = nil
        ringsShown = [:]
    }

    private func state(of snapshot: Snapshot) -> String? {
        guard leds.contains(where: { if case .wledRing = $0 { false } else { true } }), let band = snapshot.current?.band else {
            return nil
        }
        let brightness = snapshot.settings.brightness[band]
        return "\(band.rawValue) \(snapshot.settings.color(of: band).hex) \(brightness.map(String.init) ?? "-")"
    }
}
