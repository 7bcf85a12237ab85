import EnergyClockCore
import EnergyClockRender
import Platform

/// The clock as retained pictures on `clock/png` and `clock/svg`, redrawn when what they show
/// changes (a band, the thresholds, the palette, the current slot), never more than once a second.
struct ClockOutput {
    let topics: TopicTree
    let enabled: Bool
    /// What the pictures last sent show, without the hand, and the slot the hand was in.
    private var shown: Key?
    private var renderedAt: ContinuousClock.Instant?
    private var waiting = false

    /// The least time between two drawings.
    static let interval = Duration.seconds(1)

    /// What a picture shows, apart from the exact angle of its hand.
    struct Key: Equatable {
        var face: ClockFace
        var slot: PriceSlot?
    }

    /// What to do about a snapshot.
    enum Decision: Equatable {
        case nothing
        case render(ClockFace)
        /// A drawing is due, but the last was less than a second ago: come back at `until`.
        case wait(until: ContinuousClock.Instant)
    }

    init(topics: TopicTree, enabled: Bool) {
        self.topics = topics
        self.enabled = enabled
    }

    /// The retained topics this output keeps.
    var owned: Set<String> { enabled ? [topics.clockPNG, topics.clockSVG] : [] }

    static func key(_ face: ClockFace, _ snapshot: Snapshot) -> Key {
        var still = face
        still.hand = nil
        return Key(face: still, slot: snapshot.current?.slot)
    }

    /// Whether `snapshot` needs a new drawing at `now`.
    mutating func decide(for snapshot: Snapshot, at now: ContinuousClock.Instant) -> Decision {
        guard enabled else { return .nothing }
        let face = ClockFace(snapshot)
        guard Self.key(face, snapshot) != shown else { return .nothing }
        if let renderedAt, now < renderedAt + Self.interval {
            guard !waiting else { return .nothing }
            waiting = true
            return .wait(until: renderedAt + Self.interval)
        }
        return .render(face)
    }

    /// The wait for the next drawing is over.
    mutating func waited() { waiting = false }

    /// Draws `face` as the two retained messages, noting it as shown.
    mutating func render(_ face: ClockFace, of snapshot: Snapshot, at now: ContinuousClock.Instant) throws(CairoClock.Failure)
        -> [OutgoingMessage]
    {
        let png = try CairoClock.png(face)
        let svg = try CairoClock.svg(face)
        // Drawing briefly takes a few MB of buffers; give them back before the daemon waits again.
        Memory.trim()
        shown = Self.key(face, snapshot)
        renderedAt = now
        return [OutgoingMessage(topics.clockPNG, bytes: png, retain: true), OutgoingMessage(topics.clockSVG, bytes: svg, retain: true)]
    }

    /// Forgets what was sent, so the next snapshot is drawn again (after a reconnect).
    mutating func forget() { shown = nil }
}
