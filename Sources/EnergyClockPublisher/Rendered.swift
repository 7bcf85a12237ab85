import EnergyClockDomain

/// The last rendering of one payload and what it was rendered from, so that an unchanged input
/// is not rendered again: at a slot boundary most of a profile's payloads stay what they were.
package struct Rendered<Input: Equatable> {
    private var input: Input?
    private var output = ""

    /// Nothing rendered yet.
    package init() {}

    /// `render(input)`, or the last one when `input` equals the last input.
    package mutating func payload(_ input: Input, _ render: (Input) -> String) -> String {
        if input != self.input {
            output = render(input)
            self.input = input
        }
        return output
    }
}

/// A day's slots and the zone their times are written in: what `prices/today` shows.
package struct DaySlots: Equatable {
    /// The slots, in order.
    package var slots: [PricedSlot]
    /// The zone of the local times.
    package var timeZone: TimeZoneRules

    /// The `prices/…` payload; `prices/forecast` alike, its slots being forecasts.
    package var json: String { Payloads.slotArray(slots, LocalCalendar(timeZone: timeZone)) }
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
    package var forecast = Rendered<DaySlots>()
    /// `forecast/evcc`.
    package var evcc = Rendered<Forecast>()
    /// `forecast/emhass`.
    package var emhass = Rendered<Forecast.EMHASS>()
    /// `forecast/emhass/timed`.
    package var emhassTimed = Rendered<Forecast.EMHASS>()

    /// Nothing rendered yet.
    package init() {}
}
