import EnergyClockDomain
import FoundationEssentials

/// One local day as a 24-hour clock: a sector per elapsed hour, each coloured by its slots' bands.
///
/// A daylight-saving day has 23 or 25 sectors; on the long day the repeated hour appears twice,
/// with the same label. Every renderer (terminal, SVG, PNG) draws from this value.
public struct ClockFace: Sendable, Equatable {
    /// One hour of the day.
    public struct Sector: Sendable, Equatable {
        /// The local hour it starts at, `00`…`23`.
        public var label: String
        /// Its start and end in absolute time.
        public var start: Date
        public var end: Date
        /// The bands of its parts in time order: one for an hourly price, four for quarter-hours;
        /// nil where no price is known.
        public var parts: [Band?]
        /// Now falls in this hour.
        public var isCurrent: Bool
        /// Which of ``parts`` come from a forecast, not an official price: drawn paler.
        public var forecast: [Bool] = []

        /// Whether part `index` comes from a forecast.
        public func isForecast(_ index: Int) -> Bool { index < forecast.count && forecast[index] }
    }

    /// The day shown.
    public var day: LocalDay
    /// Its hours in order.
    public var sectors: [Sector]
    /// How far through the day now is (0…1), when the day shown is today.
    public var hand: Double?
    /// The current consumer price and its band, when the day shown is today and a price is known.
    public var price: Double?
    public var band: Band?
    /// The unit of prices, e.g. `EUR/kWh`.
    public var unit: String
    /// The thresholds in force, for the legend.
    public var thresholds: Thresholds?
    /// The colour of each band.
    public var palette: [Band: RGBColor]
    /// Who served the prices, and whether they are stale.
    public var source: String
    public var stale: Bool
    /// Whether prices below zero have a band of their own, shown first in the legend.
    public var negativeBand = false
    /// What the middle says when the face has no hand: `tomorrow`, or the weekday of a day drawn
    /// for the record.
    public var caption: String?
    /// The provider of the forecast some parts show, for the legend; nil when every part is official.
    public var forecastProvider: String?
    /// The legend of a clock banded by the source's own ratings: a grid operator's states, or
    /// the words of each band under `color_mode: levels`; empty for a clock banded by thresholds.
    public var ratings: [Rating] = []
    /// The operator's name for now on a grid clock (`supergreen`), shown instead of the step.
    public var nowName: String?

    /// One entry of ``ratings``: a band and what it stands for.
    public struct Rating: Sendable, Equatable {
        /// The band.
        public var band: Band
        /// The ratings it stands for, in the source's words.
        public var text: String
    }

    /// A face from its parts.
    public init(
        day: LocalDay, sectors: [Sector], hand: Double?, price: Double?, band: Band?, unit: String, thresholds: Thresholds?,
        palette: [Band: RGBColor], source: String, stale: Bool, caption: String? = nil
    ) {
        self.caption = caption
        self.day = day
        self.sectors = sectors
        self.hand = hand
        self.price = price
        self.band = band
        self.unit = unit
        self.thresholds = thresholds
        self.palette = palette
        self.source = source
        self.stale = stale
    }

    /// The clock of today, or of tomorrow with `tomorrow`, from `snapshot`; with `showsNow` off,
    /// today's clock without the hand, the current slot or its price (a day drawn for the record).
    public init(_ snapshot: Snapshot, tomorrow: Bool = false, showsNow: Bool = true) {
        let calendar = snapshot.calendar
        let today = calendar.day(containing: snapshot.now)
        day = tomorrow ? today.adding(days: 1) : today
        let now = !tomorrow && showsNow
        let span = calendar.interval(of: day)
        // The official slots of the day, and the forecast where none is (it never overlaps them).
        let official = tomorrow ? snapshot.tomorrow : snapshot.today
        let predicted = snapshot.forecast.filter { $0.slot.start >= span.start && $0.slot.start < span.end }
        let slots = (official + predicted).sorted { $0.slot.start < $1.slot.start }
        let hours = Int((span.duration / 3600).rounded())
        sectors = (0..<hours).map { index in
            let start = span.start.addingTimeInterval(Double(index) * 3600)
            let end = min(start.addingTimeInterval(3600), span.end)
            let inside = slots.filter { $0.slot.start >= start && $0.slot.start < end }
            // Parts as long as the shortest slot in the hour, at most four.
            let shortest = inside.map(\.slot.duration).min() ?? 3600
            let count = max(1, min(4, Int((3600 / shortest).rounded())))
            var parts = [Band?](repeating: nil, count: count)
            var forecast = [Bool](repeating: false, count: count)
            for slot in inside {
                let first = Int((slot.slot.start.timeIntervalSince(start) / 3600 * Double(count)).rounded(.down))
                let last = Int((slot.slot.end.timeIntervalSince(start) / 3600 * Double(count)).rounded(.up))
                for part in max(0, first)..<min(count, max(first + 1, last)) {
                    parts[part] = slot.band
                    // A price forecast beyond the auction is drawn pale; a carbon source's own
                    // forecast is what a carbon clock shows all day, drawn as it is.
                    forecast[part] = !slot.slot.provenance.isOfficial && slot.slot.currency != nil
                }
            }
            let hour = calendar.wallClock(at: start).second / 3600
            var sector = Sector(
                label: (hour < 10 ? "0" : "") + String(hour), start: start, end: end, parts: parts,
                isCurrent: now && snapshot.now >= start && snapshot.now < end)
            if forecast.contains(true) { sector.forecast = forecast }
            return sector
        }
        forecastProvider = predicted.isEmpty ? nil : predicted[0].slot.provenance.source.description
        if let scale = slots.lazy.compactMap(\.slot.quantity.gridScale).first {
            ratings = scale.states.map { Rating(band: $0.band, text: $0.name) }
            nowName = now ? snapshot.current?.slot.levelName : nil
        } else if snapshot.settings.bandMode == .levels, let quantity = slots.first?.slot.quantity {
            ratings = Self.ratings(of: quantity, reversed: snapshot.settings.bandsReversed)
        }
        hand = now ? snapshot.now.timeIntervalSince(span.start) / span.duration : nil
        price = now ? snapshot.current?.price : nil
        band = now ? snapshot.current?.band : nil
        unit = snapshot.settings.unit
        thresholds = snapshot.thresholds
        palette = Dictionary(uniqueKeysWithValues: Band.allCases.map { ($0, snapshot.settings.color(of: $0)) })
        negativeBand = snapshot.settings.negativeBand
        source = snapshot.source
        stale = snapshot.stale
        caption = tomorrow ? "tomorrow" : (showsNow ? nil : Self.weekdays[day.weekday])
        if forecastProvider != nil, official.isEmpty, hand == nil { caption = (caption.map { $0 + " " } ?? "") + "(forecast)" }
    }

    /// What one value is called: `price`, or `intensity` on a carbon clock.
    public var noun: String {
        switch unit {
        case Quantity.carbonIntensity.unit: Quantity.carbonIntensity.noun
        case Quantity.stepUnit: "signal"
        default: "price"
        }
    }

    /// What the centre says while nothing is known for now: `no price now`, `no intensity now`.
    public var nothingNow: String { "no \(noun) now" }

    /// Weekday names, Monday first, as `LocalDay.weekday` counts.
    static let weekdays = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]

    /// What the legend says of the paler parts: `pale: forecast (<provider>)`; nil without any.
    public var forecastNote: String? { forecastProvider.map { "pale: forecast (\($0))" } }

    /// What the centre says of now, in two lines: the price and its unit, or on a grid clock the
    /// operator's name for the state and its step; nil while no price is known.
    public var now: (value: String, caption: String)? {
        guard let price else { return nil }
        if let nowName { return (nowName, "step \(DecimalFormat.string(price))") }
        return (DecimalFormat.string(price, decimals: 4), unit)
    }

    /// The legend: `< 0` for negative when that band is on, `≤ 0.1` for green, yellow and
    /// orange, `> 0.3` for red; the ``ratings`` on a clock banded by them.
    public var legend: [(band: Band, text: String)] {
        if !ratings.isEmpty { return ratings.map { ($0.band, $0.text) } }
        guard let t = thresholds else { return [] }
        return (negativeBand ? [(.negative, "< 0")] : []) + [
            (.green, "≤ " + DecimalFormat.string(t.greenMax)), (.yellow, "≤ " + DecimalFormat.string(t.yellowMax)),
            (.orange, "≤ " + DecimalFormat.string(t.orangeMax)), (.red, "> " + DecimalFormat.string(t.orangeMax)),
        ]
    }

    /// The words of each band's ratings under `color_mode: levels` (``Band/of(level:reversed:)``):
    /// `very low, low` for green on a carbon clock, `very cheap, cheap` on a price clock.
    static func ratings(of quantity: Quantity, reversed: Bool) -> [Rating] {
        [Band.green, .yellow, .orange, .red].map { band in
            let levels = reversed ? PriceLevel.allCases.reversed() : PriceLevel.allCases
            let words = levels.filter { Band.of(level: $0, reversed: reversed) == band }
                .map { String($0.name(for: quantity).lowercased().map { $0 == "_" ? " " : $0 }) }
            return Rating(band: band, text: words.joined(separator: ", "))
        }
    }
}
