import FoundationEssentials

extension PlanBook {
    /// What of the book must outlive a restart, as the items of a store note: per job that has
    /// started in its window, one line `name⇥window start⇥job⇥start,end,price;…` of the blocks
    /// it has started. A restart in the middle of a block then runs the block on, rather than
    /// switching the job off and planning it again from now.
    public var startedLines: Set<String> {
        var lines: Set<String> = []
        for (name, memory) in kept where !memory.started.isEmpty {
            var w = JSONWriter()
            JobPatch(memory.job).write(to: &w)
            let slots = memory.started.map {
                "\(Bounded.wholeSeconds($0.start)),\(Bounded.wholeSeconds($0.end)),\(DecimalFormat.string($0.price))"
            }
            lines.insert(
                [name, String(Bounded.wholeSeconds(memory.window.start)), w.output, slots.joined(separator: ";")].joined(separator: "\t"))
        }
        return lines
    }

    /// The longest line read back, in bytes: two days of quarter hours fit with room to spare.
    static let maxLineBytes = 16 * 1024

    /// A book that keeps the started blocks of `lines` (``startedLines`` of an earlier run) whose
    /// job is still set as it was. A line that does not read back whole is left out.
    public init(restoring lines: Set<String>, jobs: [String: Job]) {
        self.init()
        for line in lines where line.utf8.count <= Self.maxLineBytes {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count == 4, let job = jobs[String(fields[0])],
                let windowStart = Bounded.decimal(fields[1]).flatMap({ Bounded.instant(secondsSince1970: $0) }),
                let json = JSONValue.parse(Array(fields[2].utf8)),
                let stored = try? JobPatch(json: json, field: "jobs").applied(to: nil), stored == job,
                let slots = Self.slots(fields[3])
            else { continue }
            kept[String(fields[0])] = Kept(
                job: job, window: DateInterval(start: windowStart, end: windowStart), slots: slots, nowMeanPrice: nil,
                whole: job.contiguous || job.minBlock >= job.duration, grid: TimeGrid([], held: slots), offered: [],
                chosen: [], started: slots)
        }
    }

    /// `start,end,price;…` in order, each slot after the one before; nil for anything else.
    private static func slots(_ text: Substring) -> [Plan.Slot]? {
        var slots: [Plan.Slot] = []
        for item in text.split(separator: ";") {
            let parts = item.split(separator: ",", omittingEmptySubsequences: false)
            guard parts.count == 3, let start = Bounded.decimal(parts[0]).flatMap({ Bounded.instant(secondsSince1970: $0) }),
                let end = Bounded.decimal(parts[1]).flatMap({ Bounded.instant(secondsSince1970: $0) }), end > start,
                let price = Bounded.decimal(parts[2]).flatMap({ Bounded.number($0, in: -1000...1000) }),
                slots.last.map({ $0.end <= start }) ?? true
            else { return nil }
            slots.append(Plan.Slot(start: start, end: end, price: price))
        }
        return slots.isEmpty ? nil : slots
    }
}
