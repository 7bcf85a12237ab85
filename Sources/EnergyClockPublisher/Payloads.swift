import EnergyClockDomain
import FoundationEssentials

/// A retained topic and its payload; an empty payload deletes the retained message.
package struct RetainedMessage: Sendable, Equatable {
    /// Where it is published.
    package var topic: String
    /// The payload text; empty too when ``unchanged``.
    package var payload: String
    /// What the broker is compared with, when the rendering worked it out already.
    package var held: HeldPayload? = nil
    /// Not rendered again: the broker holds what the same input rendered last.
    package var unchanged = false
}

/// Renders a ``Snapshot`` into the retained topic tree.
package enum Payloads {
    /// Every retained topic for `snapshot`, in a stable order, `status` excluded: what describes
    /// now first, then the day.
    ///
    /// `cheapestHours` lists the window lengths published under `cheapest/<N>h`.
    package static func render(_ snapshot: Snapshot, topics: TopicTree, cheapestHours: [Int] = []) -> [RetainedMessage] {
        renderNow(snapshot, topics: topics) + renderDay(snapshot, topics: topics, cheapestHours: cheapestHours)
    }

    /// The topics that describe the current slot: what a slot boundary or a band change changes,
    /// so they go out before the day's larger payloads are even rendered. `price` comes first,
    /// the colour next, the slot objects last.
    package static func renderNow(_ snapshot: Snapshot, topics: TopicTree) -> [RetainedMessage] {
        [renderPrice(snapshot, topics: topics)] + renderSwitches(snapshot, topics: topics) + renderColor(snapshot, topics: topics)
            + renderSlots(snapshot, topics: topics)
    }

    /// `price`: the one topic many automations follow, sent at a boundary before anything else.
    /// Never an invented price: empty with no known slot for now.
    package static func renderPrice(_ snapshot: Snapshot, topics: TopicTree) -> RetainedMessage {
        RetainedMessage(topic: topics.price, payload: snapshot.current.map { DecimalFormat.string($0.price) } ?? "")
    }

    /// The colour of now (`color`, `color/hex`, `color/rgb`) and the stale flag: the few bytes a
    /// light follows, sent before the slot objects are even rendered.
    package static func renderColor(_ snapshot: Snapshot, topics: TopicTree) -> [RetainedMessage] {
        let band = snapshot.current?.band
        let color = band.map(snapshot.settings.color(of:))
        return [
            RetainedMessage(topic: topics.color, payload: band?.rawValue ?? ""),
            RetainedMessage(topic: topics.colorHex, payload: color?.hex ?? ""),
            RetainedMessage(topic: topics.colorRGB, payload: color?.rgb ?? ""),
            RetainedMessage(topic: topics.stale, payload: snapshot.stale ? "true" : "false"),
        ]
    }

    /// `current` and `next`, the slot objects: empty with no known slot for now.
    package static func renderSlots(_ snapshot: Snapshot, topics: TopicTree) -> [RetainedMessage] {
        guard let current = snapshot.current else {
            return [RetainedMessage(topic: topics.current, payload: ""), RetainedMessage(topic: topics.next, payload: "")]
        }
        return [
            RetainedMessage(topic: topics.current, payload: slotObject(current, snapshot)),
            RetainedMessage(topic: topics.next, payload: snapshot.next.map { slotObject($0, snapshot) } ?? ""),
        ]
    }

    /// The settings, the thresholds and the day's prices, statistics and cheapest windows.
    package static func renderDay(_ snapshot: Snapshot, topics: TopicTree, cheapestHours: [Int] = []) -> [RetainedMessage] {
        var memo = DayMemo()
        return renderDay(snapshot, topics: topics, cheapestHours: cheapestHours, memo: &memo)
    }

    /// ``renderDay(_:topics:cheapestHours:)``, with `importCosts` for an export profile's
    /// `forecast/emhass`, taking the settings and the day's price arrays
    /// from `memo` while they are what it rendered last: a slot boundary changes the statistics
    /// and windows, not the day's prices, which are the largest payloads by far. Only the topics
    /// of `piece` when one is named.
    package static func renderDay(
        _ snapshot: Snapshot, topics: TopicTree, cheapestHours: [Int], memo: inout DayMemo, held: [String: HeldPayload] = [:],
        importCosts: [Double]? = nil, piece: DayPiece? = nil
    ) -> [RetainedMessage] {
        let calendar = snapshot.calendar
        var messages: [RetainedMessage] = []
        func put(_ topic: String, _ payload: String) { messages.append(RetainedMessage(topic: topic, payload: payload)) }
        func put<Input>(_ topic: String, _ rendered: inout Rendered<Input>, _ input: Input, _ render: (Input) -> String) {
            messages.append(rendered.message(topic, input, holds: held[topic], render))
        }
        func wanted(_ candidate: DayPiece) -> Bool { piece == nil || piece == candidate }
        if wanted(.settings) {
            put(topics.settings, memo.settings.text(snapshot.settings, \.shownJSON))
            put(topics.thresholds, thresholds(snapshot))
        }
        if wanted(.prices) {
            let zone = snapshot.timeZone
            put(topics.pricesToday, &memo.today, DaySlots(slots: snapshot.today, timeZone: zone), \.json)
            put(topics.pricesTomorrow, &memo.tomorrow, DaySlots(slots: snapshot.tomorrow, timeZone: zone), \.json)
            put(topics.pricesForecast, &memo.forecast, ForecastSlots(tail: snapshot.forecast, timeZone: zone), \.json)
        }
        if wanted(.outlook) {
            let decimals = snapshot.settings.priceDecimals
            put(topics.statsToday, stats(snapshot.today, current: snapshot.current, calendar, decimals: decimals))
            put(topics.statsTomorrow, stats(snapshot.tomorrow, current: nil, calendar, decimals: decimals))
            let remaining = snapshot.today + snapshot.tomorrow
            for hours in cheapestHours {
                put(
                    topics.cheapest(hours: hours),
                    window(
                        PriceWindow.cheapest(hours: hours, in: remaining, from: snapshot.now), hours: hours, calendar, decimals: decimals))
            }
            messages += renderPlans(snapshot, topics: topics)
            if let card = snapshot.forecastAccuracy { put(topics.forecastAccuracy, accuracy(card, snapshot.settings)) }
        }
        if wanted(.forecasts) {
            let forecast = Forecast(snapshot)
            put(topics.forecastEVCC, &memo.evcc, forecast, \.evcc)
            let emhass = Forecast.EMHASS(forecast: forecast, importCosts: importCosts)
            put(topics.forecastEMHASS, &memo.emhass, emhass, \.json)
            put(topics.forecastEMHASSTimed, &memo.emhassTimed, emhass, \.timedJSON)
        }
        return messages
    }

    /// `{"mode","green_max","yellow_max","orange_max","unit","history_days","samples"}`.
    package static func thresholds(_ snapshot: Snapshot) -> String {
        var w = JSONWriter()
        w.beginObject()
        w.field("mode", snapshot.settings.bandMode.rawValue)
        w.field("green_max", snapshot.thresholds?.greenMax)
        w.field("yellow_max", snapshot.thresholds?.yellowMax)
        w.field("orange_max", snapshot.thresholds?.orangeMax)
        w.field("unit", snapshot.settings.unit)
        w.field("history_days", snapshot.settings.historyDays)
        w.field("samples", snapshot.samples)
        w.endObject()
        return w.output
    }

    /// The `current` and `next` object.
    package static func slotObject(_ slot: PricedSlot, _ snapshot: Snapshot) -> String {
        let calendar = snapshot.calendar
        var w = JSONWriter()
        w.beginObject()
        w.field("start", slot.slot.start, in: calendar)
        w.field("end", slot.slot.end, in: calendar)
        w.field("price", slot.price)
        w.field("unit", snapshot.settings.unit)
        w.field("market_price", slot.slot.value)
        w.field("market_currency", slot.slot.quantity.currency?.code ?? slot.slot.quantity.unit)
        w.field("basis", slot.slot.basis.name)
        w.key("components")
        w.beginObject()
        let parts = slot.components
        for (name, value) in [
            ("market", parts.market), ("markup", parts.markup), ("surcharge", parts.surcharge), ("grid_fee", parts.gridFee),
            ("vat", parts.vat),
        ] {
            w.field(name, DecimalFormat.rounded(value))
        }
        w.endObject()
        w.field("band", slot.band?.rawValue)
        w.field("hex", slot.band.map { snapshot.settings.color(of: $0).hex })
        if let level = slot.slot.levelName { w.field("level", level) }
        w.field("source", snapshot.source)
        w.field("stale", snapshot.stale)
        w.field("updated_at", snapshot.updatedAt, in: calendar)
        w.field("tomorrow_valid", snapshot.tomorrowValid)
        w.endObject()
        return w.output
    }

    /// `[{start, end, price, band}, …]`; a forecast slot adds `"forecast":true`, its `provider`
    /// and when its forecast was `issued`.
    package static func slotArray(_ slots: some Collection<PricedSlot>, _ calendar: LocalCalendar) -> String {
        var w = JSONWriter()
        w.beginArray()
        for slot in slots {
            w.slotObject(Plan.Slot(slot), band: slot.band, provenance: slot.slot.provenance, in: calendar)
        }
        w.endArray()
        return w.output
    }

    /// `prices/forecast`: ``slotArray(_:_:)`` of `tail`, each slot's price and band as the tail
    /// holds them, without pricing it again.
    package static func slotArray(_ tail: ForecastTail, _ calendar: LocalCalendar) -> String {
        var w = JSONWriter()
        w.beginArray()
        for index in tail.indices {
            let (slot, band) = tail.shown(at: index)
            w.slotObject(slot, band: band, provenance: tail.provenance, in: calendar)
        }
        w.endArray()
        return w.output
    }
}

extension JSONWriter {
    /// `{start, end, price, band}`, with `"forecast":true`, the `provider` and when it was
    /// `issued` for a forecast.
    mutating func slotObject(_ slot: Plan.Slot, band: Band?, provenance: Provenance?, in calendar: LocalCalendar) {
        beginObject()
        field("start", slot.start, in: calendar)
        field("end", slot.end, in: calendar)
        field("price", slot.price)
        field("band", band?.rawValue)
        if let provenance, case let .forecast(issued) = provenance.kind {
            field("forecast", true)
            field("provider", provenance.source.description)
            field("issued", issued, in: calendar)
        }
        endObject()
    }
}
