import FoundationEssentials

/// A slot as shown to users: consumer price and band at the chosen resolution.
public struct PricedSlot: Sendable, Hashable {
    /// The slot with its market price.
    public var slot: PriceSlot
    /// What a household pays per kWh, in the settings' currency.
    public var price: Double
    /// The parts that make up ``price``.
    public var components: PriceComponents
    /// The colour band; nil only in relative mode before any price is known.
    public var band: Band?

    /// A slot shown with its price parts, in `band`.
    public init(slot: PriceSlot, components: PriceComponents, band: Band?) {
        self.slot = slot
        self.price = components.total
        self.components = components
        self.band = band
    }
}

/// Everything the outside world sees at one instant; derived purely from prices, settings and time.
public struct Snapshot: Sendable, Equatable {
    /// The profile this shows.
    public var profile = Profiles.firstName
    /// The instant this describes.
    public var now: Date
    /// The zone that local times are written in.
    public var timeZone: TimeZoneRules
    /// The effective settings.
    public var settings: Settings
    /// The thresholds in force; computed in relative mode.
    public var thresholds: Thresholds?
    /// How many prices relative thresholds came from; nil in absolute mode.
    public var samples: Int?
    /// Today's slots.
    public var today: [PricedSlot]
    /// Tomorrow's slots; empty until published.
    public var tomorrow: [PricedSlot]
    /// The slot holding `now`, if any is known.
    public var current: PricedSlot?
    /// The slot after the current one, if known.
    public var next: PricedSlot?
    /// The source that served the prices.
    public var source: String
    /// The last fetch failed; the prices shown come from the cache.
    public var stale: Bool
    /// The last successful fetch.
    public var updatedAt: Date?
    /// Tomorrow's prices are completely known.
    public var tomorrowValid: Bool
    /// Prices are converted to another currency, and the day of some known slot has no rate yet:
    /// those slots are left out rather than shown at a made-up rate.
    public var missingRate: Bool
    /// Some slot's price worked out to NaN or infinity, from settings and rates that each passed
    /// their checks: those slots are left out too, and the manager logs it, rather than publish `nan`.
    public var nonFinitePrice = false

    /// The local calendar of ``timeZone``.
    public var calendar: LocalCalendar { LocalCalendar(timeZone: timeZone) }

    /// Derives what to show at `now` from the native slots of one source.
    public static func derive(
        now: Date, calendar: LocalCalendar, settings: Settings, slots: [PriceSlot],
        source: String, stale: Bool, updatedAt: Date?, rates: ExchangeRates = ExchangeRates()
    ) -> Snapshot {
        let today = calendar.day(containing: now)
        let todaySpan = calendar.interval(of: today)
        let tomorrowSpan = calendar.interval(of: today.adding(days: 1))
        let historyStart = calendar.start(of: today.adding(days: 1 - settings.historyDays))
        let window = DateInterval(start: min(historyStart, todaySpan.start), end: tomorrowSpan.end)
        let resolved = Array(slots.overlapping(window)).at(settings.resolution, in: calendar)

        var missingRate = false
        var nonFinitePrice = false
        /// The parts of what a household pays for `slot`, or nil when its day has no exchange rate.
        func components(_ slot: PriceSlot) -> PriceComponents? {
            guard let rate = rates.rate(settings.currency, on: calendar.day(containing: slot.start)) else {
                missingRate = true
                return nil
            }
            let fee = settings.gridFee.fee(from: slot.start, to: slot.end, in: calendar)
            let parts = PriceComponents(market: slot.market * rate, gridFee: fee, settings: settings)
            guard parts.isFinite else {
                nonFinitePrice = true
                return nil
            }
            return parts
        }

        var thresholds: Thresholds?
        var samples: Int?
        switch settings.colorMode {
        case .absolute:
            thresholds = settings.thresholds
        case .relative:
            let prices = resolved.lazy.filter { $0.start >= historyStart && $0.start < todaySpan.end }.compactMap { components($0)?.total }
            samples = prices.count
            thresholds = Thresholds.quartiles(of: Array(prices))?.rounded()
        }

        func priced(_ slot: PriceSlot) -> PricedSlot? {
            guard let parts = components(slot) else { return nil }
            return PricedSlot(
                slot: slot, components: parts, band: thresholds.map { Band.of(parts.total, under: $0, reversed: settings.bandsReversed) })
        }
        func starting(in span: DateInterval) -> [PricedSlot] {
            resolved.filter { $0.start >= span.start && $0.start < span.end }.compactMap(priced)
        }

        var current: PricedSlot?
        var next: PricedSlot?
        if let i = resolved.index(containing: now) {
            current = priced(resolved[i])
            if current != nil, i + 1 < resolved.count { next = priced(resolved[i + 1]) }
        }
        let todaySlots = starting(in: todaySpan)
        let tomorrowSlots = starting(in: tomorrowSpan)

        return Snapshot(
            now: now, timeZone: calendar.timeZone, settings: settings, thresholds: thresholds, samples: samples,
            today: todaySlots, tomorrow: tomorrowSlots, current: current, next: next, source: source, stale: stale,
            updatedAt: updatedAt, tomorrowValid: slots.covers(tomorrowSpan) && !missingRate && !nonFinitePrice,
            missingRate: missingRate, nonFinitePrice: nonFinitePrice
        )
    }
}
