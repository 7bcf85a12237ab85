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
    /// earliest window. Runs in O(n) through prefix sums: the slot where a window ends only moves
    /// forward as its start does.
    public static func cheapest(hours: Int, in slots: [PricedSlot], from now: Date) -> PriceWindow? {
        guard hours > 0 else { return nil }
        let length = Double(hours) * 3600
        let first = slots.firstIndex { $0.slot.end > now } ?? slots.endIndex
        guard first < slots.endIndex else { return nil }
        // Prefix sums of price × seconds from `first`, and the index where each contiguous run begins.
        var weighted = [0.0]
        weighted.reserveCapacity(slots.endIndex - first + 1)
        var runStart: [Int] = []
        runStart.reserveCapacity(slots.endIndex - first)
        for k in first..<slots.endIndex {
            weighted.append(weighted[k - first] + slots[k].price * slots[k].slot.duration)
            runStart.append(k > first && slots[k - 1].slot.end == slots[k].slot.start ? runStart[k - first - 1] : k)
        }
        var best: PriceWindow?
        var low = first
        for i in first..<slots.endIndex {
            let start = slots[i].slot.start
            let target = start.addingTimeInterval(length)
            // The first slot from `i` that ends at or after `target`.
            low = max(low, i)
            while low < slots.endIndex, slots[low].slot.end < target { low += 1 }
            guard low < slots.endIndex, slots[low].slot.end == target, runStart[low - first] <= i else { continue }
            let mean = (weighted[low + 1 - first] - weighted[i - first]) / length
            if best == nil || mean < best!.meanPrice {
                best = PriceWindow(start: start, end: target, meanPrice: mean)
            }
        }
        return best
    }
}
