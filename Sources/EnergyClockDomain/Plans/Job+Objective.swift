import FoundationEssentials

extension Job {
    /// Whether it needs each slot's carbon intensity from the profile's `carbon_source`.
    public var weighsCarbon: Bool { minimise == .co2 || minimise == .co2Price }

    /// `slots` (priced, in time order) as this job weighs them: each slot's ``PricedSlot/cost``
    /// becomes what the job minimises, while its price stays as published, which the plan shows.
    ///
    /// With `minimise: co2` that is the slot's carbon intensity, the time-weighted mean of the
    /// `intensity` slots over it; with `co2_price` the price plus that intensity times `co2_price`
    /// per tonne (a million grams). A slot the intensity does not cover whole is left out, never
    /// weighed with a guessed intensity.
    public func weighed(_ slots: [PricedSlot], intensity: [SeriesSlot]) -> [PricedSlot] {
        guard weighsCarbon else { return slots }
        let perGram = (co2Price ?? 0) / 1_000_000
        var weighed: [PricedSlot] = []
        weighed.reserveCapacity(slots.count)
        for slot in slots {
            guard let grams = intensity.mean(over: DateInterval(start: slot.slot.start, end: slot.slot.end)) else { continue }
            var next = slot
            next.cost = minimise == .co2 ? grams : slot.price + grams * perGram
            weighed.append(next)
        }
        return weighed
    }
}

extension Array where Element == SeriesSlot {
    /// The time-weighted mean value of these sorted slots over `interval`; nil unless they cover
    /// it without a gap.
    public func mean(over interval: DateInterval) -> Double? {
        let parts = overlapping(interval)
        guard !parts.isEmpty, Array(parts).covers(interval), interval.duration > 0 else { return nil }
        var sum = 0.0
        for part in parts {
            let seconds = Swift.min(part.end, interval.end).timeIntervalSince(Swift.max(part.start, interval.start))
            sum += part.value * seconds
        }
        let mean = sum / interval.duration
        return mean.isFinite ? mean : nil
    }
}
