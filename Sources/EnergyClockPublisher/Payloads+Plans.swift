import EnergyClockCore
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

    /// `{"status","reason","active","start","end","next_start","window_start","window_end",
    /// "mean_price","now_mean_price","window_mean_price","saving_vs_now","saving_vs_average","unit","slots"}`.
    package static func planObject(_ plan: Plan, _ snapshot: Snapshot) -> String {
        let calendar = snapshot.calendar
        func local(_ instant: Date?) -> String? { instant.map { ISO8601.local($0, in: calendar) } }
        func difference(_ a: Double?, _ b: Double?) -> Double? {
            guard let a, let b else { return nil }
            return DecimalFormat.rounded(a - b)
        }
        var w = JSONWriter()
        w.beginObject()
        w.field("status", plan.status.rawValue)
        w.field("reason", plan.reason)
        w.field("active", plan.active)
        w.field("start", local(plan.start))
        w.field("end", local(plan.end))
        w.field("next_start", local(plan.nextStart))
        w.field("window_start", local(plan.window.start))
        w.field("window_end", local(plan.window.end))
        w.field("mean_price", plan.meanPrice)
        w.field("now_mean_price", plan.nowMeanPrice)
        w.field("window_mean_price", plan.windowMeanPrice)
        w.field("saving_vs_now", difference(plan.nowMeanPrice, plan.meanPrice))
        w.field("saving_vs_average", difference(plan.windowMeanPrice, plan.meanPrice))
        w.field("unit", snapshot.settings.unit)
        w.key("slots")
        w.beginArray()
        for slot in plan.slots {
            w.beginObject()
            w.field("start", ISO8601.local(slot.start, in: calendar))
            w.field("end", ISO8601.local(slot.end, in: calendar))
            w.field("price", slot.price)
            w.endObject()
        }
        w.endArray()
        w.endObject()
        return w.output
    }

    /// The known slots from the current one on, today's and tomorrow's.
    static func ahead(_ snapshot: Snapshot) -> [PricedSlot] {
        (snapshot.today + snapshot.tomorrow).filter { $0.slot.end > snapshot.now }
    }

    /// evcc's custom tariff forecast (`forecast: source: mqtt`): `[{"start","end","value"}, …]`
    /// from the current slot on, times in RFC 3339, values the price per kWh as published.
    package static func evccForecast(_ snapshot: Snapshot) -> String {
        var w = JSONWriter()
        w.beginArray()
        for slot in ahead(snapshot) {
            w.beginObject()
            w.field("start", ISO8601.local(slot.slot.start, in: snapshot.calendar))
            w.field("end", ISO8601.local(slot.slot.end, in: snapshot.calendar))
            w.field("value", slot.price)
            w.endObject()
        }
        w.endArray()
        return w.output
    }

    /// One price per `step` minutes from the step holding now, each the time-weighted mean of
    /// the slots it covers, for as long as the known slots cover whole steps without a gap.
    static func stepped(_ snapshot: Snapshot, step: Int) -> [Double] {
        let slots = ahead(snapshot)
        let seconds = Double(step * 60)
        // Steps are counted from local midnight, as EMHASS aligns its own.
        let midnight = snapshot.calendar.start(of: snapshot.calendar.day(containing: snapshot.now))
        var start = midnight.addingTimeInterval((snapshot.now.timeIntervalSince(midnight) / seconds).rounded(.down) * seconds)
        var values: [Double] = []
        var index = 0
        while index < slots.count, values.count < 2 * 24 * 60 / step + 8 {
            let end = start.addingTimeInterval(seconds)
            var sum = 0.0
            var covered = 0.0
            var reached = start
            while index < slots.count, slots[index].slot.start <= reached, reached < end {
                let slot = slots[index]
                let part = min(slot.slot.end, end).timeIntervalSince(reached)
                sum += slot.price * part
                covered += part
                reached = min(slot.slot.end, end)
                if slot.slot.end <= end { index += 1 }
            }
            guard covered >= seconds - 0.5 else { break }
            values.append(DecimalFormat.rounded(sum / covered, decimals: snapshot.settings.priceDecimals))
            start = end
        }
        return values
    }

    /// EMHASS's runtime forecasts: `{"load_cost_forecast":[…],"prediction_horizon":N}` for an
    /// import profile; an export profile's holds its own prices as `prod_price_forecast` and, from
    /// `companion` (the first profile, when it is an import one), `load_cost_forecast`: the whole call.
    package static func emhassForecast(_ snapshot: Snapshot, companion: Snapshot? = nil) -> String {
        let step = snapshot.settings.forecastStep
        var arrays: [(String, [Double])] = []
        if snapshot.settings.kind == .export {
            if let companion, companion.settings.kind == .import { arrays.append(("load_cost_forecast", stepped(companion, step: step))) }
            arrays.append(("prod_price_forecast", stepped(snapshot, step: step)))
        } else {
            arrays.append(("load_cost_forecast", stepped(snapshot, step: step)))
        }
        let horizon = arrays.map(\.1.count).min() ?? 0
        var w = JSONWriter()
        w.beginObject()
        for (key, values) in arrays {
            w.key(key)
            w.beginArray()
            for value in values.prefix(horizon) { w.number(value) }
            w.endArray()
        }
        w.field("prediction_horizon", horizon)
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
