import FoundationEssentials

/// Priced slots cut into units of equal running time, so that a job's duration is time whatever
/// the slots' lengths: with hours today and quarter hours tomorrow, two hours are eight quarters
/// of either.
///
/// The unit is the greatest common divisor of the slots' lengths in whole seconds: a day of one
/// length is cut into its own slots, and nothing changes for it.
struct TimeGrid: Equatable {
    /// Seconds per unit.
    let unit: Int

    /// The most units one plan looks at: two days of four-second slots. Finer units are refused
    /// with the reason, before anything is cut.
    static let maxUnits = 50_000

    /// The grid for `slots` and the slots already run, `held`; one second at the finest.
    init(_ slots: ArraySlice<PricedSlot>, held: [Plan.Slot]) {
        var divisor = 0
        func add(_ duration: Double) {
            var a = Self.seconds(duration)
            guard a != divisor else { return }
            var b = divisor
            while b != 0 { (a, b) = (b, a % b) }
            divisor = a
        }
        for slot in slots { add(slot.slot.duration) }
        for slot in held { add(slot.duration) }
        unit = max(divisor, 1)
    }

    /// A grid of `unit` seconds.
    init(unit: Int) { self.unit = max(unit, 1) }

    /// `duration` in whole seconds, at least one: slots are validated to last a second to a day.
    static func seconds(_ duration: Double) -> Int {
        guard duration.isFinite else { return 1 }
        // Positive once held to its range: truncating half a second up rounds it.
        return Int(min(max(duration, 1), 86_400 * 7) + 0.5)
    }

    /// Units in `seconds` seconds of running time, rounded up: a job runs at least as long as set.
    func units(covering seconds: Double) -> Int {
        guard seconds > 0 else { return 0 }
        return Int((min(seconds, 1e9) / Double(unit)).rounded(.up))
    }

    /// Units in a slot lasting `duration` seconds, which the grid divides.
    func units(in duration: Double) -> Int { max(1, Self.seconds(duration) / unit) }

    /// How many units `slots` are cut into.
    func count(_ slots: ArraySlice<PricedSlot>) -> Int {
        slots.reduce(0) { Planner.sum($0, units(in: $1.slot.duration)) }
    }

    /// `slots` cut into units, each a candidate at its slot's cost, and the slot each belongs to.
    func cut(_ slots: ArraySlice<PricedSlot>) -> (candidates: [Planner.Candidate], owners: [Int]) {
        var candidates: [Planner.Candidate] = []
        var owners: [Int] = []
        let total = count(slots)
        candidates.reserveCapacity(total)
        owners.reserveCapacity(total)
        for index in slots.indices {
            let priced = slots[index]
            let cost = Self.cost(priced.cost)
            let pieces = units(in: priced.slot.duration)
            for piece in 0..<pieces {
                let start = priced.slot.start.addingTimeInterval(Double(piece * unit))
                // The last unit ends where its slot does, to the last fraction of a second.
                let end = piece == pieces - 1 ? priced.slot.end : start.addingTimeInterval(Double(unit))
                candidates.append(Planner.Candidate(start: start, end: end, cost: cost))
                owners.append(index)
            }
        }
        return (candidates, owners)
    }

    /// The chosen units, in order, joined back into slots: each run of units of one slot becomes
    /// one (a part of an hour when only a part is chosen), at that slot's price.
    static func slots(_ picks: [Int], of candidates: [Planner.Candidate], owners: [Int], in slots: ArraySlice<PricedSlot>)
        -> [Plan.Slot]
    {
        var result: [Plan.Slot] = []
        var previous: Int?
        for pick in picks {
            if let previous, previous == pick - 1, owners[previous] == owners[pick] {
                result[result.count - 1].end = candidates[pick].end
            } else {
                result.append(Plan.Slot(start: candidates[pick].start, end: candidates[pick].end, price: slots[owners[pick]].price))
            }
            previous = pick
        }
        return result
    }

    /// `price` in whole millionths, held to what an `Int64` can sum over two days of seconds.
    static func cost(_ price: Double) -> Int64 {
        guard price.isFinite else { return 0 }
        return Int64((min(max(price, -1e6), 1e6) * 1_000_000).rounded())
    }
}
