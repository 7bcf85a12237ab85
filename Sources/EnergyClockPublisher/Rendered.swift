import EnergyClockDomain

/// The last rendering of one payload and what it was rendered from, so that an unchanged input
/// is not rendered again: at a slot boundary most of a profile's payloads stay what they were.
/// Of the rendering it keeps what the broker is compared with (``HeldPayload``), not a long text.
package struct Rendered<Input: Equatable> {
    private var input: Input?
    private var output: HeldPayload?

    /// Nothing rendered yet.
    package init() {}

    /// The retained message of `topic` rendered from `input`; marked ``RetainedMessage/unchanged``,
    /// without rendering, when `input` equals the last input and the broker `holds` what that rendered.
    package mutating func message(
        _ topic: String, _ input: Input, holds: HeldPayload?, _ render: (Input) -> String
    ) -> RetainedMessage {
        if input == self.input, let output {
            if holds == output { return RetainedMessage(topic: topic, payload: "", held: output, unchanged: true) }
            if let text = output.text { return RetainedMessage(topic: topic, payload: text, held: output) }
        }
        let text = rendered(input, render)
        return RetainedMessage(topic: topic, payload: text, held: output)
    }

    /// `render(input)`, or the last one's text when `input` equals the last input and it was short.
    package mutating func text(_ input: Input, _ render: (Input) -> String) -> String {
        if input == self.input, let text = output?.text { return text }
        return rendered(input, render)
    }

    private mutating func rendered(_ input: Input, _ render: (Input) -> String) -> String {
        let text = render(input)
        self.input = input
        output = HeldPayload.rendering(text)
        return text
    }
}

/// A day's slots and the zone their times are written in: what `prices/today` shows.
package struct DaySlots: Equatable {
    /// The slots, in order.
    package var slots: [PricedSlot]
    /// The zone of the local times.
    package var timeZone: TimeZoneRules

    /// The `prices/…` payload.
    package var json: String { Payloads.slotArray(slots, LocalCalendar(timeZone: timeZone)) }
}

/// The forecast beyond the official prices and the zone its times are written in: what
/// `prices/forecast` shows.
package struct ForecastSlots: Equatable {
    /// The forecast.
    package var tail: ForecastTail
    /// The zone of the local times.
    package var timeZone: TimeZoneRules

    /// The `prices/forecast` payload.
    package var json: String { Payloads.slotArray(tail, LocalCalendar(timeZone: timeZone)) }
}

/// The day's payloads in the groups they are rendered and sent in, in order: a settings change
/// shows its colour first and lets a change that came meanwhile go before each group.
package enum DayPiece: CaseIterable, Sendable {
    /// `settings` and `thresholds`.
    case settings
    /// `prices/today`, `prices/tomorrow` and `prices/forecast`.
    case prices
    /// The statistics, the cheapest windows and the plans.
    case outlook
    /// `forecast/evcc`, `forecast/emhass` and `forecast/emhass/timed`.
    case forecasts
}

/// What ``Payloads/renderDay(_:topics:cheapestHours:memo:importCosts:piece:)`` keeps between snapshots of one profile.
package struct DayMemo {
    /// `settings`, which `profiles` shows too.
    package var settings = Rendered<Settings>()
    /// `prices/today`.
    package var today = Rendered<DaySlots>()
    /// `prices/tomorrow`.
    package var tomorrow = Rendered<DaySlots>()
    /// `prices/forecast`.
    package var forecast = Rendered<ForecastSlots>()
    /// `forecast/evcc`.
    package var evcc = Rendered<Forecast>()
    /// `forecast/emhass`.
    package var emhass = Rendered<Forecast.EMHASS>()
    /// `forecast/emhass/timed`.
    package var emhassTimed = Rendered<Forecast.EMHASS>()

    /// Nothing rendered yet.
    package init() {}
}
