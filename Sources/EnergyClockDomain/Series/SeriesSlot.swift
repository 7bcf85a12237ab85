import FoundationEssentials

/// One price over a half-open interval `[start, end)`, per kWh in the currency it was quoted in.
public struct PriceSlot: Sendable, Hashable {
    /// First instant the price applies to.
    public var start: Date
    /// First instant after the slot.
    public var end: Date
    /// The source's price per kWh in ``currency``: for ``PriceBasis/market`` the wholesale price
    /// without surcharge or VAT.
    public var market: Double
    /// The currency the source quoted the price in; it is converted only for a profile that shows another.
    public var currency: Currency
    /// What the price already holds, and so which parts of the formula are still added.
    public var basis: PriceBasis
    /// The source's own rating of the price, where it gives one.
    public var level: PriceLevel?

    /// Creates a slot; `end` must be after `start`.
    public init(
        start: Date, end: Date, market: Double, currency: Currency = .eur, basis: PriceBasis = .market, level: PriceLevel? = nil
    ) {
        self.start = start
        self.end = end
        self.market = market
        self.currency = currency
        self.basis = basis
        self.level = level
    }

    /// Length of the slot in seconds.
    public var duration: TimeInterval { end.timeIntervalSince(start) }

    /// Whether `instant` lies inside `[start, end)`.
    public func contains(_ instant: Date) -> Bool { start <= instant && instant < end }
}

extension Array where Element == PriceSlot {
    /// Whether these sorted slots cover `[interval.start, interval.end)` without a gap.
    public func covers(_ interval: DateInterval) -> Bool {
        var reached = interval.start
        for slot in self where slot.end > reached {
            if slot.start > reached { return false }
            reached = slot.end
            if reached >= interval.end { return true }
        }
        return reached >= interval.end
    }

    /// The slots that overlap `interval`, in order.
    public func overlapping(_ interval: DateInterval) -> ArraySlice<PriceSlot> {
        let lower = partitionIndex { $0.end > interval.start }
        var upper = lower
        while upper < endIndex, self[upper].start < interval.end { upper += 1 }
        return self[lower..<upper]
    }

    /// Index of the slot holding `instant`, if any.
    public func index(containing instant: Date) -> Int? {
        let i = partitionIndex { $0.end > instant }
        return i < endIndex && self[i].start <= instant ? i : nil
    }

    /// First index whose element satisfies `predicate`, assuming the array is partitioned by it.
    func partitionIndex(where predicate: (PriceSlot) -> Bool) -> Int {
        var low = startIndex
        var high = endIndex
        while low < high {
            let mid = (low + high) / 2
            if predicate(self[mid]) { high = mid } else { low = mid + 1 }
        }
        return low
    }

    /// Replaces every slot that overlaps the span of `incoming` with `incoming`, keeping the order.
    public func replacing(with incoming: [PriceSlot]) -> [PriceSlot] {
        guard let first = incoming.first, let last = incoming.last else { return self }
        var merged = filter { $0.end <= first.start || $0.start >= last.end }
        merged.append(contentsOf: incoming)
        merged.sort { $0.start < $1.start }
        return merged
    }
}
