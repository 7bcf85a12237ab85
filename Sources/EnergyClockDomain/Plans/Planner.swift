import FoundationEssentials

/// The optimal choice of slots for a job: pure functions over candidate slots.
///
/// Costs are whole millionths of the price as published, so that sums are exact and a tie is a
/// real tie; ties go to the earliest choice (its sorted slot list is the smallest).
public enum Planner {
    /// What choosing costs: steps of the search and bytes it holds while it runs. Known before
    /// anything is chosen (``work(candidates:count:minRun:contiguous:)``), so that a choice too
    /// large for its budget is refused without being tried.
    public struct Work: Sendable, Hashable {
        /// Steps: candidates looked at, or cells of the dynamic programme.
        public var steps: Int
        /// Bytes held at once.
        public var bytes: Int

        /// `steps` steps holding `bytes` bytes.
        public init(steps: Int, bytes: Int) {
            self.steps = steps
            self.bytes = bytes
        }

        /// Nothing.
        public static let none = Work(steps: 0, bytes: 0)

        /// Whether this fits within `budget`, in steps and in bytes.
        public func fits(_ budget: Work) -> Bool { steps <= budget.steps && bytes <= budget.bytes }

        /// Both together, saturating rather than overflowing.
        public static func + (a: Work, b: Work) -> Work {
            Work(steps: Planner.sum(a.steps, b.steps), bytes: Planner.sum(a.bytes, b.bytes))
        }
    }

    /// The most one job's choice may cost: 3.5 ms here at most (`bench/run.sh`, "plan a split job
    /// at the job budget"), and 4 MiB while it runs. Two days of quarter hours and a split job of
    /// a whole day take 19,000 steps; far more is a job over seconds-long slots.
    public static let jobBudget = Work(steps: 1_000_000, bytes: 4 << 20)

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

    /// What ``choose(_:count:minRun:contiguous:continuing:)`` costs over `n` candidates: one pass
    /// for one block; a split choice looks at each candidate once per count still to choose,
    /// keeping `minRun + 1` rows of values and two bits of decision per step.
    public static func work(candidates n: Int, count: Int, minRun: Int, contiguous: Bool) -> Work {
        guard count > 0, count <= n else { return Work(steps: max(n, 0), bytes: 0) }
        if contiguous || minRun >= count { return Work(steps: n, bytes: 0) }
        let width = count + 1
        let steps = product(n, width)
        let values = product(product(min(max(minRun, 1), n) + 1, width), 16)
        let bytes = sum(values, sum(steps / 4, product(n, 24)))
        return Work(steps: steps, bytes: bytes)
    }

    /// The indices of `count` candidates that cost least together, in blocks of at least
    /// `minRun` adjacent candidates (one block of `count` when `contiguous`), or nil when no
    /// choice fits. `candidates` are in time order; two are adjacent when one ends where the next
    /// starts. A block that starts at `continuing` (the end of a block already run) continues it
    /// and needs no length of its own.
    ///
    /// It costs ``work(candidates:count:minRun:contiguous:)``: callers hold that to a budget first.
    public static func choose(
        _ candidates: [Candidate], count: Int, minRun: Int, contiguous: Bool, continuing: Date? = nil
    ) -> [Int]? {
        guard count > 0, count <= candidates.count else { return count == 0 ? [] : nil }
        if contiguous || minRun >= count { return cheapestBlock(candidates, count: count).map { Array($0..<($0 + count)) } }
        return cheapestRuns(candidates, count: count, minRun: max(1, minRun), continuing: continuing)
    }

    /// `a + b`, or `Int.max` where that overflows.
    static func sum(_ a: Int, _ b: Int) -> Int {
        let (value, overflow) = a.addingReportingOverflow(b)
        return overflow ? Int.max : value
    }

    /// `a × b`, or `Int.max` where that overflows.
    static func product(_ a: Int, _ b: Int) -> Int {
        let (value, overflow) = a.multipliedReportingOverflow(by: b)
        return overflow ? Int.max : value
    }
}
