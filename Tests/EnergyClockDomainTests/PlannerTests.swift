import EnergyClockDomain
import EnergyClockTesting
import Foundation
import Testing

/// The planner against a search of every feasible choice.
@Suite struct PlannerTests {
    /// `n` candidates of `minutes` each from a fixed start, with the given costs, where `gaps`
    /// marks the candidates that follow a missing slot.
    static func candidates(_ costs: [Int64], minutes: Double = 15, gaps: Set<Int> = []) -> [Planner.Candidate] {
        var start = Date(timeIntervalSince1970: 1_765_000_000)
        return costs.enumerated().map { i, cost in
            if gaps.contains(i) { start = start.addingTimeInterval(minutes * 60) }
            defer { start = start.addingTimeInterval(minutes * 60) }
            return Planner.Candidate(start: start, end: start.addingTimeInterval(minutes * 60), cost: cost)
        }
    }

    /// Every choice of `count` indices whose blocks of adjacent candidates are each at least
    /// `minRun` long (one block with `contiguous`), a block starting at `continuing` excepted;
    /// the cheapest, the smallest index list among equals.
    static func searched(
        _ c: [Planner.Candidate], count: Int, minRun: Int, contiguous: Bool, continuing: Date? = nil
    ) -> (cost: Int64, picks: [Int])? {
        var best: (cost: Int64, picks: [Int])?
        func feasible(_ picks: [Int]) -> Bool {
            var blocks: [[Int]] = []
            for i in picks {
                if let last = blocks.last?.last, last == i - 1, c[last].end == c[i].start {
                    blocks[blocks.count - 1].append(i)
                } else {
                    blocks.append([i])
                }
            }
            if contiguous { return blocks.count == 1 }
            return blocks.allSatisfy { $0.count >= minRun || (continuing != nil && c[$0[0]].start == continuing!) }
        }
        func walk(_ from: Int, _ picks: inout [Int], _ cost: Int64) {
            if picks.count == count {
                // Picks come in increasing lists, so the first of equal cost is the smallest.
                if feasible(picks), best == nil || cost < best!.cost { best = (cost, picks) }
                return
            }
            guard from < c.count, c.count - from >= count - picks.count else { return }
            for i in from..<c.count {
                picks.append(i)
                walk(i + 1, &picks, cost + c[i].cost)
                picks.removeLast()
            }
        }
        var picks: [Int] = []
        walk(0, &picks, 0)
        return best
    }

    @Test func theOptimumMatchesASearchOfEveryChoiceOnRandomDays() {
        var random = SeededRandom(seed: 21)
        var checked = 0
        // The search grows as n^count: days of 24 to 48 candidates and counts up to 4 keep the
        // suite's share of a core small (it took 18 s of one with counts up to 5 and n up to 100),
        // and still mix blocks, gaps and ties.
        for day in 0..<200 {
            let n = Int.random(in: 24...48, using: &random)
            let most = n <= 30 ? 4 : 3
            let count = Int.random(in: 1...most, using: &random)
            let minRun = Int.random(in: 1...count, using: &random)
            let contiguous = Bool.random(using: &random)
            // Few distinct prices, negative ones too, so that ties are common.
            let costs = (0..<n).map { _ in Int64.random(in: -3...6, using: &random) * 10_000 }
            let gaps = Set((1..<n).filter { _ in Int.random(in: 0..<12, using: &random) == 0 })
            let c = Self.candidates(costs, minutes: [15, 30, 60][day % 3], gaps: gaps)
            let continuing = day % 5 == 0 ? c[0].start : nil
            let picks = Planner.choose(c, count: count, minRun: minRun, contiguous: contiguous, continuing: continuing)
            let expected = Self.searched(c, count: count, minRun: minRun, contiguous: contiguous, continuing: continuing)
            #expect(picks == expected?.picks, "day \(day): n \(n), count \(count), min run \(minRun), contiguous \(contiguous)")
            if let picks { #expect(picks.map { c[$0].cost }.reduce(0, +) == expected?.cost) }
            checked += expected == nil ? 0 : 1
        }
        // Most random days have a feasible choice; a planner that always says "none" fails above.
        #expect(checked > 150)
    }

    @Test func aMinimumBlockIsNeverBrokenForACheaperLoneSlot() {
        // The two cheapest slots stand apart; with blocks of two, the best is a pair side by side.
        let c = Self.candidates([1, 9, 9, 1, 9, 3, 3, 9])
        #expect(Planner.choose(c, count: 2, minRun: 1, contiguous: false) == [0, 3])
        #expect(Planner.choose(c, count: 2, minRun: 2, contiguous: false) == [5, 6])
        #expect(Planner.choose(c, count: 4, minRun: 2, contiguous: false) == [0, 1, 5, 6])
        #expect(Planner.choose(c, count: 3, minRun: 3, contiguous: false) == Planner.choose(c, count: 3, minRun: 1, contiguous: true))
    }

    @Test func tiesGoToTheEarliestAndAGapEndsABlock() {
        let flat = Self.candidates([5, 5, 5, 5, 5, 5])
        #expect(Planner.choose(flat, count: 2, minRun: 1, contiguous: true) == [0, 1])
        #expect(Planner.choose(flat, count: 3, minRun: 1, contiguous: false) == [0, 1, 2])
        // Across the gap before index 2 no block of three fits but the one after it.
        let gapped = Self.candidates([0, 0, 9, 9, 9], gaps: [2])
        #expect(Planner.choose(gapped, count: 3, minRun: 1, contiguous: true) == [2, 3, 4])
        #expect(Planner.choose(gapped, count: 3, minRun: 2, contiguous: false) == [2, 3, 4])
        #expect(Planner.choose(gapped, count: 4, minRun: 2, contiguous: false) == [0, 1, 2, 3])
        #expect(Planner.choose(gapped, count: 3, minRun: 3, contiguous: false) == [2, 3, 4])
        #expect(Planner.choose(gapped, count: 6, minRun: 1, contiguous: false) == nil)
    }

    @Test func aBlockThatContinuesOneAlreadyRunNeedsNoLengthOfItsOwn() {
        let c = Self.candidates([1, 9, 9, 2, 2, 9])
        #expect(Planner.choose(c, count: 3, minRun: 2, contiguous: false) == [2, 3, 4])
        #expect(Planner.choose(c, count: 3, minRun: 2, contiguous: false, continuing: c[0].start) == [0, 3, 4])
        // A block already run that ends before the first candidate continues nothing.
        #expect(Planner.choose(c, count: 3, minRun: 2, contiguous: false, continuing: c[0].start.addingTimeInterval(-900)) == [2, 3, 4])
    }
}
