import FoundationEssentials

/// The optimal choice of slots for a job: pure functions over candidate slots.
///
/// Costs are whole millionths of the price as published, so that sums are exact and a tie is a
/// real tie; ties go to the earliest choice (its sorted slot list is the smallest).
public enum Planner {
    /// The most steps a split choice may take, slots × count²: two days of quarter hours and a
    /// job of a whole day take under 2 million; far more is a job over seconds-long slots.
    public static let workLimit = 40_000_000

    /// A slot the job may run in.
    public struct Candidate: Sendable, Hashable {
        /// Its first instant.
        public var start: Date
        /// Its first instant after.
        public var end: Date
        /// Its price in millionths of the currency per kWh.
        public var cost: Int64

        /// A candidate over `[start, end)` at `cost` millionths.
        public init(start: Date, end: Date, cost: Int64) {
            self.start = start
            self.end = end
            self.cost = cost
        }
    }

    /// The indices of `count` candidates that cost least together, in blocks of at least
    /// `minRun` adjacent candidates (one block of `count` when `contiguous`), or nil when no
    /// choice fits. `candidates` are in time order; two are adjacent when one ends where the next
    /// starts. A block that starts at `continuing` (the end of a block already run) continues it
    /// and needs no length of its own.
    public static func choose(
        _ candidates: [Candidate], count: Int, minRun: Int, contiguous: Bool, continuing: Date? = nil
    ) -> [Int]? {
        guard count > 0, count <= candidates.count else { return count == 0 ? [] : nil }
        if contiguous || minRun >= count { return cheapestBlock(candidates, count: count).map { Array($0..<($0 + count)) } }
        return cheapestRuns(candidates, count: count, minRun: max(1, minRun), continuing: continuing)
    }

    /// The first index of the cheapest `count` adjacent candidates; the earliest of equals.
    static func cheapestBlock(_ c: [Candidate], count: Int) -> Int? {
        var best: (start: Int, cost: Int64)?
        var sum: Int64 = 0
        var runStart = 0
        for i in c.indices {
            if i > 0, c[i].start != c[i - 1].end {
                runStart = i
                sum = 0
            }
            sum += c[i].cost
            if i - runStart + 1 > count { sum -= c[i - count].cost }
            if i - runStart + 1 >= count {
                let start = i - count + 1
                if best == nil || sum < best!.cost { best = (start, sum) }
            }
        }
        return best?.start
    }

    /// Dynamic programming over (position, slots still to choose): at each candidate the job
    /// either skips it or starts a block of `minRun` or more there, which is followed by a skip.
    /// O(n × count × count) time, O(n × count) memory.
    static func cheapestRuns(_ c: [Candidate], count: Int, minRun: Int, continuing: Date?) -> [Int]? {
        let n = c.count
        let none = Int64.max / 4
        // prefix[i] is the cost of candidates 0..<i; reach[i] the end of the adjacent run from i.
        var prefix = [Int64](repeating: 0, count: n + 1)
        for i in 0..<n { prefix[i + 1] = prefix[i] + c[i].cost }
        var reach = [Int](repeating: n, count: n)
        if n > 0 {
            for i in stride(from: n - 2, through: 0, by: -1) { reach[i] = c[i + 1].start == c[i].end ? reach[i + 1] : i + 1 }
        }
        let width = count + 1
        // best[i * width + j]: the least cost of choosing j from candidates i..<n with no block open at i.
        var best = [Int64](repeating: none, count: (n + 1) * width)
        best[n * width] = 0
        /// After a block that ended just before `p`: the candidate at `p` is skipped if adjacent.
        func after(_ p: Int, _ j: Int) -> Int64 {
            if p >= n { return j == 0 ? 0 : none }
            return c[p].start == c[p - 1].end ? best[(p + 1) * width + j] : best[p * width + j]
        }
        func shortest(_ i: Int) -> Int { continuing != nil && c[i].start == continuing! ? 1 : minRun }
        for i in stride(from: n - 1, through: 0, by: -1) {
            best[i * width] = 0
            for j in 1...count {
                var value = best[(i + 1) * width + j]
                let longest = min(j, reach[i] - i)
                if shortest(i) <= longest {
                    for length in shortest(i)...longest {
                        let rest = after(i + length, j - length)
                        if rest < none { value = min(value, prefix[i + length] - prefix[i] + rest) }
                    }
                }
                best[i * width + j] = value
            }
        }
        guard best[count] < none else { return nil }
        // Forward, preferring a block that starts now, and the longest of equal blocks: the earliest choice.
        var chosen: [Int] = []
        var i = 0
        var j = count
        while j > 0, i < n {
            let target = best[i * width + j]
            var taken = 0
            let longest = min(j, reach[i] - i)
            if shortest(i) <= longest {
                for length in stride(from: longest, through: shortest(i), by: -1) {
                    let rest = after(i + length, j - length)
                    if rest < none, prefix[i + length] - prefix[i] + rest == target {
                        taken = length
                        break
                    }
                }
            }
            if taken == 0 {
                i += 1
                continue
            }
            chosen += i..<(i + taken)
            j -= taken
            i += taken
            if i < n, c[i].start == c[i - 1].end { i += 1 }
        }
        return chosen
    }
}
