import FoundationEssentials

/// One value of a series over a half-open interval `[start, end)`: a price per kWh in the currency
/// it was quoted in, or another ``Quantity``, with where it came from (``Provenance``).
public struct SeriesSlot: Sendable, Hashable {
    /// First instant the value applies to.
    public var start: Date
    /// First instant after the slot.
    public var end: Date
    /// The source's figure in the unit of ``quantity``: for a price with ``PriceBasis/market`` the
    /// wholesale price without surcharge or VAT.
    public var value: Double
    /// What the value measures; a price's currency is converted only for a profile that shows another.
    public var quantity: Quantity
    /// What a price already holds, and so which parts of the formula are still added.
    public var basis: PriceBasis
    /// The source's own rating of the value, where it gives one.
    public var level: PriceLevel?
    /// Where the value came from: stamped by the manager on a fetch and by the store on a load.
    public var provenance: Provenance

    /// A slot of `quantity`; `end` must be after `start`.
    public init(
        start: Date, end: Date, value: Double, quantity: Quantity, basis: PriceBasis = .market, level: PriceLevel? = nil,
        provenance: Provenance = .official("")
    ) {
        self.start = start
        self.end = end
        self.value = value
        self.quantity = quantity
        self.basis = basis
        self.level = level
        self.provenance = provenance
    }

    /// A price slot in `currency`; `end` must be after `start`.
    public init(
        start: Date, end: Date, value: Double, currency: Currency = .eur, basis: PriceBasis = .market, level: PriceLevel? = nil,
        provenance: Provenance = .official("")
    ) {
        self.init(start: start, end: end, value: value, quantity: .price(currency), basis: basis, level: level, provenance: provenance)
    }

    /// The currency of a price slot; nil for another quantity.
    public var currency: Currency? { quantity.currency }

    /// The name of the source's rating of the value: a grid signal's state as its operator names
    /// it (``GridScale``), otherwise ``level`` in the words of ``quantity``; nil for none.
    public var levelName: String? {
        if let scale = quantity.gridScale { return scale.state(at: value)?.name }
        return level?.name(for: quantity)
    }

    /// Length of the slot in seconds.
    public var duration: TimeInterval { end.timeIntervalSince(start) }

    /// Whether `instant` lies inside `[start, end)`.
    public func contains(_ instant: Date) -> Bool { start <= instant && instant < end }
}

extension Array where Element == SeriesSlot {
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
    public func overlapping(_ interval: DateInterval) -> ArraySlice<SeriesSlot> {
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
    func partitionIndex(where predicate: (SeriesSlot) -> Bool) -> Int {
        var low = startIndex
        var high = endIndex
        while low < high {
            let mid = (low + high) / 2
            if predicate(self[mid]) { high = mid } else { low = mid + 1 }
        }
        return low
    }

    /// These slots as fetched from `source` at `issued`: a forecast (as a carbon source marks
    /// the values ahead) issued then, any other slot the source's official value.
    public func stamped(_ source: String, issued: Date) -> [SeriesSlot] {
        let name = SourceName(source)
        return map { slot in
            var slot = slot
            slot.provenance = Provenance(source: name, kind: slot.provenance.isOfficial ? .official : .forecast(issued: issued))
            return slot
        }
    }

    /// These slots, each marked as coming from `provenance`.
    public func stamped(_ provenance: Provenance) -> [SeriesSlot] {
        map { slot in
            var slot = slot
            slot.provenance = provenance
            return slot
        }
    }

    /// Replaces every slot that overlaps the span of `incoming` with `incoming`, keeping the order;
    /// official values win (``Provenance``): a forecast never replaces an official slot held, and
    /// an official slot replaces any forecast.
    public func replacing(with incoming: [SeriesSlot]) -> [SeriesSlot] {
        guard let first = incoming.first, let last = incoming.last else { return self }
        var merged = filter { $0.end <= first.start || $0.start >= last.end }
        if incoming.allSatisfy(\.provenance.isOfficial) {
            merged.append(contentsOf: incoming)
        } else {
            let official = incoming.filter(\.provenance.isOfficial)
            func overlaps(_ slot: SeriesSlot, anyOf slots: [SeriesSlot]) -> Bool {
                !slots.overlapping(DateInterval(start: slot.start, end: slot.end)).isEmpty
            }
            // Official slots held in the span stay where no official slot comes; forecasts come
            // only where no official slot is.
            let held = overlapping(DateInterval(start: first.start, end: last.end))
                .filter { $0.provenance.isOfficial && !overlaps($0, anyOf: official) }
            merged.append(contentsOf: held)
            merged.append(contentsOf: incoming.filter { $0.provenance.isOfficial || !overlaps($0, anyOf: held) })
        }
        merged.sort { $0.start < $1.start }
        return merged
    }
}
