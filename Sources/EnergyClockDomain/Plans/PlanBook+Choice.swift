import FoundationEssentials

extension PlanBook {
    /// One job's choice of the units still to come: the grid it is made on, the job's length and
    /// shortest block in units, and what it chose from.
    struct Choice {
        let grid: TimeGrid
        let count: Int
        let minRun: Int
        /// The candidates offered, and the starts of those chosen.
        private(set) var offered: [Planner.Candidate] = []
        private(set) var picked: [Date] = []

        init(grid: TimeGrid, count: Int, minRun: Int) {
            self.grid = grid
            self.count = count
            self.minRun = minRun
        }

        /// How a choice ends.
        enum Outcome {
            /// These slots, in order.
            case chosen([Plan.Slot])
            /// Not tried: it would cost more than its budget, or look at more than a plan may.
            case refused(String)
            /// No choice fits, for this reason (unless the window reaches past the known prices).
            case none(String)
        }

        /// Chooses `need` units from `allowed` (the window's open slots at or below the job's
        /// price limit; `open` without that limit), after taking what it costs from `left`. An
        /// unchanged choice of `memory` is taken over when `reuses`.
        mutating func make(
            _ job: Job, need: Int, allowed: ArraySlice<PricedSlot>, open: ArraySlice<PricedSlot>, continuing: Date?, memory: Kept?,
            reuses: Bool,
            left: inout Allowance
        ) -> Outcome {
            let contiguous = job.contiguous
            let units = grid.count(allowed)
            let unitsOpen = job.maxPrice == nil ? 0 : grid.count(open)
            let most = max(units, unitsOpen)
            guard most <= TimeGrid.maxUnits else {
                return .refused(
                    "its window's slots make \(most) units of \(PlanBook.text(seconds: grid.unit)) (the common length of its slots), "
                        + "more than the \(TimeGrid.maxUnits) a plan looks at; show hourly slots (resolution: hour)")
            }
            var work = Planner.work(candidates: units, count: need, minRun: minRun, contiguous: contiguous)
            if job.maxPrice != nil {
                work = work + Planner.work(candidates: unitsOpen, count: need, minRun: minRun, contiguous: contiguous)
            }
            guard work.fits(Planner.jobBudget) else {
                // No count of steps in the reason: it moves with the window, and the reason is shown
                // and logged again only when it changes.
                return .refused(
                    "choosing \(need) units of \(PlanBook.text(seconds: grid.unit)) in pieces takes more than the "
                        + "\(Planner.jobBudget.steps) steps a job may; make it contiguous, raise min_block or show hourly slots (resolution: hour)"
                )
            }
            guard work.steps <= left.steps else { return .refused(Self.spent(left)) }
            left.steps -= work.steps

            let (candidates, owners) = grid.cut(allowed)
            offered = candidates
            let from = candidates.first?.start ?? .distantFuture
            let picks =
                (reuses ? memory.flatMap { Self.reusable($0, grid: grid, offered: candidates, from: from, need: need) } : nil)
                ?? Planner.choose(candidates, count: need, minRun: minRun, contiguous: contiguous, continuing: continuing)
            if let picks {
                picked = picks.map { candidates[$0].start }
                return .chosen(TimeGrid.slots(picks, of: candidates, owners: owners, in: allowed))
            }
            let fitsWithoutLimit =
                job.maxPrice != nil
                && Planner.choose(grid.cut(open).candidates, count: need, minRun: minRun, contiguous: contiguous, continuing: continuing)
                    != nil
            if fitsWithoutLimit {
                return .none("too few slots at or below max_price \(DecimalFormat.string(job.maxPrice!)) are left in the window")
            }
            let left = grid.count(open)
            if left < need {
                return .none(
                    "only \(PlanBook.text(seconds: left * grid.unit)) of the \(PlanBook.text(seconds: need * grid.unit)) it needs are left in the window"
                )
            }
            return .none(
                "the slots left in the window hold no "
                    + (contiguous
                        ? "block of \(PlanBook.text(seconds: need * grid.unit))"
                        : "blocks of \(PlanBook.text(seconds: minRun * grid.unit)) or more") + " without a gap")
        }

        /// Why a job gets nothing of `allowance`: the jobs before it took it.
        static func spent(_ allowance: Allowance) -> String {
            allowance.daemon
                ? "the daemon's planning budget (\(PlanBook.daemonBudget) steps at a time, shared by the profiles in order) is used up by the jobs before it"
                : "the profile's planning budget (\(PlanBook.profileBudget) steps at a time) is used up by its jobs before it by name"
        }

        /// The indices in `offered` of the kept plan's units still to come (from `from` on), when
        /// choosing again would choose them: the grid is the same, the candidates are the kept ones
        /// but for those now past, and they hold every one of those units. The kept choice was the
        /// earliest optimum over more candidates, so it is the earliest over fewer that still hold it
        /// (with the blocks run since as its start). A boundary then costs a comparison, not a choice.
        static func reusable(_ memory: Kept, grid: TimeGrid, offered: [Planner.Candidate], from: Date, need: Int) -> [Int]? {
            guard memory.grid == grid, !memory.offered.isEmpty, offered.count <= memory.offered.count,
                memory.offered.suffix(offered.count).elementsEqual(offered)
            else { return nil }
            let ahead = memory.chosen.filter { $0 >= from }
            guard ahead.count == need else { return nil }
            var picks: [Int] = []
            var i = 0
            for start in ahead {
                while i < offered.count, offered[i].start < start { i += 1 }
                guard i < offered.count, offered[i].start == start else { return nil }
                picks.append(i)
            }
            return picks
        }
    }

    /// `held` with each slot's price as `slots` (the profile's priced slots in time order) give
    /// it now; a slot no longer among them keeps the price it had.
    static func repriced(_ held: [Plan.Slot], from slots: [PricedSlot]) -> [Plan.Slot] {
        held.map { slot in
            var slot = slot
            var low = 0
            var high = slots.count
            while low < high {
                let mid = (low + high) / 2
                if slots[mid].slot.end > slot.start { high = mid } else { low = mid + 1 }
            }
            if low < slots.count, slots[low].slot.start <= slot.start, slot.end <= slots[low].slot.end { slot.price = slots[low].price }
            return slot
        }
    }

    /// The time-weighted mean price of `slots`, as ``mean(_:)``.
    static func mean(of slots: ArraySlice<PricedSlot>) -> Double? { mean(slots.lazy.map { ($0.price, $0.slot.duration) }) }

    /// The time-weighted mean of `pieces` (a price and its seconds), rounded as published; nil for none.
    /// Weights are relative to the first piece, so that pieces of one length are a plain mean.
    static func mean(_ pieces: some Sequence<(price: Double, seconds: Double)>) -> Double? {
        var first: Double?
        var sum = 0.0
        var weights = 0.0
        for piece in pieces {
            if first == nil { first = piece.seconds }
            guard let first, first > 0 else { return nil }
            let weight = piece.seconds / first
            sum += piece.price * weight
            weights += weight
        }
        return first == nil ? nil : DecimalFormat.rounded(sum / weights)
    }

    /// The mean price of running `seconds` from the start of the slot holding `now` (or the next
    /// one) in `slots`; nil when they do not reach that far without a gap.
    static func meanRunningNow(_ slots: [PricedSlot], at now: Date, seconds: Double) -> Double? {
        guard seconds > 0, let first = slots.firstIndex(where: { $0.slot.end > now }) else { return nil }
        var pieces: [(price: Double, seconds: Double)] = []
        var remaining = seconds
        for index in first..<slots.count {
            if index > first, slots[index - 1].slot.end != slots[index].slot.start { return nil }
            let part = min(remaining, slots[index].slot.duration)
            pieces.append((slots[index].price, part))
            remaining -= part
            if remaining <= 0 { return mean(pieces) }
        }
        return nil
    }

    /// `seconds` of running time as a person reads it: `45 min`, `2 h`, `1 h 30 min`, `20 s`.
    static func text(seconds: Int) -> String {
        let hours = seconds / 3600
        let minutes = seconds % 3600 / 60
        let rest = seconds % 60
        var parts: [String] = []
        if hours > 0 { parts.append("\(hours) h") }
        if minutes > 0 { parts.append("\(minutes) min") }
        if rest > 0 || parts.isEmpty { parts.append("\(rest) s") }
        return parts.joined(separator: " ")
    }
}
