import FoundationEssentials

/// The forecast a profile shows where no official price is, each slot priced and banded as the
/// official ones are.
///
/// A week of quarter hours is 672 slots. Held as ``PricedSlot`` values (about 140 bytes each, the
/// price's parts and the provenance in every one) that was about 90 KB per profile, kept for a
/// day; this holds each slot's start, end and forecast figure (24 bytes) with its published price
/// and band (9 bytes), the rest once. The payloads read those (``shown(at:)``); a plan or the
/// clock, which read a slot whole, get its price's parts worked out again.
public struct ForecastTail: Sendable, Equatable, RandomAccessCollection {
    /// What a tail with slots holds, shared by its copies: a snapshot is copied often, and one
    /// reference is all a copy takes.
    private final class Storage: Sendable {
        let series: CompactSeries
        /// The calendar the slots were priced in.
        let calendar: LocalCalendar
        /// The settings the slots were priced under when the tail was made, and are priced under again.
        let pricing: Settings
        /// The settings that put a price in its band: ``pricing``'s, or a change's that prices alike.
        let banding: Settings
        let rates: ExchangeRates
        let thresholds: Thresholds?
        /// Each slot's price as published, and its band: what the payloads read, without pricing
        /// the slot again (9 bytes a slot).
        let prices: [Double]
        let bands: [Band?]

        init(
            series: CompactSeries, calendar: LocalCalendar, pricing: Settings, banding: Settings, rates: ExchangeRates,
            thresholds: Thresholds?, prices: [Double]
        ) {
            self.series = series
            self.calendar = calendar
            self.pricing = pricing
            self.banding = banding
            self.rates = rates
            self.thresholds = thresholds
            self.prices = prices
            bands = prices.map { Snapshot.Basis.band(of: $0, level: nil, thresholds, banding) }
        }
    }

    /// Nil without slots.
    private let storage: Storage?

    /// No forecast.
    public init() { storage = nil }

    private init(storage: Storage?) { self.storage = storage }

    /// The slots of `forecast` that price under `settings`, `rates` and `thresholds`; the rest are
    /// left out, with the flags of ``Snapshot/Basis`` noting why.
    init(
        _ forecast: [SeriesSlot], _ calendar: LocalCalendar, _ settings: Settings, _ rates: ExchangeRates, _ thresholds: Thresholds?,
        missingRate: inout Bool, nonFinitePrice: inout Bool
    ) {
        var priced: [SeriesSlot] = []
        var prices: [Double] = []
        for slot in forecast {
            guard
                let parts = Snapshot.Basis.components(
                    slot, calendar, settings, rates, missingRate: &missingRate, nonFinitePrice: &nonFinitePrice)
            else { continue }
            priced.append(slot)
            prices.append(parts.total)
        }
        storage =
            priced.isEmpty
            ? nil
            : Storage(
                series: CompactSeries(priced), calendar: calendar, pricing: settings, banding: settings, rates: rates,
                thresholds: thresholds, prices: prices)
    }

    /// This tail under `settings` and `thresholds`, which price every slot alike
    /// (``Settings/pricesAlike(_:)``): the same slots, in their new bands.
    func rebanded(under settings: Settings, _ thresholds: Thresholds?) -> ForecastTail {
        guard let storage else { return self }
        return ForecastTail(
            storage: Storage(
                series: storage.series, calendar: storage.calendar, pricing: storage.pricing, banding: settings, rates: storage.rates,
                thresholds: thresholds, prices: storage.prices))
    }

    /// The first index.
    public var startIndex: Int { 0 }
    /// One past the last index.
    public var endIndex: Int { storage?.series.endIndex ?? 0 }

    /// The slot at `index`, with its price's parts worked out again and its band.
    public subscript(index: Int) -> PricedSlot {
        let storage = storage!
        let slot = storage.series[index]
        var missingRate = false
        var nonFinitePrice = false
        // It priced when the tail was made, under the same settings and rates: a pure function of
        // the same values, it prices again.
        let parts = Snapshot.Basis.components(
            slot, storage.calendar, storage.pricing, storage.rates, missingRate: &missingRate, nonFinitePrice: &nonFinitePrice)!
        return PricedSlot(slot: slot, components: parts, band: storage.bands[index])
    }

    /// Whether both hold the same slots, priced and banded alike: a tail banded again under a
    /// change of thresholds equals one made afresh under the new settings.
    public static func == (a: ForecastTail, b: ForecastTail) -> Bool {
        // A tail is compared at every slot boundary with the one rendered last, nearly always
        // its own copy: the same storage, equal at once.
        if a.storage === b.storage { return true }
        guard let a = a.storage, let b = b.storage else { return false }
        return a.series == b.series && a.thresholds == b.thresholds && a.calendar.timeZone == b.calendar.timeZone
            && a.banding.direction == b.banding.direction && a.banding.negativeBand == b.banding.negativeBand && a.rates == b.rates
            && a.pricing.pricesAlike(b.pricing)
    }

    /// The slots from where `official` ends on, found without pricing those before: what a plan
    /// or a forecast payload may add after the official prices, never among them.
    public func continuing(_ official: [PricedSlot]) -> Slice<ForecastTail> {
        let end = official.last?.slot.end ?? .distantPast
        return self[(storage?.series.firstIndex(startingAtOrAfter: end) ?? 0)...]
    }

    /// Who forecast the slots and when; nil without any.
    public var provenance: Provenance? { storage?.series.provenance }

    /// The start of the slot at `index`, read without pricing it.
    public func start(at index: Int) -> Date { storage!.series.start(at: index) }

    /// The slot at `index` with its price as published and its band, read without pricing it
    /// again: what the payloads show of it.
    public func shown(at index: Int) -> (slot: Plan.Slot, band: Band?) {
        let storage = storage!
        let slot = storage.series[index]
        return (Plan.Slot(start: slot.start, end: slot.end, price: storage.prices[index]), storage.bands[index])
    }
}
