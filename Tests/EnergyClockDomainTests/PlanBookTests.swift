import EnergyClockDomain
import EnergyClockTesting
import Foundation
import Testing

/// Plans worked out by hand: windows across midnight, days of 23 and 25 hours, limits, waiting,
/// and plans that stand still once a job has started.
@Suite struct PlanBookTests {
    /// Priced slots of `minutes` each from `start`, the price of each given (no VAT, no fees).
    static func slots(_ prices: [Double], from start: String, minutes: Double = 60) -> [PricedSlot] {
        prices.enumerated().map { i, price in
            let begin = at(start).addingTimeInterval(Double(i) * minutes * 60)
            let slot = SeriesSlot(start: begin, end: begin.addingTimeInterval(minutes * 60), value: price)
            return PricedSlot(
                slot: slot, components: PriceComponents(market: price, markup: 0, surcharge: 0, gridFee: 0, vat: 0), band: nil)
        }
    }

    static func window(_ earliest: String, _ deadline: String) -> Job.Window {
        func minutes(_ t: String) -> Int { Int(t.prefix(2))! * 60 + Int(t.suffix(2))! }
        return Job.Window(earliest: minutes(earliest), deadline: minutes(deadline))
    }

    /// One job's plan at `now` over `slots`, prices known to the end of the last slot.
    static func plan(_ job: Job, _ slots: [PricedSlot], at now: String, book: inout PlanBook) -> Plan {
        book.plans(["job": job], slots: slots, knownUntil: slots.last?.slot.end, now: at(now), calendar: amsterdam)[0]
    }

    static func plan(_ job: Job, _ slots: [PricedSlot], at now: String) -> Plan {
        var book = PlanBook()
        return plan(job, slots, at: now, book: &book)
    }

    /// Two days of hourly prices: 0.30 everywhere but for the hours given.
    static func twoDays(cheap: [Int: Double], from start: String = "2025-12-17T00:00:00+01:00") -> [PricedSlot] {
        slots((0..<48).map { cheap[$0] ?? 0.30 }, from: start)
    }

    @Test func aWindowAcrossMidnightFindsTheCheapestBlockInTheNight() {
        // Tomorrow 02:00-04:00 is cheapest; today 10:00 is cheaper still, but outside the window.
        let prices = Self.twoDays(cheap: [10: 0.01, 26: 0.05, 27: 0.06, 30: 0.02])
        let job = Job(duration: 120, window: Self.window("18:00", "07:00"))
        let plan = Self.plan(job, prices, at: "2025-12-17T12:00:00+01:00")
        #expect(plan.status == .planned)
        #expect(plan.window == DateInterval(start: at("2025-12-17T18:00:00+01:00"), end: at("2025-12-18T07:00:00+01:00")))
        #expect(plan.slots.map(\.start) == [at("2025-12-18T02:00:00+01:00"), at("2025-12-18T03:00:00+01:00")])
        #expect(plan.meanPrice == 0.055)
        #expect(plan.nextStart == at("2025-12-18T02:00:00+01:00"))
        #expect(!plan.active)
        // Running now would cost 12:00 and 13:00: 0.30 each.
        #expect(plan.nowMeanPrice == 0.3)
        // Not contiguous, in blocks of one hour: the two cheapest hours of the night.
        let split = Self.plan(Job(duration: 120, contiguous: false, window: job.window), prices, at: "2025-12-17T12:00:00+01:00")
        #expect(split.slots.map(\.start) == [at("2025-12-18T02:00:00+01:00"), at("2025-12-18T06:00:00+01:00")])
        #expect(split.meanPrice == 0.035)
    }

    @Test func aWindowThatReachesIntoUnpublishedPricesWaitsAndPlansWhatIsKnown() {
        let today = Array(Self.twoDays(cheap: [20: 0.10, 21: 0.11]).prefix(24))
        let plan = Self.plan(Job(duration: 120, window: Self.window("18:00", "07:00")), today, at: "2025-12-17T12:00:00+01:00")
        #expect(plan.status == .waiting)
        #expect(plan.reason?.contains("2025-12-18T00:00:00+01:00") == true)
        #expect(plan.slots.map(\.start) == [at("2025-12-17T20:00:00+01:00"), at("2025-12-17T21:00:00+01:00")])
        // With no known slot in the window at all, it waits with nothing planned.
        let morning = Array(today.prefix(12))
        let early = Self.plan(Job(duration: 120, window: Self.window("18:00", "07:00")), morning, at: "2025-12-17T08:00:00+01:00")
        #expect(early.status == .waiting)
        #expect(early.slots.isEmpty)
    }

    @Test func theShortAndTheLongDayAreOrdinaryDays() {
        let whole = Self.window("00:00", "00:00")
        // 29 March 2026 has 23 hours: a job of 23 fits, one of 24 cannot.
        let spring = Self.slots((0..<23).map { 0.2 + Double($0) / 1000 }, from: "2026-03-29T00:00:00+01:00")
        let fits = Self.plan(Job(duration: 23 * 60, window: whole), spring, at: "2026-03-29T00:00:00+01:00")
        #expect(fits.status == .running)
        #expect(fits.slots.count == 23)
        #expect(fits.window.duration == 23 * 3600)
        let tooLong = Self.plan(Job(duration: 24 * 60, window: whole), spring, at: "2026-03-29T00:00:00+01:00")
        #expect(tooLong.status == .unsatisfiable)
        #expect(tooLong.reason == "only 23 h of the 24 h it needs are left in the window")
        // 25 October 2026 has 25 hours; the dearest is the first, so 24 hours from 01:00 (the first 02:00).
        let autumn = Self.slots([0.9] + Array(repeating: 0.1, count: 24), from: "2026-10-25T00:00:00+02:00")
        let day = Self.plan(Job(duration: 24 * 60, window: whole), autumn, at: "2026-10-25T00:00:00+02:00")
        #expect(day.window.duration == 25 * 3600)
        #expect(day.start == at("2026-10-25T01:00:00+02:00"))
        #expect(day.end == at("2026-10-26T00:00:00+01:00"))
        // 02:30 does not exist on 29 March: a window from it opens when the clocks jump, at 03:00.
        let gap = Self.plan(Job(duration: 60, window: Self.window("02:30", "05:00")), spring, at: "2026-03-29T00:30:00+01:00")
        #expect(gap.window.start == at("2026-03-29T03:00:00+02:00"))
        #expect(gap.start == at("2026-03-29T03:00:00+02:00"))
    }

    @Test func aPriceLimitThatExcludesEverythingIsSaidSo() {
        let prices = Self.twoDays(cheap: [:])
        let plan = Self.plan(
            Job(duration: 60, window: Self.window("18:00", "07:00"), maxPrice: 0.2), prices, at: "2025-12-17T12:00:00+01:00")
        #expect(plan.status == .unsatisfiable)
        #expect(plan.reason == "too few slots at or below max_price 0.2 are left in the window")
        #expect(plan.slots.isEmpty)
        #expect(plan.meanPrice == nil)
        #expect(plan.windowMeanPrice == 0.3)
    }

    @Test func aStartedBlockStaysWhenCheaperPricesArrive() {
        var book = PlanBook()
        let job = Job(duration: 180, window: Self.window("00:00", "00:00"))
        let first = Self.twoDays(cheap: [10: 0.1, 11: 0.1, 12: 0.1])
        let planned = Self.plan(job, first, at: "2025-12-17T09:00:00+01:00", book: &book)
        #expect(planned.start == at("2025-12-17T10:00:00+01:00"))
        let running = Self.plan(job, first, at: "2025-12-17T10:00:00+01:00", book: &book)
        #expect(running.status == .running)
        #expect(running.active)
        // New prices make 15:00-18:00 cheaper: the block in progress is neither moved nor cut.
        let cheaper = Self.twoDays(cheap: [10: 0.1, 11: 0.1, 12: 0.1, 15: 0.0, 16: 0.0, 17: 0.0])
        let kept = Self.plan(job, cheaper, at: "2025-12-17T11:00:00+01:00", book: &book)
        #expect(kept.slots == running.slots)
        #expect(kept.status == .running)
        let done = Self.plan(job, cheaper, at: "2025-12-17T13:00:00+01:00", book: &book)
        #expect(done.status == .done)
        #expect(!done.active)
        #expect(done.nextStart == nil)
        // Before it started, the same new prices would have moved it.
        #expect(Self.plan(job, cheaper, at: "2025-12-17T09:00:00+01:00").start == at("2025-12-17T15:00:00+01:00"))
        // The next day's window plans afresh: every hour of it costs the same, so it starts at once.
        let tomorrow = Self.plan(job, cheaper, at: "2025-12-18T00:00:00+01:00", book: &book)
        #expect(tomorrow.window.start == at("2025-12-18T00:00:00+01:00"))
        #expect(tomorrow.start == at("2025-12-18T00:00:00+01:00"))
        #expect(tomorrow.status == .running)
    }

    @Test func aSplitJobKeepsTheBlocksItRanAndChoosesTheRestAgain() {
        var book = PlanBook()
        let job = Job(duration: 120, contiguous: false, minBlock: 60, window: Self.window("00:00", "00:00"))
        let first = Self.twoDays(cheap: [10: 0.1, 20: 0.1])
        #expect(
            Self.plan(job, first, at: "2025-12-17T09:00:00+01:00", book: &book).slots.map(\.start) == [
                at("2025-12-17T10:00:00+01:00"), at("2025-12-17T20:00:00+01:00"),
            ])
        _ = Self.plan(job, first, at: "2025-12-17T10:00:00+01:00", book: &book)
        let cheaper = Self.twoDays(cheap: [10: 0.1, 15: 0.05, 20: 0.1])
        let replanned = Self.plan(job, cheaper, at: "2025-12-17T11:00:00+01:00", book: &book)
        #expect(replanned.slots.map(\.start) == [at("2025-12-17T10:00:00+01:00"), at("2025-12-17T15:00:00+01:00")])
        #expect(replanned.status == .planned)
        #expect(replanned.nextStart == at("2025-12-17T15:00:00+01:00"))
    }

    @Test func aOnceJobRunsInItsFirstWindowAndIsThenDone() {
        var book = PlanBook()
        let job = Job(duration: 60, window: Self.window("18:00", "20:00"), repeats: .once, since: at("2025-12-17T12:00:00+01:00"))
        let prices = Self.twoDays(cheap: [19: 0.1, 43: 0.0])
        #expect(Self.plan(job, prices, at: "2025-12-17T12:00:00+01:00", book: &book).start == at("2025-12-17T19:00:00+01:00"))
        _ = Self.plan(job, prices, at: "2025-12-17T19:00:00+01:00", book: &book)
        let after = Self.plan(job, prices, at: "2025-12-17T21:00:00+01:00", book: &book)
        #expect(after.status == .done)
        #expect(after.start == at("2025-12-17T19:00:00+01:00"))
        // Set after that window, its window is the next day's.
        let late = Job(duration: 60, window: job.window, repeats: .once, since: at("2025-12-17T20:30:00+01:00"))
        #expect(Self.plan(late, prices, at: "2025-12-17T21:00:00+01:00").start == at("2025-12-18T19:00:00+01:00"))
    }

    @Test func theLargestJobsArePlannedOrRefusedWithinTheirBudget() {
        let whole = Self.window("00:00", "00:00")
        // Two days of quarter hours (one of them 23 hours long) and a split job as long as allowed.
        let quarters = Self.slots((0..<(92 + 96)).map { Double($0 % 7) / 100 }, from: "2026-03-29T00:00:00+01:00", minutes: 15)
        let split = Job(duration: 1380, contiguous: false, minBlock: 15, window: whole)
        let planned = Self.plan(split, quarters, at: "2026-03-29T00:00:00+01:00")
        #expect(planned.status == .running)
        #expect(planned.slots.count == 92, "the whole 23-hour day")
        let anytime = Job(
            duration: Job.maxDuration, contiguous: false, minBlock: 15, window: nil, repeats: .once, since: at("2026-03-29T00:00:00+01:00"))
        let all = Self.plan(anytime, quarters, at: "2026-03-29T00:00:00+01:00")
        #expect(all.status == .unsatisfiable)
        #expect(all.reason == "only 47 h of the 48 h it needs are left in the window")
        // Over one-second slots the same job would take billions of steps: refused with the reason.
        let seconds = Self.slots(Array(repeating: 0.1, count: 7200), from: "2026-03-30T00:00:00+02:00", minutes: 1.0 / 60)
        let fine = Job(duration: 60, contiguous: false, minBlock: 1, window: whole)
        let refused = Self.plan(fine, seconds, at: "2026-03-30T00:00:00+02:00")
        #expect(refused.status == .unsatisfiable)
        #expect(
            refused.reason
                == "choosing 3600 units of 1 s in pieces takes more than the 1000000 steps a job may; make it contiguous, raise min_block or show hourly slots (resolution: hour)"
        )
        // Contiguous, it is a single pass.
        let block = Self.plan(Job(duration: 60, window: whole), seconds, at: "2026-03-30T00:00:00+02:00")
        #expect(block.slots.count == 3600)
    }

    @Test func takingAnUnchangedChoiceOverPlansWhatChoosingAgainWould() {
        var random = SeededRandom(seed: 7)
        for round in 0..<12 {
            var prices = (0..<(2 * 96)).map { _ in Double(Int.random(in: -2...8, using: &random)) / 100 }
            var jobs: [String: Job] = [:]
            for k in 0..<4 {
                let contiguous = k == 0
                let duration = 15 * Int.random(in: 1...12, using: &random)
                let earliest = 15 * Int.random(in: 0..<96, using: &random)
                let length = 15 * Int.random(in: (duration / 15)...96, using: &random)
                jobs["j\(k)"] = Job(
                    duration: duration, contiguous: contiguous,
                    minBlock: contiguous ? 0 : 15 * Int.random(in: 0...(duration / 15), using: &random),
                    window: Job.Window(earliest: earliest, deadline: (earliest + length) % 1440))
            }
            var reusing = PlanBook()
            var fresh = PlanBook()
            fresh.reusesChoices = false
            for step in 0..<(96 + 48) {
                // Now and then new prices for the slots ahead.
                if Int.random(in: 0..<20, using: &random) == 0 {
                    prices = prices.enumerated().map { i, p in i > step ? Double(Int.random(in: -2...8, using: &random)) / 100 : p }
                }
                let slots = Self.slots(prices, from: "2025-12-17T00:00:00+01:00", minutes: 15)
                let now = at("2025-12-17T00:00:00+01:00").addingTimeInterval(Double(step) * 900)
                let a = reusing.plans(jobs, slots: slots, knownUntil: slots.last?.slot.end, now: now, calendar: amsterdam)
                let b = fresh.plans(jobs, slots: slots, knownUntil: slots.last?.slot.end, now: now, calendar: amsterdam)
                #expect(a == b, "round \(round), step \(step)")
                if a != b { return }
            }
        }
    }
}
