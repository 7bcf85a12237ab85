import FoundationEssentials

/// What is wrong with a list of slots a source delivered.
@nonexhaustive
public enum SlotProblem: Error, Sendable, Equatable, CustomStringConvertible {
    /// A value that is NaN or infinite.
    case nonFinite(at: Date)
    /// A value beyond ±`limit` in the unit of `quantity` (``Quantity/limit``).
    case outOfRange(value: Double, at: Date, limit: Double, quantity: Quantity)
    /// A slot whose end is not after its start.
    case emptySlot(at: Date)
    /// A slot shorter than one second, the shortest the store keeps apart.
    case tooShort(at: Date, seconds: Double)
    /// A slot that starts before the previous one ends.
    case overlapOrUnsorted(at: Date)
    /// A slot longer than a day, the longest any market prices at once.
    case tooLong(at: Date, seconds: Double)
    /// A slot whose start or end is not a finite time, or lies outside the window slots may lie in.
    case outsideWindow(at: Date, window: SlotWindow)

    /// A one-line explanation.
    public var description: String {
        switch self {
        case let .nonFinite(at): "price at \(ISO8601.utc(at)) is not a finite number"
        case let .outOfRange(value, at, limit, quantity):
            "\(quantity.noun) \(DecimalFormat.string(value)) \(quantity.unit) at \(ISO8601.utc(at)) is beyond ±\(DecimalFormat.string(limit))"
        case let .emptySlot(at): "slot at \(ISO8601.utc(at)) ends before it starts"
        case let .tooShort(at, seconds):
            "slot at \(ISO8601.utc(at)) lasts \(DecimalFormat.string(seconds, decimals: 3)) s; slots must last at least 1 second"
        case let .overlapOrUnsorted(at): "slot at \(ISO8601.utc(at)) overlaps the previous one or is out of order"
        case let .tooLong(at, seconds):
            "slot at \(ISO8601.utc(at)) lasts \(DecimalFormat.string(seconds, decimals: 0)) s; slots must last at most a day"
        case let .outsideWindow(at, window):
            "slot at \(ISO8601.utc(at)) lies outside \(ISO8601.utc(window.earliest)) to \(ISO8601.utc(window.latest))"
        }
    }
}

/// The span of time that slots from a source may lie in.
///
/// Every slot passes through `validated(within:)`: a time far outside any sensible
/// range is refused there, before the store turns it into rows or a formatter into text.
public struct SlotWindow: Sendable, Hashable {
    /// The earliest start a slot may have.
    public var earliest: Date
    /// The latest end a slot may have.
    public var latest: Date

    /// A window from `earliest` to `latest`.
    public init(earliest: Date, latest: Date) {
        self.earliest = earliest
        self.latest = latest
    }

    /// What any answer may hold before it is compared with the clock: 2000 to 2100.
    public static let plausible = SlotWindow(
        earliest: Date(timeIntervalSince1970: Bounded.epochSeconds.lowerBound),
        latest: Date(timeIntervalSince1970: Bounded.epochSeconds.upperBound))

    /// Days of history a fetched slot may be older than now: two years.
    public static let daysBack = 731.0
    /// Days a fetched slot may end after now: a week, while day-ahead markets publish one day ahead.
    public static let daysAhead = 7.0

    /// Two years before `now` to a week after it: what a fetch at `now` may deliver.
    public static func around(_ now: Date) -> SlotWindow {
        SlotWindow(earliest: now.addingTimeInterval(-daysBack * 86_400), latest: now.addingTimeInterval(daysAhead * 86_400))
    }

    /// Whether `slot` starts and ends inside the window.
    func contains(_ slot: SeriesSlot) -> Bool { contains(slot.start) && contains(slot.end) }

    /// Whether `instant` lies inside the window; never for a time that is not finite.
    func contains(_ instant: Date) -> Bool { instant >= earliest && instant <= latest }
}

extension Array where Element == SeriesSlot {
    /// Largest absolute price accepted from any source, in EUR/kWh.
    public static var priceLimit: Double { 10 }

    /// Longest slot accepted from any source, in seconds: a day.
    public static var longestSlot: Double { 86_400 }

    /// Checks that slots lie in `window`, have finite values within their quantity's limit (±10
    /// EUR/kWh for a price, or as much in its own currency, see ``Currency/priceLimit``), last a
    /// second to a day, and are sorted and non-overlapping.
    public func validated(within window: SlotWindow = .plausible) throws(SlotProblem) -> [SeriesSlot] {
        var previousEnd = Date.distantPast
        for slot in self {
            guard window.contains(slot) else {
                throw .outsideWindow(at: window.contains(slot.start) ? slot.end : slot.start, window: window)
            }
            guard slot.value.isFinite else { throw .nonFinite(at: slot.start) }
            let limit = slot.quantity.limit
            guard abs(slot.value) <= limit else {
                throw .outOfRange(value: slot.value, at: slot.start, limit: limit, quantity: slot.quantity)
            }
            guard slot.end > slot.start else { throw .emptySlot(at: slot.start) }
            guard slot.duration >= 1 else { throw .tooShort(at: slot.start, seconds: slot.duration) }
            guard slot.duration <= Self.longestSlot else { throw .tooLong(at: slot.start, seconds: slot.duration) }
            guard slot.start >= previousEnd else { throw .overlapOrUnsorted(at: slot.start) }
            previousEnd = slot.end
        }
        return self
    }
}
