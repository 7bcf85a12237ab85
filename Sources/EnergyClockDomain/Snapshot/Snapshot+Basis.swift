import FoundationEssentials

extension Snapshot {
    /// Everything a snapshot derives from one local day's prices, settings and rates, whatever
    /// the instant within that day: the day's priced slots, the thresholds, the flags.
    ///
    /// A slot boundary changes only which slot is current, so the manager keeps a basis per
    /// profile and derives each boundary's snapshot from it in two slot lookups, not by pricing
    /// the whole window again.
    public struct Basis: Sendable {
        /// The local day it describes.
        public let day: LocalDay
        let calendar: LocalCalendar
        package private(set) var settings: Settings
        let rates: ExchangeRates
        /// The window's slots at the settings' resolution, to the end of tomorrow: from the first
        /// history day for relative thresholds, from the start of the day for absolute ones.
        let resolved: [SeriesSlot]
        package private(set) var thresholds: Thresholds?
        let samples: Int?
        private(set) var today: [PricedSlot]
        private(set) var tomorrow: [PricedSlot]
        private(set) var forecast: ForecastTail
        /// The native slots cover tomorrow.
        let coversTomorrow: Bool
        let missingRate: Bool
        let nonFinitePrice: Bool

        /// The basis of `day` from the native slots of one source, with a provider's `forecast`
        /// where those have no price.
        public init(
            day: LocalDay, calendar: LocalCalendar, settings: Settings, slots: [SeriesSlot], forecast: [SeriesSlot] = [],
            rates: ExchangeRates
        ) {
            let todaySpan = calendar.interval(of: day)
            let tomorrowSpan = calendar.interval(of: day.adding(days: 1))
            let historyStart = calendar.start(of: day.adding(days: 1 - settings.historyDays))
            // The history days only feed relative thresholds: with absolute ones (a settings change's
            // usual case) resolving them to the settings' resolution was most of the work.
            let firstNeeded = settings.bandMode == .relative ? min(historyStart, todaySpan.start) : todaySpan.start
            let window = DateInterval(start: firstNeeded, end: tomorrowSpan.end)
            let resolved = Array(slots.overlapping(window)).at(settings.resolution, in: calendar)

            var missingRate = false
            var nonFinitePrice = false
            var thresholds: Thresholds?
            var samples: Int?
            switch settings.bandMode {
            case .absolute:
                thresholds = settings.signalThresholds
            case .levels:
                thresholds = nil
            case .relative:
                var prices: [Double] = []
                for slot in resolved where slot.start >= historyStart && slot.start < todaySpan.end {
                    guard
                        let parts = Self.components(
                            slot, calendar, settings, rates, missingRate: &missingRate, nonFinitePrice: &nonFinitePrice)
                    else { continue }
                    prices.append(parts.total)
                }
                samples = prices.count
                thresholds = Thresholds.quartiles(of: prices)?.rounded()
            }
            // Both days in one pass. The flags are passed to plain loops, not captured: a closure
            // over them checked its access to them at run time, for every slot.
            var today: [PricedSlot] = []
            var tomorrow: [PricedSlot] = []
            for slot in resolved where slot.start >= todaySpan.start && slot.start < tomorrowSpan.end {
                guard
                    let priced = Self.priced(
                        slot, calendar, settings, rates, thresholds, missingRate: &missingRate, nonFinitePrice: &nonFinitePrice)
                else { continue }
                if slot.start < todaySpan.end { today.append(priced) } else { tomorrow.append(priced) }
            }
            // The forecast from today on, where no official slot is: official prices always win.
            var unpriced: [SeriesSlot] = []
            for slot in forecast where slot.end > todaySpan.start {
                if slots.overlapping(DateInterval(start: slot.start, end: slot.end)).isEmpty { unpriced.append(slot) }
            }
            let forecastTail = ForecastTail(
                unpriced.at(settings.resolution, in: calendar), calendar, settings, rates, thresholds, missingRate: &missingRate,
                nonFinitePrice: &nonFinitePrice)

            self.day = day
            self.calendar = calendar
            self.settings = settings
            self.rates = rates
            self.resolved = resolved
            self.thresholds = thresholds
            self.samples = samples
            self.today = today
            self.tomorrow = tomorrow
            self.forecast = forecastTail
            self.coversTomorrow = slots.covers(tomorrowSpan)
            self.missingRate = missingRate
            self.nonFinitePrice = nonFinitePrice
        }

        /// This basis under `settings`, which price every slot alike (``Settings/pricesAlike(_:)``):
        /// the same priced slots, each put in its band again.
        ///
        /// Relative thresholds are the quartiles of the prices, which are the same; absolute ones
        /// are the new settings'.
        package func rebanded(under settings: Settings) -> Basis {
            var basis = self
            basis.settings = settings
            if settings.bandMode == .absolute { basis.thresholds = settings.signalThresholds }
            func banded(_ slot: PricedSlot) -> PricedSlot {
                var slot = slot
                slot.band = Self.band(of: slot.price, slot: slot.slot, basis.thresholds, settings)
                return slot
            }
            basis.today = today.map(banded)
            basis.tomorrow = tomorrow.map(banded)
            basis.forecast = forecast.rebanded(under: settings, basis.thresholds)
            return basis
        }

        /// What to show at `now`, an instant of ``day``.
        public func snapshot(at now: Date, source: String, stale: Bool, updatedAt: Date?) -> Snapshot {
            var missingRate = missingRate
            var nonFinitePrice = nonFinitePrice
            func priced(_ slot: SeriesSlot) -> PricedSlot? {
                Self.priced(slot, calendar, settings, rates, thresholds, missingRate: &missingRate, nonFinitePrice: &nonFinitePrice)
            }
            var current: PricedSlot?
            var next: PricedSlot?
            if let i = resolved.index(containing: now) {
                current = priced(resolved[i])
                if current != nil, i + 1 < resolved.count { next = priced(resolved[i + 1]) }
            }
            return Snapshot(
                now: now, timeZone: calendar.timeZone, settings: settings, thresholds: thresholds, samples: samples,
                today: today, tomorrow: tomorrow, forecast: forecast, current: current, next: next, source: source, stale: stale,
                updatedAt: updatedAt, tomorrowValid: coversTomorrow && !missingRate && !nonFinitePrice,
                missingRate: missingRate, nonFinitePrice: nonFinitePrice
            )
        }

        /// The parts of what a household pays for `slot`, or nil when its day has no exchange rate
        /// or the parts are not finite (noted in the flags); an intensity is its own one part.
        static func components(
            _ slot: SeriesSlot, _ calendar: LocalCalendar, _ settings: Settings, _ rates: ExchangeRates,
            missingRate: inout Bool, nonFinitePrice: inout Bool
        ) -> PriceComponents? {
            // An intensity is shown as it is, at the decimals it is published with.
            guard let currency = slot.currency else {
                let value = slot.value
                guard value.isFinite else {
                    nonFinitePrice = true
                    return nil
                }
                let decimals = slot.quantity.gridScale == nil ? Quantity.intensityDecimals : 0
                return PriceComponents(market: value, markup: 0, surcharge: 0, gridFee: 0, vat: 0, decimals: decimals)
            }
            guard let rate = rates.conversion(from: currency, to: settings.currency, on: calendar.day(containing: slot.start)) else {
                missingRate = true
                return nil
            }
            let fee = settings.gridFee.fee(from: slot.start, to: slot.end, in: calendar)
            let parts = PriceComponents(market: slot.value * rate, basis: slot.basis, gridFee: fee, settings: settings)
            guard parts.isFinite else {
                nonFinitePrice = true
                return nil
            }
            return parts
        }

        /// `slot` priced and put in its band under `thresholds`.
        static func priced(
            _ slot: SeriesSlot, _ calendar: LocalCalendar, _ settings: Settings, _ rates: ExchangeRates, _ thresholds: Thresholds?,
            missingRate: inout Bool, nonFinitePrice: inout Bool
        ) -> PricedSlot? {
            guard let parts = components(slot, calendar, settings, rates, missingRate: &missingRate, nonFinitePrice: &nonFinitePrice)
            else { return nil }
            return PricedSlot(slot: slot, components: parts, band: band(of: parts.total, slot: slot, thresholds, settings))
        }

        /// The band of `slot`, priced at `price`: for a grid signal the band its operator's light
        /// shows (``GridScale``), otherwise as ``band(of:level:_:_:)`` says.
        static func band(of price: Double, slot: SeriesSlot, _ thresholds: Thresholds?, _ settings: Settings) -> Band? {
            if let scale = slot.quantity.gridScale { return scale.state(at: slot.value)?.band }
            return band(of: price, level: slot.level, thresholds, settings)
        }

        /// The band of a slot priced at `price` under `thresholds` and `settings`; nil without
        /// thresholds. Under `color_mode: levels` the band of the source's `level` instead
        /// (``Band/of(level:reversed:)``), nil for a slot it does not rate.
        static func band(of price: Double, level: PriceLevel?, _ thresholds: Thresholds?, _ settings: Settings) -> Band? {
            if let thresholds {
                return Band.of(price, under: thresholds, reversed: settings.bandsReversed, negative: settings.negativeBand)
            }
            guard settings.colorMode == .levels, let level else { return nil }
            if settings.negativeBand, price < 0 { return .negative }
            return Band.of(level: level, reversed: settings.bandsReversed)
        }
    }
}
