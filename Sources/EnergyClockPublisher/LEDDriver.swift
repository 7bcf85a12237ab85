import EnergyClockCore

/// Sets every light to the current band's colour when band, colour or brightness change.
struct LEDDriver {
    let leds: [LEDTarget]
    let z2mBaseTopic: String
    private var shown: String?

    init(leds: [LEDTarget], z2mBaseTopic: String) {
        self.leds = leds
        self.z2mBaseTopic = z2mBaseTopic
    }

    /// The commands that show `snapshot`, or none when the lights already show it.
    func commands(for snapshot: Snapshot) -> [OutgoingMessage] {
        guard let band = snapshot.current?.band, state(of: snapshot) != shown else { return [] }
        let color = snapshot.settings.color(of: band)
        let brightness = snapshot.settings.brightness[band]
        return leds.flatMap { led in
            led.messages(band: band, color: color, brightness: brightness, z2mBase: z2mBaseTopic)
                .map { OutgoingMessage($0.topic, $0.payload, retain: false) }
        }
    }

    /// Notes that the lights show `snapshot`.
    mutating func shown(_ snapshot: Snapshot) { shown = state(of: snapshot) }

    /// Forgets what the lights show, so they are set again (after a reconnect).
    mutating func forget() { shown = nil }

    private func state(of snapshot: Snapshot) -> String? {
        guard !leds.isEmpty, let band = snapshot.current?.band else { return nil }
        let brightness = snapshot.settings.brightness[band]
        return "\(band.rawValue) \(snapshot.settings.color(of: band).hex) \(brightness.map(String.init) ?? "-")"
    }
}
