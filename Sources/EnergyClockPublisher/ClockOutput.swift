import EnergyClockCore
import EnergyClockFace

/// The clock as retained pictures on `clock/png` and `clock/svg`, redrawn when what they show
/// changes (a band, the thresholds, the palette, the current slot), never more than once a second.
///
/// The drawing runs in the `energyclock-render` helper, one at a time; a change while one is under
/// way is drawn after it, from the newest snapshot.
struct ClockOutput {
    let topics: TopicTree
    let enabled: Bool
    /// What the pictures last sent show, without the hand, and the slot the hand was in.
    private var shown: Key?
    private var startedAt: ContinuousClock.Instant?
    /// A drawing is under way, or waits for its second to come.
    private(set) var busy = false

    /// The least time between two drawings.
    static let interval = Duration.seconds(1)

    /// What a picture shows, apart from the exact angle of its hand.
    struct Key: Equatable {
        var face: ClockFace
        var slot: PriceSlot?
    }

    /// What to do about a snapshot.
    enum Decision {
        case nothing
        /// Draw `face` after `delay` (zero when the last drawing is a second old), then report it as `key`.
        case draw(ClockFace, key: Key, after: Duration)
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

    /// Whether `snapshot` needs a new drawing at `now`; nothing while one is under way.
    mutating func decide(for snapshot: Snapshot, at now: ContinuousClock.Instant) -> Decision {
        guard enabled, !busy else { return .nothing }
        let face = ClockFace(snapshot)
        let key = Self.key(face, snapshot)
        guard key != shown else { return .nothing }
        busy = true
        let due = startedAt.map { $0 + Self.interval } ?? now
        startedAt = max(due, now)
        return .draw(face, key: key, after: due > now ? due - now : .zero)
    }

    /// A drawing ended; the retained messages to send when it succeeded.
    mutating func drawn(_ key: Key, _ pictures: (png: [UInt8], svg: [UInt8])?) -> [OutgoingMessage] {
        busy = false
        guard let pictures else { return [] }
        shown = key
        return [
            OutgoingMessage(topics.clockPNG, bytes: pictures.png, retain: true),
            OutgoingMessage(topics.clockSVG, bytes: pictures.svg, retain: true),
        ]
    }

    /// Forgets what was sent, so the next snapshot is drawn again (after a reconnect).
    mutating func forget() { shown = nil }
}
