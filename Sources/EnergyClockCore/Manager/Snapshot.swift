import Foundation

/// A slot as shown to users: consumer price and band at the chosen resolution.
public struct PricedSlot: Sendable, Hashable {
    /// The slot with its market price.
    public var slot: PriceSlot
    /// What a household pays, EUR/kWh.
    public var price: Double
    /// The colour band; nil only in relative mode before any price is known.
    public var band: Band?

    /// A slot shown at `price` in `band`.
    public init(slot: PriceSlot, price: Double, band: Band?) {
        self.slot = slot
        self.price = price
        self.band = band
    }
}

/// Everything the outside world sees at one instant; derived purely from prices, settings and time.
public struct Snapshot: Sendable, Equatable {
    /// The instant this describes.
    public var now: Date
    /// The zone that local times are written in.
    public var timeZone: TimeZone
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

    /// The local calendar of ``timeZone``.
    public var calendar: LocalCalendar { LocalCalendar(timeZone: timeZone) }

    /// Derives what to show at `now` from the native slots of one source.
    public static func derive(
        now: Date, calendar: LocalCalendar, settings: Settings, slots: [PriceSlot],
        source: String, stale: Bool, updatedAt: Date?
    ) -> Snapshot {
        let today = calendar.day(containing: now)
        let todaySpan = calendar.interval(of: today)
        let tomorrowSpan = calendar.interval(of: today.adding(days: 1))
        let historyStart = calendar.start(of: today.adding(days: 1 - settings.historyDays))
        let window = DateInterval(start: min(historyStart, todaySpan.start), end: tomorrowSpan.end)
        let resolved = Array(slots.overlapping(window)).at(settings.resolution, in: calendar)

        var thresholds: Thresholds?
        var samples: Int?
        switch settings.colorMode {
        case .absolute:
            thresholds = settings.thresholds
        case .relative:
            let history = resolved.lazy.filter { $0.start >= historyStart && $0.start < todaySpan.end }
                .map { settings.consumerPrice($0.market) }
            let prices = Array(history)
            samples = prices.count
            thresholds = Thresholds.quartiles(of: prices)?.rounded()
        }

        func priced(_ slot: PriceSlot) -> PricedSlot {
            let price = settings.consumerPrice(slot.market)
            return PricedSlot(slot: slot, price: price, band: thresholds.map { Band.of(price, under: $0) })
        }
        func starting(in span: DateInterval) -> [PricedSlot] {
            resolved.filter { $0.start >= span.start && $0.start < span.end }.map(priced)
        }

        var current: PricedSlot?
        var next: PricedSlot?
        if let i = resolved.index(containing: now) {
            current = priced(resolved[i])
            if i + 1 < resolved.count { next = priced(resolved[i + 1]) }
        }

        return Snapshot(
            now: now, timeZone: calendar.timeZone, settings: settings, thresholds: thresholds, samples: samples,
            today: starting(in: todaySpan), tomorrow: starting(in: tomorrowSpan), current: current, next: next,
            source: source, stale: stale, updatedAt: updatedAt, tomorrowValid: slots.covers(tomorrowSpan)
        )
    }
}
