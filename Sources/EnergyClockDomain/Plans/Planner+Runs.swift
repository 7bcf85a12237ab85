import FoundationEssentials

extension Planner {
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

    /// The cheapest `count` candidates in blocks of at least `minRun` adjacent ones, by dynamic
    /// programming from the last candidate back, in O(n × count) steps.
    ///
    /// Two values per candidate `i` and count `j` still to choose, over candidates `i…`:
    /// - `free`: no block is open at `i`. Skip `i`, or start a block of its shortest length there
    ///   (`minRun`, or 1 where it continues the block already run) and go on with it open.
    /// - `open`: a block long enough already holds `i − 1`, and `i` is adjacent to it. Take `i`
    ///   too, or end the block, which skips `i`.
    ///
    /// Starting a block looks `minRun` candidates ahead, so `minRun + 1` rows of values are kept;
    /// what was decided at each step is kept as two bits, and the choice is read forwards from
    /// them, taking a candidate wherever taking it costs no more: the earliest of equal choices.
    static func cheapestRuns(_ c: [Candidate], count: Int, minRun: Int, continuing: Date?) -> [Int]? {
        let n = c.count
        let none = Int64.max / 4
        let width = count + 1
        // prefix[i] is the cost of candidates 0..<i; reach[i] the end of the adjacent run from i.
        var prefix = [Int64](repeating: 0, count: n + 1)
        for i in 0..<n { prefix[i + 1] = prefix[i] + c[i].cost }
        var reach = [Int](repeating: n, count: n)
        if n > 1 {
            for i in stride(from: n - 2, through: 0, by: -1) { reach[i] = c[i + 1].start == c[i].end ? reach[i + 1] : i + 1 }
        }
        /// Whether candidate `p` follows `p − 1` without a gap.
        func joined(_ p: Int) -> Bool { p > 0 && reach[p - 1] > p }
        func shortest(_ i: Int) -> Int { continuing != nil && c[i].start == continuing! ? 1 : minRun }

        let rows = minRun + 1
        var free = [Int64](repeating: none, count: rows * width)
        var open = [Int64](repeating: none, count: rows * width)
        // Past the last candidate nothing more can be chosen.
        var end = [Int64](repeating: none, count: width)
        end[0] = 0
        var starts = DecisionBits(count: n * width)
        var extends = DecisionBits(count: n * width)
        free.withUnsafeMutableBufferPointer { free in
            open.withUnsafeMutableBufferPointer { open in
                end.withUnsafeMutableBufferPointer { end in
                    starts.withWords { starts in
                        extends.withWords { extends in
                            /// The row of values after a block that holds `p − 1`: open while `p`
                            /// joins it, free where it does not, and the end past the last.
                            func after(_ p: Int) -> UnsafeMutablePointer<Int64> {
                                if p == n { return end.baseAddress! }
                                return (joined(p) ? open.baseAddress! : free.baseAddress!) + (p % rows) * width
                            }
                            for i in stride(from: n - 1, through: 0, by: -1) {
                                let here = (i % rows) * width
                                let skipRow = i + 1 == n ? end.baseAddress! : free.baseAddress! + ((i + 1) % rows) * width
                                let stayRow = after(i + 1)
                                let length = shortest(i)
                                // A block that cannot start here never does: its rest is `none`.
                                let startFits = reach[i] - i >= length
                                let beginRow = startFits ? after(i + length) : end.baseAddress!
                                let blockCost = startFits ? prefix[i + length] - prefix[i] : 0
                                let firstBegin = startFits ? length : width
                                let cost = c[i].cost
                                let bits = i * width
                                free[here] = 0
                                open[here] = 0
                                for j in 1..<width {
                                    // Open at i: take it and stay open, or end the block by skipping it.
                                    let stay = stayRow[j - 1]
                                    let take = stay < none ? cost + stay : none
                                    let skip = skipRow[j]
                                    if take <= skip, take < none {
                                        open[here + j] = take
                                        DecisionBits.set(extends, bits + j)
                                    } else {
                                        open[here + j] = skip
                                    }
                                    // Free at i: start a block of the shortest length, or skip i.
                                    let rest = j >= firstBegin ? beginRow[j - length] : none
                                    let begin = rest < none ? blockCost + rest : none
                                    if begin <= skip, begin < none {
                                        free[here + j] = begin
                                        DecisionBits.set(starts, bits + j)
                                    } else {
                                        free[here + j] = skip
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        guard free[count] < none else { return nil }

        // Forwards, through the decisions: wherever taking costs no more, it was taken.
        var chosen: [Int] = []
        chosen.reserveCapacity(count)
        var i = 0
        var j = count
        var isOpen = false
        while j > 0, i < n {
            if isOpen {
                if extends[i * width + j] {
                    chosen.append(i)
                    j -= 1
                    i += 1
                    isOpen = i < n && joined(i)
                } else {
                    i += 1
                    isOpen = false
                }
            } else if starts[i * width + j] {
                let length = shortest(i)
                chosen += i..<(i + length)
                j -= length
                i += length
                isOpen = i < n && joined(i)
            } else {
                i += 1
            }
        }
        return j == 0 ? chosen : nil
    }
}

/// One bit per step of the search: whether it took the candidate there.
private struct DecisionBits {
    private var words: [UInt64]

    init(count: Int) { words = [UInt64](repeating: 0, count: (count + 63) / 64) }

    /// `body` with the words in place, to set bits in the search's inner loop.
    mutating func withWords<Result>(_ body: (UnsafeMutablePointer<UInt64>) -> Result) -> Result {
        words.withUnsafeMutableBufferPointer { body($0.baseAddress!) }
    }

    static func set(_ words: UnsafeMutablePointer<UInt64>, _ index: Int) { words[index >> 6] |= 1 << UInt64(index & 63) }

    subscript(index: Int) -> Bool { words[index >> 6] & (1 << UInt64(index & 63)) != 0 }
}
