import FoundationEssentials

/// What is wrong with a list of slots a source delivered.
@nonexhaustive
public enum SlotProblem: Error, Sendable, Equatable, CustomStringConvertible {
    /// A price that is NaN or infinite.
    case nonFinite(at: Date)
    /// A price beyond ±`limit` EUR/kWh.
    case outOfRange(price: Double, at: Date, limit: Double)
    /// A slot whose end is not after its start.
    case emptySlot(at: Date)
    /// A slot shorter than one second, the shortest the store keeps apart.
    case tooShort(at: Date, seconds: Double)
    /// A slot that starts before the previous one ends.
    case overlapOrUnsorted(at: Date)

    /// A one-line explanation.
    public var description: String {
        switch self {
        case let .nonFinite(at): "price at \(ISO8601.utc(at)) is not a finite number"
        case let .outOfRange(price, at, limit):
            "price \(DecimalFormat.string(price)) EUR/kWh at \(ISO8601.utc(at)) is beyond ±\(DecimalFormat.string(limit))"
        case let .emptySlot(at): "slot at \(ISO8601.utc(at)) ends before it starts"
        case let .tooShort(at, seconds):
            "slot at \(ISO8601.utc(at)) lasts \(DecimalFormat.string(seconds, decimals: 3)) s; slots must last at least 1 second"
        case let .overlapOrUnsorted(at): "slot at \(ISO8601.utc(at)) overlaps the previous one or is out of order"
        }
    }
}

extension Array where Element == PriceSlot {
    /// Largest absolute price accepted from any source, in EUR/kWh.
    public static var priceLimit: Double { 10 }

    /// Checks that slots are finite, within ±10 EUR/kWh, at least a second long, sorted and non-overlapping.
    public func validated() throws(SlotProblem) -> [PriceSlot] {
        var previousEnd = Date.distantPast
        for slot in self {
            guard slot.market.isFinite else { throw .nonFinite(at: slot.start) }
            guard abs(slot.market) <= Self.priceLimit else {
                throw .outOfRange(price: slot.market, at: slot.start, limit: Self.priceLimit)
            }
            guard slot.end > slot.start else { throw .emptySlot(at: slot.start) }
            guard slot.duration >= 1 else { throw .tooShort(at: slot.start, seconds: slot.duration) }
            guard slot.start >= previousEnd else { throw .overlapOrUnsorted(at: slot.start) }
            previousEnd = slot.end
        }
        return self
    }
}
