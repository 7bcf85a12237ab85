import EnergyClockDomain
import EnergyClockFace
import FoundationEssentials

/// The clock as retained pictures on `clock/png` and `clock/svg`, redrawn when what they show
/// changes (a band, the thresholds, the palette, the current slot), never more than once a second,
/// and never in the last ``boundaryMargin`` seconds of a slot.
///
/// The drawing runs in the `energyclock-render` helper, one at a time; a change while one is under
/// way is drawn after it, from the newest snapshot. A failed drawing is tried again after a pause
/// that doubles with each failure (30 s up to 30 minutes), at the next change after it, never in a
/// loop; each kind of failure is logged once until a drawing works again.
struct ClockOutput {
    let topics: TopicTree
    let enabled: Bool
    /// What the pictures last sent show, without the hand, and the slot the hand was in.
    private var shown: Key?
    private var startedAt: Date?
    /// A drawing is under way, or waits for its second to come.
    private(set) var busy = false
    /// Drawings that failed in a row; each doubles the pause before the next try.
    private var failures = 0
    /// No drawing before this instant, after a failure.
    private var retryAt: Date?
    /// The kinds of failure logged since the last drawing that worked: each is logged once.
    private var loggedKinds: Set<String> = []

    /// The pause after the first failed drawing, doubled after each further one up to ``retryMax``.
    static let retryBase = Duration.seconds(30)
    static let retryMax = Duration.seconds(1800)

    /// The least time between two drawings.
    static let interval = Duration.seconds(1)

    /// What a picture shows, apart from the exact angle of its hand.
    struct Key: Equatable {
        var face: ClockFace
        var slot: SeriesSlot?
    }

    /// What to do about a snapshot.
    enum Decision {
        case nothing
        /// Draw `face` at `time` (now when the last drawing is a second old), then report it as `key`.
        case draw(ClockFace, key: Key, at: Date)
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
    ///
    /// Times are wall-clock times; one that lies further ahead than any pause could (the clock was
    /// set back) counts as passed, so a clock set back cannot stop the drawings.
    mutating func decide(for snapshot: Snapshot, at now: Date) -> Decision {
        guard enabled, !busy, retryAt.map({ Self.passed($0, at: now, within: Self.retryMax) }) ?? true else { return .nothing }
        let face = ClockFace(snapshot)
        let key = Self.key(face, snapshot)
        guard key != shown else { return .nothing }
        let next = startedAt.map { $0.addingTimeInterval(Self.interval.timeInterval) } ?? now
        let due = Self.passed(next, at: now, within: Self.interval) ? now : next
        // The boundary's own snapshot comes at the boundary, and is drawn instead.
        if let slot = snapshot.current?.slot, due >= slot.end.addingTimeInterval(-Self.boundaryMargin), due < slot.end {
            return .nothing
        }
        busy = true
        startedAt = due
        return .draw(face, key: key, at: due)
    }

    /// How long before a slot boundary no drawing starts, in seconds: the helper takes a tenth of a
    /// second or more, and a picture started then would show the slot that has just ended.
    static let boundaryMargin = 0.1

    /// Whether `time` has come at `now`, or lies more than `limit` ahead of it.
    static func passed(_ time: Date, at now: Date, within limit: Duration) -> Bool {
        time <= now || time.timeIntervalSince(now) > limit.timeInterval
    }

    /// A drawing failed with a failure of `kind` at `now`: nothing is drawn until a pause has
    /// passed. Returns the pause, and whether this kind of failure is new since the last success
    /// and so worth a log line.
    mutating func failed(_ kind: String, at now: Date) -> (pause: Duration, log: Bool) {
        busy = false
        failures += 1
        var pause = Self.retryBase
        for _ in 1..<min(failures, 8) { pause = min(pause * 2, Self.retryMax) }
        retryAt = now.addingTimeInterval(pause.timeInterval)
        return (pause, loggedKinds.insert(kind).inserted)
    }

    /// A drawing ended without a picture or a failure (it was stopped): tried again at the next change.
    mutating func abandoned() { busy = false }

    /// A drawing succeeded: the retained messages to send, and whether drawing failed before.
    mutating func drawn(_ key: Key, _ pictures: (png: [UInt8], svg: [UInt8])) -> (messages: [OutgoingMessage], recovered: Bool) {
        busy = false
        failures = 0
        retryAt = nil
        let recovered = !loggedKinds.isEmpty
        loggedKinds = []
        shown = key
        let messages = [
            OutgoingMessage(topics.clockPNG, bytes: pictures.png, retain: true),
            OutgoingMessage(topics.clockSVG, bytes: pictures.svg, retain: true),
        ]
        return (messages, recovered)
    }

    /// Forgets what was sent, so the next snapshot is drawn again (after a reconnect).
    mutating func forget() { shown = nil }
}
