import EnergyClockDomain
import EnergyClockFace

/// What the publisher adds to the core topic tree.
package struct PublisherOptions: Sendable {
    /// Window lengths in hours for `cheapest/<N>h`.
    package var cheapestHours: [Int]
    /// Home Assistant discovery, or nil for none.
    package var discovery: HADiscovery?
    /// Lights to drive directly, showing the first profile.
    package var leds: [LEDTarget]
    /// Lights showing another profile, by the profile's name (`--led TYPE:TOPIC@PROFILE`).
    package var profileLEDs: [String: [LEDTarget]] = [:]
    /// Zigbee2MQTT's base topic.
    package var z2mBaseTopic: String
    /// Where line protocol is also written over HTTP, or nil.
    package var influx: InfluxWriter?
    /// Whether the clock is published as PNG and SVG on `clock/png` and `clock/svg`.
    package var clockImage: Bool
    /// What draws the clock pictures.
    package var renderer: ClockRenderer
    /// The topics (and everything below them) that MQTT 5 answers may go to; empty for the
    /// default, `<prefix>/reply` and `reply` (see ``ReplyPolicy``).
    package var replyPrefixes: [String] = []
    /// How long to wait, in milliseconds, before answering Home Assistant's `online`: a random
    /// time in this range, so that many devices do not answer at the same instant.
    package var homeAssistantDelay: ClosedRange<Int64> = 500...2500
    /// With more than one profile, the pause in seconds between every profile's `price` and the
    /// rest, so that the broker forwards the prices before it reads what follows them.
    package var profilePause = 0.002
    /// The pause in seconds at a slot boundary between what describes now and the day's
    /// payloads, which leaves the cores to the broker and the subscribers while `price` travels.
    package var boundaryPause = 0.004

    /// Options with the defaults: windows of 1 to 4 hours, no discovery, no LEDs, no InfluxDB.
    package init(
        cheapestHours: [Int] = [1, 2, 3, 4], discovery: HADiscovery? = nil, leds: [LEDTarget] = [],
        z2mBaseTopic: String = "zigbee2mqtt", influx: InfluxWriter? = nil, clockImage: Bool = true,
        renderer: ClockRenderer = .besideThisProgram
    ) {
        self.clockImage = clockImage
        self.renderer = renderer
        self.cheapestHours = cheapestHours
        self.discovery = discovery
        self.leds = leds
        self.z2mBaseTopic = z2mBaseTopic
        self.influx = influx
    }

    /// The lights that show the profile `name`.
    func leds(following name: String) -> [LEDTarget] {
        (name == Profiles.firstName ? leds : []) + (profileLEDs[name] ?? [])
    }

    /// The topic Home Assistant announces restarts on, when discovery is on.
    package var homeAssistantStatus: String? {
        discovery.flatMap { $0.mode == .on ? $0.statusTopic : nil }
    }
}
