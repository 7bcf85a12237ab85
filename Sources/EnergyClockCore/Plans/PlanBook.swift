import FoundationEssentials

/// The plans of one profile's jobs, and what each must keep: the manager holds one per profile.
///
/// A plan is made again from the prices whenever the profile is shown (new prices, new settings,
/// a slot boundary, a window that opens); with nothing changed the optimum is the same, so the
/// plan stands still. Once a job has started, the slots it has run stay in its plan: a block in
/// progress runs to its planned end, and a contiguous job keeps its whole block however the
/// prices move. Only the blocks still to come of a non-contiguous job are chosen again.
public struct PlanBook: Sendable {
    /// The last plan of a job, for the window it was made for.
    struct Kept: Sendable {
        var job: Job
        var window: DateInterval
        var slots: [Plan.Slot]
        var nowMeanPrice: Double?
        /// The candidates the slots still to come were chosen from.
        var offered: [Planner.Candidate]
        /// The slots of the blocks that had started: what a restart must not plan again.
        var started: [Plan.Slot]
    }

    /// Some job's started blocks changed since this was last cleared: ``startedLines`` is to be saved.
    public var startedChanged = false

    /// Whether an unchanged choice is taken over rather than made again; off only to test that
    /// taking it over changes nothing.
    package var reusesChoices = true

    var kept: [String: Kept] = [:]

    /// A book that keeps nothing yet.
    public init() {}

    /// The plans of `jobs` at `now`, by name in name order, from `slots` (the profile's priced
    /// slots in time order) whose prices are published up to `knownUntil`.
    public mutating func plans(
        _ jobs: [String: Job], slots: [PricedSlot], knownUntil: Date?, now: Date, calendar: LocalCalendar
    ) -> [Plan] {
        for name in kept.keys where jobs[name] == nil {
            if kept[name]?.started.isEmpty == false { startedChanged = true }
            kept[name] = nil
        }
        return jobs.sorted { $0.key < $1.key }.map { name, job in
            plan(name, job, slots: slots, knownUntil: knownUntil, now: now, calendar: calendar)
        }
    }

    private mutating func plan(
        _ name: String, _ job: Job, slots: [PricedSlot], knownUntil: Date?, now: Date, calendar: LocalCalendar
    ) -> Plan {
        let window = job.occurrence(at: now, calendar: calendar, knownUntil: knownUntil)
        let memory = kept[name].flatMap { $0.job == job && $0.window.start == window.start ? $0 : nil }
        let inWindow = slots.filter { $0.slot.start >= window.start && $0.slot.end <= window.end }
        let seconds = inWindow.first?.slot.duration ?? memory?.slots.first.map { $0.end.timeIntervalSince($0.start) } ?? 3600
        let count = Int((Double(job.duration) * 60 / seconds).rounded(.up))
        let minRun = job.contiguous ? count : Int((Double(job.minBlock) * 60 / seconds).rounded(.up))
        let windowKnown = job.window == nil || (knownUntil ?? .distantPast) >= window.end

        var result = Plan(
            name: name, status: .planned, reason: nil, window: window, slots: [], meanPrice: nil, nowMeanPrice: nil,
            windowMeanPrice: Self.mean(inWindow.map(\.price)), active: false, nextStart: nil)
        let held = memory.map { Self.started($0.slots, at: now, whole: minRun >= count) } ?? []
        if now >= window.end {
            // A once job whose window is over: it stays as it ran.
            result.slots = held
            result.status = .done
            if held.isEmpty { result.reason = "its window ended before it could run" }
            return finish(result, name, job, now, memory, slots, count, whole: minRun >= count, offered: [])
        }
        let need = count - held.count
        var chosen: [Plan.Slot] = []
        var offered: [Planner.Candidate] = []
        if need > 0 {
            let from = max(now, held.last?.end ?? now)
            let open = inWindow.filter { $0.slot.start >= from }
            let allowed = job.maxPrice.map { limit in open.filter { $0.price <= limit } } ?? open
            offered = allowed.map(Self.candidate)
            // Split jobs cost n × need² steps: seconds-long slots would make that unbounded.
            let tooMuch = !job.contiguous && minRun < need && offered.count * need * need > Planner.workLimit
            let picks: [Int]?
            if let reused = reusesChoices ? memory.flatMap({ Self.reusable($0, held: held, offered: offered, need: need) }) : nil {
                picks = reused
            } else if tooMuch {
                picks = nil
            } else {
                picks = Planner.choose(offered, count: need, minRun: minRun, contiguous: job.contiguous, continuing: held.last?.end)
            }
            if picks == nil, tooMuch {
                result.status = .unsatisfiable
                result.reason =
                    "\(need) slots of \(Int(seconds)) s each are too many to plan in pieces; make it contiguous or the slots longer"
            } else if let picks {
                chosen = picks.map { Plan.Slot(allowed[$0]) }
            } else if !windowKnown {
                result.status = .waiting
                result.reason = "prices after \(ISO8601.local(knownUntil ?? now, in: calendar)) are not published yet"
            } else {
                result.status = .unsatisfiable
                let fitsWithoutLimit =
                    job.maxPrice != nil
                    && Planner.choose(
                        open.map(Self.candidate), count: need, minRun: minRun, contiguous: job.contiguous, continuing: held.last?.end)
                        != nil
                result.reason =
                    fitsWithoutLimit
                    ? "too few slots at or below max_price \(DecimalFormat.string(job.maxPrice!)) are left in the window"
                    : open.count < need
                        ? "only \(open.count) of the \(need) slots it needs are left in the window"
                        : "the slots left in the window hold no \(job.contiguous ? "block of \(need)" : "blocks of \(minRun) or more") without a gap"
            }
        }
        result.slots = held + chosen
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
            }
        }
        return finish(result, name, job, now, memory, slots, count, whole: minRun >= count, offered: offered)
    }

    /// The indices in `offered` of the slots still to come of the kept plan, when choosing again
    /// would choose them: the candidates are the kept ones but for those now past, and they hold
    /// every one of those slots. The kept choice was the earliest optimum over more candidates, so
    /// it is the earliest over fewer that still hold it (with the blocks run since as its start).
    /// A boundary then costs a comparison, not a new choice.
    static func reusable(_ memory: Kept, held: [Plan.Slot], offered: [Planner.Candidate], need: Int) -> [Int]? {
        let ahead = memory.slots.dropFirst(held.count)
        guard ahead.count == need, memory.slots.starts(with: held), offered.count <= memory.offered.count,
            memory.offered.suffix(offered.count).elementsEqual(offered)
        else { return nil }
        var picks: [Int] = []
        var i = 0
        for slot in ahead {
            while i < offered.count, offered[i].start < slot.start { i += 1 }
            guard i < offered.count, offered[i].start == slot.start else { return nil }
            picks.append(i)
        }
        return picks
    }

    /// Fills in what follows from the chosen slots, and keeps the plan for next time.
    private mutating func finish(
        _ plan: Plan, _ name: String, _ job: Job, _ now: Date, _ memory: Kept?, _ slots: [PricedSlot], _ count: Int,
        whole: Bool, offered: [Planner.Candidate]
    ) -> Plan {
        var plan = plan
        plan.meanPrice = Self.mean(plan.slots.map(\.price))
        plan.active = plan.slots.contains { $0.contains(now) }
        plan.nextStart = plan.slots.indices.first { i in
            plan.slots[i].start > now && (i == 0 || plan.slots[i - 1].end != plan.slots[i].start)
        }.map { plan.slots[$0].start }
        // What running now would cost is worked out when the slots are chosen, not at every
        // boundary after: an unchanged plan publishes nothing new.
        if let memory, memory.slots == plan.slots {
            plan.nowMeanPrice = memory.nowMeanPrice
        } else if let first = slots.firstIndex(where: { $0.slot.end > now }), first + count <= slots.count {
            let run = slots[first..<(first + count)]
            let adjacent = zip(run, run.dropFirst()).allSatisfy { $0.slot.end == $1.slot.start }
            plan.nowMeanPrice = adjacent ? Self.mean(run.map(\.price)) : nil
        }
        let started = Self.started(plan.slots, at: now, whole: whole)
        if started != (kept[name]?.started ?? []) { startedChanged = true }
        kept[name] = Kept(
            job: job, window: plan.window, slots: plan.slots, nowMeanPrice: plan.nowMeanPrice, offered: offered, started: started)
        return plan
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

    static func candidate(_ slot: PricedSlot) -> Planner.Candidate {
        Planner.Candidate(start: slot.slot.start, end: slot.slot.end, cost: Int64((slot.price * 1_000_000).rounded()))
    }

    static func mean(_ prices: [Double]) -> Double? {
        prices.isEmpty ? nil : DecimalFormat.rounded(prices.reduce(0, +) / Double(prices.count))
    }
}
