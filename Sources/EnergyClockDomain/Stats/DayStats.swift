import FoundationEssentials

/// Summary figures of one day's priced slots.
public struct DayStats: Sendable, Equatable {
    /// Lowest consumer price.
    public var min: Double
    /// Highest consumer price.
    public var max: Double
    /// Time-weighted mean consumer price.
    public var mean: Double
    /// Median of the slot prices (linear interpolation, as the quartiles).
    public var median: Double
    /// The cheapest slot (the earliest, when several tie).
    public var cheapest: PricedSlot
    /// The dearest slot (the earliest, when several tie).
    public var mostExpensive: PricedSlot
    /// Number of slots.
    public var count: Int

    /// The figures of `slots`, or nil when there are none.
    public static func of(_ slots: [PricedSlot]) -> DayStats? {
        guard var cheapest = slots.first, var dearest = slots.first else { return nil }
        var weighted = 0.0
        var seconds = 0.0
        for slot in slots {
            if slot.price < cheapest.price { cheapest = slot }
            if slot.price > dearest.price { dearest = slot }
            weighted += slot.price * slot.slot.duration
            seconds += slot.slot.duration
        }
        return DayStats(
            min: cheapest.price, max: dearest.price, mean: weighted / seconds,
            median: Thresholds.quantile(slots.map(\.price).sorted(), 0.5),
            cheapest: cheapest, mostExpensive: dearest, count: slots.count
        )
    }

    /// How many of the day's slots are cheaper than `price`.
    public func rank(of price: Double, in slots: [PricedSlot]) -> Int {
        slots.reduce(0) { $0 + ($1.price < price ? 1 : 0) }
    }

    /// Where `price` lies between the day's minimum (0) and maximum (1); 0 on a flat day.
    public func quantile(of price: Double) -> Double {
        max > min ? Swift.min(1, Swift.max(0, (price - min) / (max - min))) : 0
    }
}
