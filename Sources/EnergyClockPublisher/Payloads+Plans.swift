import EnergyClockDomain
import FoundationEssentials

extension Payloads {
    /// `plan/<name>/active` of every job: `ON` while it should run. Sent with `price`, at the
    /// same boundary and before anything else of the profile.
    package static func renderSwitches(_ snapshot: Snapshot, topics: TopicTree) -> [RetainedMessage] {
        snapshot.plans.map { RetainedMessage(topic: topics.planActive($0.name), payload: $0.active ? "ON" : "OFF") }
    }

    /// `plan/<name>` of every job.
    package static func renderPlans(_ snapshot: Snapshot, topics: TopicTree) -> [RetainedMessage] {
        snapshot.plans.map { RetainedMessage(topic: topics.plan($0.name), payload: planObject($0, snapshot)) }
    }

    /// `{"status","reason","tentative","active","start","end","next_start","window_start","window_end",
    /// "mean_price","now_mean_price","window_mean_price","saving_vs_now","saving_vs_average","unit","minimise","slots"}`:
    /// `minimise` is what the slots were chosen by, the job's `minimise` or else the profile's
    /// signal (`price`, `co2`, `grid`).
    package static func planObject(_ plan: Plan, _ snapshot: Snapshot) -> String {
        let calendar = snapshot.calendar
        func difference(_ a: Double?, _ b: Double?) -> Double? {
            guard let a, let b else { return nil }
            return DecimalFormat.rounded(a - b)
        }
        var w = JSONWriter()
        w.beginObject()
        w.field("status", plan.status.rawValue)
        w.field("reason", plan.reason)
        w.field("tentative", plan.tentative)
        w.field("active", plan.active)
        w.field("start", plan.start, in: calendar)
        w.field("end", plan.end, in: calendar)
        w.field("next_start", plan.nextStart, in: calendar)
        w.field("window_start", plan.window.start, in: calendar)
        w.field("window_end", plan.window.end, in: calendar)
        w.field("mean_price", plan.meanPrice)
        w.field("now_mean_price", plan.nowMeanPrice)
        w.field("window_mean_price", plan.windowMeanPrice)
        w.field("saving_vs_now", difference(plan.nowMeanPrice, plan.meanPrice))
        w.field("saving_vs_average", difference(plan.windowMeanPrice, plan.meanPrice))
        w.field("unit", snapshot.settings.unit)
        w.field("minimise", snapshot.settings.jobs[plan.name]?.minimise?.rawValue ?? snapshot.settings.signal.rawValue)
        w.key("slots")
        w.slots(plan.slots, priceKey: "price", in: calendar)
        w.endObject()
        return w.output
    }

    /// The event that tomorrow's prices are known, for one profile: `{"event":"tomorrow_known",
    /// "day","stats":{min, max, mean, cheapest, …},"windows":{"3h":{…}, …}}`.
    package static func tomorrowKnown(_ snapshot: Snapshot, cheapestHours: [Int]) -> String? {
        guard let first = snapshot.tomorrow.first else { return nil }
        let calendar = snapshot.calendar
        let decimals = snapshot.settings.priceDecimals
        var w = JSONWriter()
        w.beginObject()
        w.field("event", "tomorrow_known")
        w.field("day", calendar.day(containing: first.slot.start).description)
        w.key("stats")
        w.raw(stats(snapshot.tomorrow, current: nil, calendar, decimals: decimals))
        w.key("windows")
        w.beginObject()
        for hours in cheapestHours {
            w.key("\(hours)h")
            w.raw(
                window(
                    PriceWindow.cheapest(hours: hours, in: snapshot.tomorrow, from: first.slot.start), hours: hours, calendar,
                    decimals: decimals))
        }
        w.endObject()
        w.endObject()
        return w.output
    }
}
