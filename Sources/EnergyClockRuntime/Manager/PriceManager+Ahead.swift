import EnergyClockDomain
import FoundationEssentials

extension PriceManager {
    /// Every profile's snapshot at the next slot boundary, derived while the run loop sleeps
    /// towards it, so that at the boundary the prices only have to be handed on.
    ///
    /// With forty profiles, deriving the snapshots took a millisecond or two at the boundary,
    /// before the first price could leave. A snapshot at the boundary is what one derived just
    /// after it would be, as long as nothing it derives from changed in between: the run loop
    /// checks that before it uses them, and any change it does not see for itself (settings, a
    /// snapshot asked for from outside) drops them.
    struct Ahead {
        /// The boundary the snapshots describe.
        var at: Date
        /// The next event after ``at``: from there on, the snapshots are out of date.
        var until: Date
        /// The day the snapshots were derived in; a new day first rolls over.
        var day: LocalDay
        var ratesGeneration: Int
        var ratesStale: Bool
        var snapshots: [Snapshot]
        /// The plan books as deriving the snapshots left them: what the boundary makes of them.
        var planBooks: [String: PlanBook]
    }

    /// Derives every profile's snapshot at `boundary` for ``snapshotsNow(at:)``; nothing when
    /// `boundary` starts a new day, which rolls over first.
    func prepare(for boundary: Date) {
        guard let currentDay, calendar.day(containing: boundary) == currentDay else { return }
        let books = planBooks
        let snapshots = profiles.all.map { snapshot(of: $0, at: boundary) }
        ahead = Ahead(
            at: boundary, until: nextEvent(after: boundary), day: currentDay, ratesGeneration: ratesGeneration,
            ratesStale: ratesStale, snapshots: snapshots, planBooks: planBooks)
        // The books move on when the boundary comes, not before.
        planBooks = books
    }

    /// Every profile's snapshot at `now`: the ones derived ahead when they still hold, else
    /// derived now. Either way the ones ahead are used up.
    func snapshotsNow(at now: Date) -> [Snapshot] {
        defer { ahead = nil }
        if let ahead, ahead.at <= now, now < ahead.until, ahead.day == currentDay,
            ahead.ratesGeneration == ratesGeneration, ahead.ratesStale == ratesStale
        {
            planBooks = ahead.planBooks
            return ahead.snapshots.map { snapshot in
                var snapshot = snapshot
                snapshot.now = now
                return snapshot
            }
        }
        return profiles.all.map { snapshot(of: $0, at: now) }
    }
}
