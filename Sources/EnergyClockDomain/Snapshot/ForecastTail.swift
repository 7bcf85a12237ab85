import FoundationEssentials

/// The forecast a profile shows where no official price is, each slot priced and banded as the
/// official ones are when it is read.
///
/// A week of quarter hours is 672 slots. Held as ``PricedSlot`` values (about 140 bytes each, the
/// price's parts and the provenance in every one) that was about 90 KB per profile, kept for a
/// day; this holds each slot's start, end and forecast figure (24 bytes), the rest once, and
/// prices a slot only when it is read: when a payload is rendered, a plan made, a clock drawn.
public struct ForecastTail: Sendable, Equatable, RandomAccessCollection {
    /// What each slot keeps of its ``SeriesSlot``.
    struct Figure: Sendable, Equatable {
        var start: Date
        var end: Date
        var value: Double
    }

    private var figures: [Figure] = []
    /// What every slot shares: its quantity, basis and provenance (one provider's forecast, issued
    /// once); nil without slots.
    private var shared: SeriesSlot?
    /// The calendar the slots were priced in; nil without slots.
    private var calendar: LocalCalendar?
    /// The settings the slots were priced under when the tail was made, and are priced under again.
    private var pricing = Settings.defaults
    /// The settings that put a price in its band: ``pricing``'s, or a change's that prices alike.
    private var banding = Settings.defaults
    private var rates = ExchangeRates()
    private var thresholds: Thresholds?

    /// No forecast.
    public init() {}

    /// The slots of `forecast` that price under `settings`, `rates` and `thresholds`; the rest are
    /// left out, with the flags of ``Snapshot/Basis`` noting why.
    init(
        _ forecast: [SeriesSlot], _ calendar: LocalCalendar, _ settings: Settings, _ rates: ExchangeRates, _ thresholds: Thresholds?,
        missingRate: inout Bool, nonFinitePrice: inout Bool
    ) {
        self.calendar = calendar
        self.pricing = settings
        self.banding = settings
        self.rates = rates
        self.thresholds = thresholds
        for slot in forecast {
            // A tail shares one provider's provenance, quantity and basis: a slot that differs
            // (never one from a single feed) is left out rather than shown under another's.
            if let shared, shared.provenance != slot.provenance || shared.quantity != slot.quantity || shared.basis != slot.basis {
                continue
            }
            guard
                Snapshot.Basis.components(slot, calendar, settings, rates, missingRate: &missingRate, nonFinitePrice: &nonFinitePrice)
                    != nil
            else { continue }
            if shared == nil { shared = slot }
            figures.append(Figure(start: slot.start, end: slot.end, value: slot.value))
        }
    }

    /// This tail under `settings` and `thresholds`, which price every slot alike
    /// (``Settings/pricesAlike(_:)``): the same slots, in their new bands.
    func rebanded(under settings: Settings, _ thresholds: Thresholds?) -> ForecastTail {
        var tail = self
        tail.banding = settings
        tail.thresholds = thresholds
        return tail
    }

    /// The first index.
    public var startIndex: Int { figures.startIndex }
    /// One past the last index.
    public var endIndex: Int { figures.endIndex }

    /// The slot at `index`, priced and banded.
    public subscript(index: Int) -> PricedSlot {
        let figure = figures[index]
        var slot = shared!
        slot.start = figure.start
        slot.end = figure.end
        slot.value = figure.value
        var missingRate = false
        var nonFinitePrice = false
        // It priced when the tail was made, under the same settings and rates: a pure function of
        // the same values, it prices again.
        let parts = Snapshot.Basis.components(slot, calendar!, pricing, rates, missingRate: &missingRate, nonFinitePrice: &nonFinitePrice)!
        return PricedSlot(slot: slot, components: parts, band: Snapshot.Basis.band(of: parts.total, thresholds, banding))
    }

    /// Who forecast the slots and when; nil without any.
    public var provenance: Provenance? { shared?.provenance }

    /// Whether both hold the same slots, priced and banded alike: a tail banded again under a
    /// change of thresholds equals one made afresh under the new settings.
    public static func == (a: ForecastTail, b: ForecastTail) -> Bool {
        // Cheapest first: a tail is compared at every slot boundary with the one rendered last,
        // nearly always its own copy (the same arrays, found equal at once).
        a.figures == b.figures && a.shared == b.shared && a.thresholds == b.thresholds && a.calendar?.timeZone == b.calendar?.timeZone
            && a.banding.direction == b.banding.direction && a.banding.negativeBand == b.banding.negativeBand && a.rates == b.rates
            && a.pricing.pricesAlike(b.pricing)
    }

    /// The slots from where `official` ends on, found without pricing those before: what a plan
    /// or a forecast payload may add after the official prices, never among them.
    public func continuing(_ official: [PricedSlot]) -> Slice<ForecastTail> {
        let end = official.last?.slot.end ?? .distantPast
        var low = figures.startIndex
        var high = figures.endIndex
        while low < high {
            let mid = (low + high) / 2
            if figures[mid].start >= end { high = mid } else { low = mid + 1 }
        }
        return self[low...]
    }

    /// The start of the slot at `index`, read without pricing it.
    public func start(at index: Int) -> Date { figures[index].start }

    /// Where the slots begin and end, for a cheap look without pricing them.
    public var span: DateInterval? {
        guard let first = figures.first, let last = figures.last else { return nil }
        return DateInterval(start: first.start, end: last.end)
    }
}
