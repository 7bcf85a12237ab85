import EnergyClockDomain
import FoundationEssentials

extension Payloads {
    /// `{"count","min","max","mean","median","cheapest":{start,end,price},"most_expensive":{…},"rank","quantile"}`;
    /// `rank` and `quantile` describe `current` and are null without one. `{}` for a day without prices.
    /// Prices have `decimals` decimals, the mean and the median too.
    package static func stats(_ slots: [PricedSlot], current: PricedSlot?, _ calendar: LocalCalendar, decimals: Int = 6) -> String {
        guard let stats = DayStats.of(slots) else { return "{}" }
        var w = JSONWriter()
        w.beginObject()
        w.field("count", stats.count)
        w.field("min", stats.min)
        w.field("max", stats.max)
        w.field("mean", DecimalFormat.rounded(stats.mean, decimals: decimals))
        w.field("median", DecimalFormat.rounded(stats.median, decimals: decimals))
        for (name, slot) in [("cheapest", stats.cheapest), ("most_expensive", stats.mostExpensive)] {
            w.key(name)
            w.beginObject()
            w.field("start", slot.slot.start, in: calendar)
            w.field("end", slot.slot.end, in: calendar)
            w.field("price", slot.price)
            w.endObject()
        }
        w.field("rank", current.map { stats.rank(of: $0.price, in: slots) })
        w.field("quantile", current.map { stats.quantile(of: $0.price) })
        w.endObject()
        return w.output
    }

    /// `{"hours","start","end","mean_price"}`, or an empty payload when no such window is known.
    static func window(_ window: PriceWindow?, hours: Int, _ calendar: LocalCalendar, decimals: Int = 6) -> String {
        guard let window else { return "" }
        var w = JSONWriter()
        w.beginObject()
        w.field("hours", hours)
        w.field("start", window.start, in: calendar)
        w.field("end", window.end, in: calendar)
        w.field("mean_price", DecimalFormat.rounded(window.meanPrice, decimals: decimals))
        w.endObject()
        return w.output
    }
}
