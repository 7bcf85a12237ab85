import FoundationEssentials

/// A stretch of consecutive slots and its time-weighted mean price.
public struct PriceWindow: Sendable, Equatable {
    /// First instant of the window.
    public var start: Date
    /// First instant after it.
    public var end: Date
    /// Time-weighted mean consumer price over the window.
    public var meanPrice: Double

    /// The cheapest window of exactly `hours` hours of consecutive `slots` that starts no earlier
    /// than the slot holding `now` (or `now` itself between slots).
    ///
    /// Works on slots of any length, quarter-hours and daylight-saving days included: the window
    /// must begin at a slot start and end exactly at a slot end, without gaps. Ties go to the
    /// earliest window. Runs in O(n log n) through prefix sums.
    public static func cheapest(hours: Int, in slots: [PricedSlot], from now: Date) -> PriceWindow? {
        let length = Double(hours) * 3600
        guard hours > 0 else { return nil }
        let first = slots.firstIndex { $0.slot.end > now } ?? slots.endIndex
        let candidates = Array(slots[first...])
        guard !candidates.isEmpty else { return nil }
        // Prefix sums of price × seconds, and the index where each contiguous run begins.
        var weighted = [0.0]
        weighted.reserveCapacity(candidates.count + 1)
        var runStart = [Int](repeating: 0, count: candidates.count)
        for (i, slot) in candidates.enumerated() {
            weighted.append(weighted[i] + slot.price * slot.slot.duration)
            runStart[i] = i > 0 && candidates[i - 1].slot.end == slot.slot.start ? runStart[i - 1] : i
        }
        var best: PriceWindow?
        for (i, slot) in candidates.enumerated() {
            let target = slot.slot.start.addingTimeInterval(length)
            // The slot that ends exactly at `target`, by binary search over ends.
            var low = i
            var high = candidates.count
            while low < high {
                let mid = (low + high) / 2
                if candidates[mid].slot.end < target { low = mid + 1 } else { high = mid }
            }
            guard low < candidates.count, candidates[low].slot.end == target, runStart[low] <= i else { continue }
            let mean = (weighted[low + 1] - weighted[i]) / length
            if best == nil || mean < best!.meanPrice {
                best = PriceWindow(start: slot.slot.start, end: target, meanPrice: mean)
            }
        }
        return best
    }
}
