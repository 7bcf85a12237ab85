import EnergyClockDomain
import FoundationEssentials

extension PriceManager {
    /// A basis and what it was derived from, besides its day and settings.
    struct KeptBasis {
        var slots: [SeriesSlot]
        var forecast: CompactSeries
        var ratesGeneration: Int
        var basis: Snapshot.Basis
    }

    /// The basis of `profile` on `day`: the kept one while nothing it derives from changed, and
    /// the kept one banded again when only what decides the bands did (a change of thresholds,
    /// the usual change from a phone: it skips pricing the two days' slots, on the way to `color`).
    func basis(of profile: Profiles.Profile, on day: LocalDay) -> Snapshot.Basis {
        let slots = shownSlots(of: profile)
        let forecast = shownForecast(of: profile)
        if let kept = bases[profile.name], kept.basis.day == day, kept.ratesGeneration == ratesGeneration, kept.slots == slots,
            kept.forecast == forecast
        {
            if kept.basis.settings == profile.settings { return kept.basis }
            if kept.basis.settings.pricesAlike(profile.settings) {
                let basis = kept.basis.rebanded(under: profile.settings)
                bases[profile.name]?.basis = basis
                return basis
            }
        }
        let basis = Snapshot.Basis(
            day: day, calendar: calendar, settings: profile.settings, slots: slots, forecast: Array(forecast), rates: rates)
        bases[profile.name] = KeptBasis(slots: slots, forecast: forecast, ratesGeneration: ratesGeneration, basis: basis)
        return basis
    }
}
