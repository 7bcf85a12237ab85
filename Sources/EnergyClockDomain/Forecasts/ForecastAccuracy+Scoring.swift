import FoundationEssentials

extension ForecastAccuracy {
    /// Scores the forecast slots that `official` now covers: for each official slot wholly
    /// covered by `forecast`, the forecast's value over that slot (the time-weighted mean of the
    /// forecast slots in it) against the official one, both priced as `settings` price a slot and
    /// banded under `thresholds`, at the horizon between the forecast's issue and the slot.
    ///
    /// A slot whose price cannot be worked out (no exchange rate for its day, a non-finite
    /// result), or that lies beyond 96 hours or before the forecast was issued, is not scored.
    public mutating func score(
        forecast: [SeriesSlot], official: [SeriesSlot], settings: Settings, calendar: LocalCalendar, rates: ExchangeRates,
        thresholds: Thresholds?
    ) {
        var missingRate = false
        var nonFinite = false
        slots: for slot in official where slot.provenance.isOfficial {
            let span = DateInterval(start: slot.start, end: slot.end)
            let covering = forecast.overlapping(span)
            guard let first = covering.first, case .forecast = first.provenance.kind, Array(covering).covers(span) else { continue }
            var weighted = 0.0
            var issued = Date.distantFuture
            for part in covering {
                guard case let .forecast(when) = part.provenance.kind, part.provenance.source == first.provenance.source,
                    part.quantity == slot.quantity
                else { continue slots }
                weighted += part.value * (min(part.end, slot.end).timeIntervalSince(max(part.start, slot.start)))
                issued = min(issued, when)
            }
            guard let horizon = Horizon(seconds: slot.start.timeIntervalSince(issued)) else { continue }
            var predicted = slot
            predicted.value = weighted / slot.duration
            predicted.basis = first.basis
            predicted.level = nil
            guard
                let said = Snapshot.Basis.components(
                    predicted, calendar, settings, rates, missingRate: &missingRate, nonFinitePrice: &nonFinite),
                let was = Snapshot.Basis.components(slot, calendar, settings, rates, missingRate: &missingRate, nonFinitePrice: &nonFinite)
            else { continue }
            var tally = Tally()
            tally.slots = 1
            tally.error = said.total - was.total
            tally.absoluteError = abs(tally.error)
            let bands = (
                Snapshot.Basis.band(of: said.total, slot: predicted, thresholds, settings),
                Snapshot.Basis.band(of: was.total, slot: slot, thresholds, settings)
            )
            if let forecastBand = bands.0, forecastBand == bands.1 { tally.bandsAgreed = 1 }
            add(tally, provider: first.provenance.source.description, day: calendar.day(containing: slot.start), horizon: horizon)
        }
    }
}
