import EnergyClockDomain
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
    ///
    /// A price is never carried into a gap: where the next start is further away than the
    /// spacing on either side of it (04:30, then nothing until 07:00, in half hours), a point
    /// without an end lasts as long as the slot before it (or after the gap), and the gap stays.
    func slots(
        source: String, currency: Currency = .eur, basis: PriceBasis = .market
    ) throws(SourceError) -> [SeriesSlot] {
        let points = self
        var slots: [SeriesSlot] = []
        slots.reserveCapacity(points.count)
        for (index, point) in points.enumerated() {
            let end: Date
            if let given = point.end {
                end = given
            } else if index + 1 < points.count {
                let next = points[index + 1].start
                let before = index > 0 ? point.start.timeIntervalSince(points[index - 1].start) : nil
                let after = index + 2 < points.count ? points[index + 2].start.timeIntervalSince(next) : nil
                // The wider spacing on either side, 0 where neither is known (no array for two
                // optionals: this runs for every point of an answer).
                let usual = Swift.max(before ?? 0, after ?? 0)
                if usual > 0, next.timeIntervalSince(point.start) > usual {
                    end = point.start.addingTimeInterval(before ?? usual)
                } else {
                    end = next
                }
            } else if let previous = slots.last {
                // The last slot lasts as long as the one before it, not as long as the gap before it.
                end = point.start.addingTimeInterval(previous.duration)
            } else {
                throw SourceError(source: source, problem: .malformed("a single price without an end has no known length"))
            }
            slots.append(
                SeriesSlot(
                    start: point.start, end: end, value: point.price, currency: currency, basis: basis,
                    level: point.level))
        }
        return try slots.validated(from: source)
    }
}
