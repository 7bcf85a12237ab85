import FoundationEssentials

/// The forecast a profile shows where no official price is, each slot priced and banded as the
/// official ones are when it is read.
///
/// A week of quarter hours is 672 slots. Held as ``PricedSlot`` values (about 140 bytes each, the
/// price's parts and the provenance in every one) that was about 90 KB per profile, kept for a
/// day; this holds each slot's start, end and forecast figure (24 bytes), the rest once, and
/// prices a slot only when it is read: when a payload is rendered, a plan made, a clock drawn.
public struct ForecastTail: Sendable, Equatable, RandomAccessCollection {
    private var series = CompactSeries()
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
        let priced = forecast.filter {
            Snapshot.Basis.components($0, calendar, settings, rates, missingRate: &missingRate, nonFinitePrice: &nonFinitePrice) != nil
        }
        series = CompactSeries(priced)
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
    public var startIndex: Int { series.startIndex }
    /// One past the last index.
    public var endIndex: Int { series.endIndex }

    /// The slot at `index`, priced and banded.
    public subscript(index: Int) -> PricedSlot {
        let slot = series[index]
        var missingRate = false
        var nonFinitePrice = false
        // It priced when the tail was made, under the same settings and rates: a pure function of
        // the same values, it prices again.
        let parts = Snapshot.Basis.components(slot, calendar!, pricing, rates, missingRate: &missingRate, nonFinitePrice: &nonFinitePrice)!
        return PricedSlot(slot: slot, components: parts, band: Snapshot.Basis.band(of: parts.total, thresholds, banding))
    }

    /// Who forecast the slots and when; nil without any.
    public var provenance: Provenance? { series.provenance }

    /// Whether both hold the same slots, priced and banded alike: a tail banded again under a
    /// change of thresholds equals one made afresh under the new settings.
    public static func == (a: ForecastTail, b: ForecastTail) -> Bool {
        // Cheapest first: a tail is compared at every slot boundary with the one rendered last,
        // nearly always its own copy (the same arrays, found equal at once).
        a.series == b.series && a.thresholds == b.thresholds && a.calendar?.timeZone == b.calendar?.timeZone
            && a.banding.direction == b.banding.direction && a.banding.negativeBand == b.banding.negativeBand && a.rates == b.rates
            && a.pricing.pricesAlike(b.pricing)
    }

    /// The slots from where `official` ends on, found without pricing those before: what a plan
    /// or a forecast payload may add after the official prices, never among them.
    public func continuing(_ official: [PricedSlot]) -> Slice<ForecastTail> {
        let end = official.last?.slot.end ?? .distantPast
        return self[series.firstIndex(startingAtOrAfter: end)...]
    }

    /// The start of the slot at `index`, read without pricing it.
    public func start(at index: Int) -> Date { series.start(at: index) }
}
