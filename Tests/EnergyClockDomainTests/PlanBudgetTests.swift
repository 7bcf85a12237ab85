import EnergyClockDomain
import EnergyClockTesting
import Foundation
import Testing

/// Plans held to their budgets, a job's duration as running time over slots of mixed lengths,
/// and a running plan that follows its slots' prices.
@Suite struct PlanBudgetTests {
    typealias Book = PlanBookTests

    /// Two days of `seconds`-long slots from the start of 1 December 2026, all at `price`.
    static func even(seconds: Double, price: Double = 0.1) -> [PricedSlot] {
        Book.slots(Array(repeating: price, count: Int(2 * 86_400 / seconds)), from: "2026-12-01T00:00:00+01:00", minutes: seconds / 60)
    }

    @Test func theJobThatHungTheDaemonIsRefusedOnEveryPathAtNoCost() {
        // Sixteen hours in pieces over two days of 20-second slots, with a price limit that leaves
        // nothing (the path that skipped the limit), no limit, and one that leaves everything.
        let twenty = Self.even(seconds: 20)
        for limit in [-5.0, nil, 1000.0] {
            var book = PlanBook()
            let hog = Job(
                duration: 960, contiguous: false, minBlock: 0, window: nil, maxPrice: limit, repeats: .once,
                since: at("2026-12-01T00:00:00+01:00"))
            let plan = book.plans(
                ["hog": hog], slots: twenty, knownUntil: twenty.last?.slot.end, now: at("2026-12-01T00:00:00+01:00"), calendar: amsterdam)[
                    0]
            #expect(plan.status == .unsatisfiable, "max_price \(String(describing: limit))")
            #expect(plan.reason?.hasPrefix("choosing 2880 units of 20 s in pieces takes more than") == true, "\(plan.reason ?? "")")
            #expect(plan.reason?.contains("more than the \(Planner.jobBudget.steps) steps a job may") == true)
            #expect(plan.slots.isEmpty)
            // Only the job's fixed cost was counted: the choice was never tried.
            #expect(book.steps < 20_000, "\(book.steps) steps")
        }
        // The same job in one block is a single pass, and it is planned.
        var book = PlanBook()
        let block = Job(duration: 960, window: nil, repeats: .once, since: at("2026-12-01T00:00:00+01:00"))
        let planned = book.plans(
            ["block": block], slots: twenty, knownUntil: twenty.last?.slot.end, now: at("2026-12-01T00:00:00+01:00"), calendar: amsterdam)[
                0]
        #expect(planned.status == .running)
        #expect(planned.slots.reduce(0) { $0 + $1.duration } == 960 * 60)
    }

    @Test func theWorkOfAChoiceIsKnownBeforeItIsMade() {
        #expect(Planner.work(candidates: 192, count: 8, minRun: 8, contiguous: true) == Planner.Work(steps: 192, bytes: 0))
        let split = Planner.work(candidates: 192, count: 96, minRun: 4, contiguous: false)
        #expect(split.steps == 192 * 97)
        #expect(split.fits(Planner.jobBudget))
        // Numbers that would overflow saturate instead.
        let absurd = Planner.work(candidates: Int.max / 2, count: Int.max / 4, minRun: 3, contiguous: false)
        #expect(absurd.steps == Int.max)
        #expect(!absurd.fits(Planner.jobBudget))
    }

    @Test func aProfilesJobsShareItsBudgetInNameOrder() {
        // Minute slots over two days; split jobs of 160 minutes each take 2880 × 161 steps.
        let minutes = Self.even(seconds: 60)
        var jobs: [String: Job] = [:]
        for k in 0..<Job.maxCount {
            jobs[String(format: "j%02d", k)] = Job(
                duration: 160, contiguous: false, minBlock: 1, window: nil, repeats: .once, since: at("2026-12-01T00:00:00+01:00"))
        }
        var book = PlanBook()
        let plans = book.plans(
            jobs, slots: minutes, knownUntil: minutes.last?.slot.end, now: at("2026-12-01T00:00:00+01:00"), calendar: amsterdam)
        let planned = plans.filter { $0.status != .unsatisfiable }
        #expect(planned.map(\.name) == ["j00", "j01", "j02", "j03"], "the first by name, as many as the budget holds")
        #expect(plans[4].reason?.hasPrefix("the profile's planning budget") == true)
        #expect(book.steps <= PlanBook.profileBudget)
        // Given only what the daemon's budget leaves, the same jobs say whose budget it is.
        var short = PlanBook()
        let limited = short.plans(
            jobs, slots: minutes, knownUntil: minutes.last?.slot.end, now: at("2026-12-01T00:00:00+01:00"), calendar: amsterdam,
            allowance: PlanBook.Allowance(steps: 500_000, daemon: true))
        #expect(limited.filter { $0.status != .unsatisfiable }.count == 1)
        #expect(limited[1].reason?.hasPrefix("the daemon's planning budget") == true)
        #expect(short.steps <= 500_000)
    }

    @Test func aJobRunsForItsDurationWhateverTheSlotsLengths() {
        // Hours until midnight, then quarter hours; the cheapest two hours straddle midnight.
        let hours = Book.slots([0.30, 0.30, 0.10, 0.10], from: "2026-12-01T20:00:00+01:00")
        let quarters = Book.slots((0..<24).map { $0 < 4 ? 0.10 : 0.30 }, from: "2026-12-02T00:00:00+01:00", minutes: 15)
        let mixed = hours + quarters
        let window = Book.window("22:00", "06:00")
        for contiguous in [true, false] {
            let job = Job(duration: 120, contiguous: contiguous, minBlock: contiguous ? 0 : 30, window: window)
            let plan = Book.plan(job, mixed, at: "2026-12-01T21:00:00+01:00")
            #expect(plan.slots.reduce(0) { $0 + $1.duration } == 7200, "contiguous \(contiguous)")
            #expect(plan.meanPrice == 0.1)
            #expect(plan.start == at("2026-12-01T22:00:00+01:00"))
        }
        // The other way round: quarter hours, then hours; 30 minutes is two quarters, not an hour.
        let reversed =
            Book.slots((0..<8).map { $0 >= 6 ? 0.10 : 0.30 }, from: "2026-12-01T22:00:00+01:00", minutes: 15)
            + Book.slots([0.05, 0.30, 0.30, 0.30, 0.30, 0.30], from: "2026-12-02T00:00:00+01:00")
        let short = Book.plan(Job(duration: 30, window: window), reversed, at: "2026-12-01T21:00:00+01:00")
        #expect(short.slots.reduce(0) { $0 + $1.duration } == 1800)
        // The cheapest half hour is the first half of the 00:00 hour, at that hour's price.
        #expect(short.slots == [Plan.Slot(start: at("2026-12-02T00:00:00+01:00"), end: at("2026-12-02T00:30:00+01:00"), price: 0.05)])
        let long = Book.plan(Job(duration: 390, window: window), reversed, at: "2026-12-01T21:00:00+01:00")
        #expect(long.slots.reduce(0) { $0 + $1.duration } == 390 * 60)
    }

    @Test func aRunningPlanFollowsItsSlotsNewPrices() {
        var book = PlanBook()
        let job = Job(duration: 180, window: Book.window("00:00", "00:00"))
        let cheap = Book.twoDays(cheap: [10: 0.001, 11: 0.001, 12: 0.001], from: "2025-12-17T00:00:00+01:00")
        _ = Book.plan(job, cheap, at: "2025-12-17T09:00:00+01:00", book: &book)
        let running = Book.plan(job, cheap, at: "2025-12-17T10:00:00+01:00", book: &book)
        #expect(running.status == .running)
        #expect(running.meanPrice == 0.001)
        // The block's slots are repriced (a correction, or a VAT change): the block stays, its prices follow.
        let repriced = Book.twoDays(cheap: [10: 0.001, 11: 9.0, 12: 9.0], from: "2025-12-17T00:00:00+01:00")
        let after = Book.plan(job, repriced, at: "2025-12-17T11:00:00+01:00", book: &book)
        #expect(after.slots.map(\.start) == running.slots.map(\.start))
        #expect(after.slots.map(\.price) == [0.001, 9.0, 9.0])
        #expect(after.meanPrice == 6.000333)
        #expect(after.status == .running)
    }
}
