import FoundationEssentials

/// Slots of one series held in little memory: each slot's start, end and figure (24 bytes), and
/// what they all share (quantity, basis, level, provenance) once.
///
/// A forecast is one provider's, issued once, for one quantity: a week of quarter hours is 672
/// slots, which as ``SeriesSlot`` values (a currency code and a provenance in each) took about
/// 54 KB per feed. Slots that do not share those (never one forecast's) are held as they are.
public struct CompactSeries: Sendable, Equatable, RandomAccessCollection {
    /// What each slot keeps of its own.
    struct Figure: Sendable, Equatable {
        var start: Date
        var end: Date
        var value: Double
    }

    private var figures: [Figure] = []
    /// What every slot shares; nil without slots, or when they are held whole in ``mixed``.
    private var shared: SeriesSlot?
    /// Slots that do not all share the same quantity, basis, level and provenance.
    private var mixed: [SeriesSlot]?

    /// No slots.
    public init() {}

    /// `slots`, held compactly when they share their quantity, basis, level and provenance.
    public init(_ slots: some Collection<SeriesSlot>) {
        guard let first = slots.first else { return }
        guard slots.allSatisfy({ $0.sharesAllBut(figures: first) }) else {
            mixed = Array(slots)
            return
        }
        shared = first
        figures = slots.map { Figure(start: $0.start, end: $0.end, value: $0.value) }
    }

    /// The first index.
    public var startIndex: Int { 0 }
    /// One past the last index.
    public var endIndex: Int { mixed?.count ?? figures.count }

    /// The slot at `index`.
    public subscript(index: Int) -> SeriesSlot {
        if let mixed { return mixed[index] }
        let figure = figures[index]
        var slot = shared!
        slot.start = figure.start
        slot.end = figure.end
        slot.value = figure.value
        return slot
    }

    /// The start of the slot at `index`, read without making the slot.
    public func start(at index: Int) -> Date { mixed?[index].start ?? figures[index].start }

    /// The first index whose slot starts at or after `instant`, the slots being in time order.
    public func firstIndex(startingAtOrAfter instant: Date) -> Int {
        var low = startIndex
        var high = endIndex
        while low < high {
            let mid = (low + high) / 2
            if start(at: mid) >= instant { high = mid } else { low = mid + 1 }
        }
        return low
    }

    /// Where they came from, when they share it (the first slot's otherwise); nil without slots.
    public var provenance: Provenance? { shared?.provenance ?? mixed?.first?.provenance }
}

extension SeriesSlot {
    /// Whether this slot and `other` differ at most in start, end and value.
    func sharesAllBut(figures other: SeriesSlot) -> Bool {
        quantity == other.quantity && basis == other.basis && level == other.level && provenance == other.provenance
    }
}
