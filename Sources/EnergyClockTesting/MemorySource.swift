import EnergyClockDomain
import EnergyClockSources
import Foundation
import Synchronization

/// A price source backed by a list in memory, whose answers a test can change.
package final class MemorySource: PriceSource {
    package let id: String
    package let answersIncludeNextDay: Bool
    private let state: Mutex<(slots: [SeriesSlot], failing: Bool, requests: [LocalDay], heldBefore: LocalDay?)>

    package init(id: String = "energyzero", slots: [SeriesSlot] = [], answersIncludeNextDay: Bool = false) {
        self.id = id
        self.answersIncludeNextDay = answersIncludeNextDay
        state = Mutex((slots, false, [], nil))
    }

    package var requests: [LocalDay] { state.withLock { $0.requests } }
    /// Every slot it answers from.
    package var slots: [SeriesSlot] { state.withLock { $0.slots } }
    package func set(_ slots: [SeriesSlot]) { state.withLock { $0.slots = slots } }
    package func fail(_ failing: Bool) { state.withLock { $0.failing = failing } }
    /// Holds every request for a day before `day` until it is called again with nil (or the
    /// request's task is cancelled): a backfill that takes as long as a test wants.
    package func hold(before day: LocalDay?) { state.withLock { $0.heldBefore = day } }

    /// Answers like EnergyZero: the requested day with its neighbours.
    package func fetch(day: LocalDay, calendar: LocalCalendar, settings: Settings) async throws(SourceError) -> [SeriesSlot] {
        let (slots, failing) = state.withLock { s in
            s.requests.append(day)
            return (s.slots, s.failing)
        }
        while state.withLock({ s in s.heldBefore.map { day < $0 } ?? false }), !Task.isCancelled {
            try? await Task.sleep(for: .milliseconds(2))
        }
        if failing { throw SourceError(source: id, problem: .httpStatus(500, detail: "test failure")) }
        let span = DateInterval(start: calendar.start(of: day.adding(days: -1)), end: calendar.start(of: day.adding(days: 2)))
        return Array(slots.overlapping(span))
    }
}
