import FoundationEssentials

/// A price with its start and, where the source says so, its end.
struct PricePoint {
    var start: Date
    var end: Date?
    var price: Double
    /// The source's own rating of the price, where it gives one.
    var level: PriceLevel? = nil
}

extension Array where Element == PricePoint {
    /// Slots in `currency` on `basis` from points whose missing ends are the next start; the last one lasts as long as the
    /// slot before it. Points out of time order are refused, not sorted: a list that is not in
    /// order cannot be trusted to mean what it seems to.
    func slots(
        source: String, currency: Currency = .eur, basis: PriceBasis = .market
    ) throws(SourceError) -> [PriceSlot] {
        let points = self
        var slots: [PriceSlot] = []
        slots.reserveCapacity(points.count)
        for (index, point) in points.enumerated() {
            let end: Date
            if let given = point.end {
                end = given
            } else if index + 1 < points.count {
                end = points[index + 1].start
            } else if let previous = slots.last {
                // The last slot lasts as long as the one before it, not as long as the gap before it.
                end = point.start.addingTimeInterval(previous.duration)
            } else {
                throw SourceError(source: source, problem: .malformed("a single price without an end has no known length"))
            }
            slots.append(
                PriceSlot(
                    start: point.start, end: end, market: point.price, currency: currency, basis: basis,
                    level: point.level))
        }
        return try slots.validated(from: source)
    }
}
