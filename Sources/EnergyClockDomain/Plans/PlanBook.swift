import FoundationEssentials

/// The plans of one profile's jobs, and what each must keep: the manager holds one per profile.
///
/// A plan is made again from the prices whenever the profile is shown (new prices, new settings,
/// a slot boundary, a window that opens); with nothing changed the optimum is the same, so the
/// plan stands still. Once a job has started, the slots it has run stay in its plan (at their
/// prices now): a block in progress runs to its planned end, and a contiguous job keeps its whole
/// block however the prices move. Only the blocks still to come of a non-contiguous job are
/// chosen again.
///
/// A job's duration is running time, whatever the slots' lengths (``TimeGrid``). Every choice is
/// held to a budget known before it is made: ``Planner/jobBudget`` per job, and per profile the
/// ``Allowance`` it is given; a job beyond either is `unsatisfiable` with the reason, and costs
/// nothing more.
public struct PlanBook: Sendable {
    /// The last plan of a job, for the window it was made for.
    struct Kept: Sendable {
        var job: Job
        var window: DateInterval
        var slots: [Plan.Slot]
        var nowMeanPrice: Double?
        /// Whether its blocks were one, kept whole once started.
        var whole: Bool
        /// The grid, the candidates the units still to come were chosen from (none when too many
        /// to keep, see ``keptCandidates``), and the starts of the units chosen from them.
        var grid: TimeGrid
        var offered: [Planner.Candidate]
        var chosen: [Date]
        /// The slots of the blocks that had started: what a restart must not plan again.
        var started: [Plan.Slot]
    }

    /// What a profile's jobs may cost together, in steps of the planner, and whose budget limits
    /// it: the manager gives each profile what the daemon's budget leaves after the profiles
    /// before it, at most ``profileBudget``.
    public struct Allowance: Sendable, Equatable {
        /// Steps the jobs may take together, in name order.
        public var steps: Int
        /// Whether the daemon's budget, not the profile's, set ``steps``.
        public var daemon: Bool

        /// `steps` steps, limited by the daemon's budget when `daemon`.
        public init(steps: Int, daemon: Bool) {
            self.steps = steps
            self.daemon = daemon
        }

        /// A profile's own budget, whole.
        public static let profile = Allowance(steps: profileBudget, daemon: false)
    }

    /// Steps one profile's jobs may take together at each planning.
    public static let profileBudget = 2 * Planner.jobBudget.steps

    /// Steps all profiles' jobs may take together at each planning, shared in profile order (see
    /// ``Allowance``): what keeps a turn of the event loop that plans every profile (new prices,
    /// a new day) within about 10 ms here (`bench/run.sh`, "plan 64 profiles of 32 jobs", the
    /// most a daemon holds, each job a split one over two days of quarter hours).
    public static let daemonBudget = 2 * Planner.jobBudget.steps

    /// Steps counted for every job, whatever it chooses, plus one per slot in its window: finding
    /// its window and cutting it into units cost about as much as two thousand steps of a choice.
    static let jobOverhead = 2000

    /// Candidates kept per job to tell an unchanged choice at the next boundary: two days of
    /// quarter hours. A job over more is chosen again, within its budget, each time.
    static let keptCandidates = 256

    /// Some job's started blocks changed since this was last cleared: ``startedLines`` is to be saved.
    public var startedChanged = false

    /// Whether an unchanged choice is taken over rather than made again; off only to test that
    /// taking it over changes nothing.
    package var reusesChoices = true

    /// The steps the last ``plans(_:slots:knownUntil:now:calendar:allowance:)`` counted for the
    /// jobs it planned, reused choices included: what the next profile's allowance is short of.
    public private(set) var steps = 0

    var kept: [String: Kept] = [:]

    /// A book that keeps nothing yet.
    public init() {}

    /// The plans of `jobs` at `now`, by name in name order, from `slots` (the profile's priced
    /// slots in time order) whose prices are published up to `knownUntil`; the jobs take what
    /// they cost from `allowance` in that order. A job with `use_forecast` may also choose from
    /// `forecast`, the priced forecast slots from where `slots` end. A job that minimises carbon
    /// weighs the slots by `intensity`, the profile's carbon intensity in time order, and knows
    /// only as far as both are known (``Job/weighed(_:intensity:)``).
    public mutating func plans(
        _ jobs: [String: Job], slots: [PricedSlot], knownUntil: Date?, now: Date, calendar: LocalCalendar,
        allowance: Allowance = .profile, forecast: [PricedSlot] = [], intensity: [SeriesSlot] = []
    ) -> [Plan] {
        for name in kept.keys where jobs[name] == nil {
            if kept[name]?.started.isEmpty == false { startedChanged = true }
            kept[name] = nil
        }
        var left = allowance
        let tail = forecast.continuing(slots)
        let extended = tail.isEmpty ? slots : slots + tail
        let plans = jobs.sorted { $0.key < $1.key }.map { name, job in
            let ahead = job.useForecast && !tail.isEmpty
            var chosen = ahead ? extended : slots
            var known = ahead ? tail.last?.slot.end : knownUntil
            if job.weighsCarbon {
                chosen = job.weighed(chosen, intensity: intensity)
                // Known as far as the slots are weighed without a gap from the first on.
                var weighedUntil = Date.distantPast
                for slot in chosen {
                    if weighedUntil != .distantPast, slot.slot.start != weighedUntil { break }
                    weighedUntil = slot.slot.end
                }
                known = min(known ?? .distantPast, weighedUntil)
            }
            return plan(name, job, slots: chosen, knownUntil: known, officialUntil: knownUntil, now: now, calendar: calendar, left: &left)
        }
        steps = allowance.steps - left.steps
        return plans
    }

    private mutating func plan(
        _ name: String, _ job: Job, slots: [PricedSlot], knownUntil: Date?, officialUntil: Date?, now: Date, calendar: LocalCalendar,
        left: inout Allowance
    ) -> Plan {
        let window = job.occurrence(at: now, calendar: calendar, knownUntil: knownUntil)
        let memory = kept[name].flatMap { $0.job == job && $0.window.start == window.start ? $0 : nil }
        if left.steps == 0, memory?.started.isEmpty ?? true, now < window.end {
            // Nothing of the budget is left and nothing has run: refused before any work, so that
            // the jobs past the budget cost next to nothing.
            kept[name] = nil
            return Plan(
                name: name, status: .unsatisfiable, reason: Choice.spent(left), window: window, slots: [], meanPrice: nil,
                nowMeanPrice: nil, windowMeanPrice: nil, active: false, nextStart: nil)
        }
        let inWindow = Self.within(window, slots)
        // The blocks already run, at their prices now: a repriced slot shows in the plan's means.
        let held = Self.repriced(memory.map { Self.started($0.slots, at: now, whole: $0.whole) } ?? [], from: slots)
        let grid = TimeGrid(inWindow, held: held)
        left.steps = max(0, left.steps - Self.jobOverhead - inWindow.count)
        let count = grid.units(covering: Double(job.duration) * 60)
        let minRun = job.contiguous ? count : grid.units(covering: Double(job.minBlock) * 60)
        let windowKnown = job.window == nil || (knownUntil ?? .distantPast) >= window.end

        var result = Plan(
            name: name, status: .planned, reason: nil, window: window, slots: [], meanPrice: nil, nowMeanPrice: nil,
            windowMeanPrice: Self.mean(of: inWindow), active: false, nextStart: nil)
        var choice = Choice(grid: grid, count: count, minRun: minRun)
        if now >= window.end {
            // A once job whose window is over: it stays as it ran.
            result.slots = held
            result.status = .done
            if held.isEmpty { result.reason = "its window ended before it could run" }
            return finish(result, name, job, now, memory, slots, choice, officialUntil: officialUntil)
        }
        let need = max(0, count - held.reduce(0) { $0 + grid.units(in: $1.duration) })
        var chosen: [Plan.Slot] = []
        if need > 0 {
            let from = max(now, held.last?.end ?? now)
            let open = inWindow[Self.first(in: inWindow) { $0.slot.start >= from }...]
            let allowed = job.maxPrice.map { limit in ArraySlice(open.filter { $0.price <= limit }) } ?? open
            let outcome = choice.make(
                job, need: need, allowed: allowed, open: open, continuing: held.last?.end, memory: memory, reuses: reusesChoices,
                left: &left)
            switch outcome {
            case let .chosen(slots): chosen = slots
            case let .refused(reason):
                result.status = .unsatisfiable
                result.reason = reason
            case .none where !windowKnown:
                result.status = .waiting
                result.reason = "prices after \(ISO8601.local(knownUntil ?? now, in: calendar)) are not published yet"
            case let .none(reason):
                result.status = .unsatisfiable
                result.reason = reason
            }
        }
        result.slots = held + chosen
        result.tentative = result.slots.contains { $0.end > (officialUntil ?? .distantPast) }
        if result.status == .planned {
            if let end = result.slots.last?.end, now >= end {
                result.status = .done
            } else if result.slots.contains(where: { $0.contains(now) }) {
                result.status = .running
                result.reason = nil
            } else if !windowKnown {
                result.status = .waiting
                result.reason =
                    "planned on the prices known up to \(ISO8601.local(knownUntil ?? now, in: calendar)); planned again when more are published"
            } else if result.tentative {
                result.reason =
                    "planned on a forecast of the prices after \(ISO8601.local(officialUntil ?? now, in: calendar)); planned again when they are published"
            }
        }
        return finish(result, name, job, now, memory, slots, choice, officialUntil: officialUntil)
    }

    /// Fills in what follows from the chosen slots, and keeps the plan for next time.
    private mutating func finish(
        _ plan: Plan, _ name: String, _ job: Job, _ now: Date, _ memory: Kept?, _ slots: [PricedSlot], _ choice: Choice,
        officialUntil: Date?
    ) -> Plan {
        var plan = plan
        plan.meanPrice = Self.mean(plan.slots.lazy.map { ($0.price, $0.duration) })
        // Never on in a slot only a forecast prices, unless the job asks for it.
        plan.active = plan.slots.contains { $0.contains(now) } && (job.runOnForecast || now < (officialUntil ?? .distantPast))
        plan.nextStart = plan.slots.indices.first { i in
            plan.slots[i].start > now && (i == 0 || plan.slots[i - 1].end != plan.slots[i].start)
        }.map { plan.slots[$0].start }
        // What running now would cost is worked out when the slots are chosen, not at every
        // boundary after: an unchanged plan publishes nothing new.
        if let memory, memory.slots == plan.slots {
            plan.nowMeanPrice = memory.nowMeanPrice
        } else {
            plan.nowMeanPrice = Self.meanRunningNow(slots, at: now, seconds: Double(choice.count * choice.grid.unit))
        }
        let whole = choice.minRun >= choice.count
        let started = Self.started(plan.slots, at: now, whole: whole)
        if started != (kept[name]?.started ?? []) { startedChanged = true }
        kept[name] = Kept(
            job: job, window: plan.window, slots: plan.slots, nowMeanPrice: plan.nowMeanPrice, whole: whole, grid: choice.grid,
            offered: choice.offered.count <= Self.keptCandidates ? choice.offered : [], chosen: choice.picked, started: started)
        return plan
    }

    /// The slots of `slots` (in time order, none overlapping) that lie inside `window`.
    static func within(_ window: DateInterval, _ slots: [PricedSlot]) -> ArraySlice<PricedSlot> {
        let lower = first(in: slots[...]) { $0.slot.start >= window.start }
        let upper = first(in: slots[lower...]) { $0.slot.end > window.end }
        return slots[lower..<upper]
    }

    /// The first index of `slots` whose slot satisfies `predicate`, which holds from some index on.
    static func first(in slots: ArraySlice<PricedSlot>, where predicate: (PricedSlot) -> Bool) -> Int {
        var low = slots.startIndex
        var high = slots.endIndex
        while low < high {
            let mid = (low + high) / 2
            if predicate(slots[mid]) { high = mid } else { low = mid + 1 }
        }
        return low
    }

    /// The kept slots that must stay: every block that has started (or, with `whole`, all of
    /// them once one has).
    static func started(_ slots: [Plan.Slot], at now: Date, whole: Bool) -> [Plan.Slot] {
        // A block that starts now has started: its switch is already on.
        guard let first = slots.first, first.start <= now else { return [] }
        if whole { return slots }
        var kept: [Plan.Slot] = []
        var blockStarted = false
        for (i, slot) in slots.enumerated() {
            if i == 0 || slots[i - 1].end != slot.start { blockStarted = slot.start <= now }
            if blockStarted { kept.append(slot) }
        }
        return kept
    }
}
