import FoundationEssentials

extension PriceManager {
    /// A basis and what it was derived from, besides its day and settings.
    struct KeptBasis {
        var slots: [PriceSlot]
        var ratesGeneration: Int
        var basis: Snapshot.Basis
    }

    /// The basis of `profile` on `day`: the kept one while nothing it derives from changed.
    func basis(of profile: Profiles.Profile, on day: LocalDay) -> Snapshot.Basis {
        let slots = shownSlots(of: profile)
        if let kept = bases[profile.name], kept.basis.day == day, kept.ratesGeneration == ratesGeneration,
            kept.basis.settings == profile.settings, kept.slots == slots
        {
            return kept.basis
        }
        let basis = Snapshot.Basis(day: day, calendar: calendar, settings: profile.settings, slots: slots, rates: rates)
        bases[profile.name] = KeptBasis(slots: slots, ratesGeneration: ratesGeneration, basis: basis)
        return basis
    }
}
