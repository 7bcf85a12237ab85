import EnergyClockDomain
import FoundationEssentials

/// A profile's prices from the current slot on, as the forecasts for evcc and EMHASS show them;
/// an `Equatable` value, so that the payloads are rendered again only when it changes (a new
/// threshold changes the bands, not these).
package struct Forecast: Equatable {
    /// The official slots from the one that holds the start of the current EMHASS step on, each
    /// with its price as published: a step of 30 minutes over quarter hours begins in the slot
    /// before the current one half of the time.
    package var official: [Plan.Slot]
    /// The forecast that goes on after them from ``tailStart``, when the profile's `forecast_tail`
    /// adds it: a reference to the profile's tail, read when a payload is rendered.
    package var tail = ForecastTail()
    /// The index in ``tail`` of its first slot after the official ones.
    package var tailStart = 0
    /// Where evcc's forecast begins: the start of the slot holding now (or now, between slots).
    package var current: Date
    /// The zone of the local times, and of the midnight EMHASS's steps are counted from.
    package var timeZone: TimeZoneRules
    /// Minutes per EMHASS value.
    package var step: Int
    /// The start of the step that holds now.
    package var stepStart: Date
    /// Decimals of a stepped mean.
    package var decimals: Int
    /// Whether the profile's prices are paid for feeding in.
    package var export: Bool
    /// Where the forecast beyond the official prices begins, when the profile's `forecast_tail`
    /// adds it; nil otherwise.
    package var forecastFrom: Date?

    /// The forecast of `snapshot`, in steps of `step` minutes (by default its `forecast_step`).
    package init(_ snapshot: Snapshot, step: Int? = nil) {
        timeZone = snapshot.timeZone
        self.step = step ?? snapshot.settings.forecastStep
        let seconds = Double(self.step * 60)
        let calendar = snapshot.calendar
        // Steps are counted from local midnight, as EMHASS aligns its own.
        let midnight = calendar.start(of: calendar.day(containing: snapshot.now))
        let stepStart = midnight.addingTimeInterval((snapshot.now.timeIntervalSince(midnight) / seconds).rounded(.down) * seconds)
        self.stepStart = stepStart
        let known = snapshot.today + snapshot.tomorrow
        if snapshot.settings.forecastTail {
            // The forecast goes on where the official prices end, never among them.
            let continuing = snapshot.forecast.continuing(known)
            if !continuing.isEmpty {
                tail = snapshot.forecast
                tailStart = continuing.startIndex
                forecastFrom = tail.start(at: tailStart)
            }
        }
        official = known.lazy.filter { $0.slot.end > stepStart }.map(Plan.Slot.init)
        current = snapshot.current?.slot.start ?? snapshot.now
        decimals = snapshot.settings.priceDecimals
        export = snapshot.settings.kind == .export
    }

    /// The known slots from the one that holds the start of the current EMHASS step on: the
    /// official ones, then the forecast's.
    package var slots: [Plan.Slot] {
        guard forecastFrom != nil else { return official }
        return official + (tailStart..<tail.endIndex).lazy.map { tail.shown(at: $0).slot }.filter { $0.end > stepStart }
    }

    /// evcc's custom tariff forecast (`forecast: source: mqtt`): `[{"start","end","value"}, …]`
    /// from the current slot on, times in RFC 3339, values the price per kWh as published.
    package var evcc: String {
        let calendar = LocalCalendar(timeZone: timeZone)
        var w = JSONWriter()
        w.slots(Array(slots.drop { $0.end <= current }), priceKey: "value", in: calendar, forecastFrom: forecastFrom)
        return w.output
    }

    /// One price per step from the step holding now, each the time-weighted mean of the slots it
    /// covers, for as long as the known slots cover whole steps without a gap: at most two days
    /// and a few steps, a week with the forecast beyond the official prices.
    package var stepped: [Double] {
        let seconds = Double(step * 60)
        let slots = slots
        var start = stepStart
        var values: [Double] = []
        var index = 0
        let days = forecastFrom == nil ? 2 : Int(SlotWindow.daysAhead)
        while index < slots.count, values.count < days * 24 * 60 / step + 8 {
            let end = start.addingTimeInterval(seconds)
            var sum = 0.0
            var covered = 0.0
            var reached = start
            while index < slots.count, slots[index].start <= reached, reached < end {
                let slot = slots[index]
                let part = min(slot.end, end).timeIntervalSince(reached)
                sum += slot.price * part
                covered += part
                reached = min(slot.end, end)
                if slot.end <= end { index += 1 }
            }
            guard covered >= seconds - 0.5 else { break }
            values.append(DecimalFormat.rounded(sum / covered, decimals: decimals))
            start = end
        }
        return values
    }

    /// The prices and what an export profile's EMHASS call carries of the first profile's.
    package struct EMHASS: Equatable {
        /// This profile's forecast.
        package var forecast: Forecast
        /// The first profile's stepped prices, for an export profile.
        package var importCosts: [Double]?

        /// The fewest steps EMHASS plans over: it refuses a shorter `prediction_horizon`.
        package static let fewestSteps = 5

        /// EMHASS's runtime forecasts as lists: `{"load_cost_forecast":[…],"prediction_horizon":N,
        /// "usable":true}` for an import profile; an export profile's holds its own prices as
        /// `prod_price_forecast` and `importCosts` (the first profile's, stepped alike) as
        /// `load_cost_forecast`: the whole call. EMHASS places a list's first value on the step it
        /// rounds now to (see `timedJSON`).
        package var json: String { render(timed: false) }

        /// The same, each value keyed by the local start of its step (`{"2026-12-04T17:00:00+01:00":
        /// 0.13,…}`): EMHASS puts each on its own step, however it rounds now (`method_ts_round`).
        ///
        /// Its `prediction_horizon` is one step less than the values: EMHASS counts the horizon from
        /// the step it rounds now to, the current one or (in a step's second half, or with
        /// `method_ts_round: last`) the next, and holds the last value over a step it lacks. One
        /// step less, its last step always has a published price.
        package var timedJSON: String { render(timed: true) }

        private func render(timed: Bool) -> String {
            var arrays: [(String, [Double])] = []
            if forecast.export {
                if let importCosts { arrays.append(("load_cost_forecast", importCosts)) }
                arrays.append(("prod_price_forecast", forecast.stepped))
            } else {
                arrays.append(("load_cost_forecast", forecast.stepped))
            }
            let valueCount = arrays.map(\.1.count).min() ?? 0
            let horizon = timed ? max(0, valueCount - 1) : valueCount
            let calendar = LocalCalendar(timeZone: forecast.timeZone)
            var w = JSONWriter()
            w.beginObject()
            for (key, values) in arrays {
                w.key(key)
                if timed {
                    w.beginObject()
                    for (index, value) in values.prefix(valueCount).enumerated() {
                        w.key(ISO8601.local(forecast.stepStart.addingTimeInterval(Double(index * forecast.step * 60)), in: calendar))
                        w.number(value)
                    }
                    w.endObject()
                } else {
                    w.beginArray()
                    for value in values.prefix(valueCount) { w.number(value) }
                    w.endArray()
                }
            }
            w.field("prediction_horizon", horizon)
            // A call EMHASS would refuse says so, for the automation that makes it to skip it.
            w.field("usable", horizon >= Self.fewestSteps)
            if horizon < Self.fewestSteps {
                w.field(
                    "reason",
                    valueCount == 0
                        ? "no prices are known from the current step on"
                        : "EMHASS needs at least \(Self.fewestSteps) steps of prices; \(horizon) are known"
                            + (timed ? " after the current one" : ""))
            }
            w.endObject()
            return w.output
        }
    }
}

extension JSONWriter {
    /// `slots` as an array of `{"start","end",<priceKey>}` in local time: evcc's tariff array and a
    /// plan's chosen slots alike. Those from `forecastFrom` on add `"forecast":true` (evcc reads
    /// past a field it does not know).
    package mutating func slots(_ slots: [Plan.Slot], priceKey: String, in calendar: LocalCalendar, forecastFrom: Date? = nil) {
        beginArray()
        for slot in slots {
            beginObject()
            field("start", slot.start, in: calendar)
            field("end", slot.end, in: calendar)
            field(priceKey, slot.price)
            if let forecastFrom, slot.start >= forecastFrom { field("forecast", true) }
            endObject()
        }
        endArray()
    }
}
