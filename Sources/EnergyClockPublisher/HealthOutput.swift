import EnergyClockDomain
import EnergyClockSources
import EnergyClockStore
import FoundationEssentials

/// `health.json` as an output of its own: what the daemon says about itself for
/// `energyclock health`, decided from events and returned as what to do.
///
/// A change of connection is written at once; a publish at most once a second (a write within
/// the second waits for it to be over, and is then made with whatever is newest).
struct HealthOutput {
    /// What the next write holds.
    private(set) var record: HealthRecord
    private var writtenAt: Date?
    private var pending = false

    /// The least time between two writes for publishes.
    static let interval = Duration.seconds(1)

    /// What to do about `health.json`.
    enum Action: Equatable {
        /// Nothing now.
        case none
        /// Write `record` now.
        case write(HealthRecord)
        /// Call ``due(at:)`` at this instant.
        case wakeAt(Date)
    }

    /// An output that has written nothing yet; the daemon is not connected since `now`.
    init(now: Date) {
        record = HealthRecord(connected: false, since: now)
    }

    /// The connection came up or went down at `now`: written at once when that is news.
    ///
    /// `broker` is the broker connected to, when known.
    mutating func connection(_ up: Bool, at now: Date, broker: String? = nil) -> Action {
        guard record.connected != up || writtenAt == nil || (up && broker != nil && broker != record.broker) else { return .none }
        if up, let broker { record.broker = broker }
        record.connected = up
        record.since = now
        return written(at: now)
    }

    /// `snapshots` were published at `now`: when that happened, and by when each profile's next
    /// publish is due (the end of the current slot, a retry within 16 minutes while stale, or
    /// midnight at the latest).
    mutating func published(_ snapshots: [Snapshot], at now: Date) -> Action {
        guard !snapshots.isEmpty else { return .none }
        for snapshot in snapshots {
            let calendar = snapshot.calendar
            let midnight = calendar.start(of: calendar.day(containing: snapshot.now).adding(days: 1))
            var due = min(snapshot.current?.slot.end ?? midnight, midnight)
            if snapshot.stale { due = min(due, snapshot.now.addingTimeInterval(16 * 60)) }
            let dueBy = now.addingTimeInterval(max(0, due.timeIntervalSince(snapshot.now)))
            if snapshot.profile == Profiles.firstName {
                record.publishedAt = now
                record.dueBy = dueBy
                record.stale = snapshot.stale
            } else {
                record.profiles[snapshot.profile] = HealthRecord.Publication(publishedAt: now, dueBy: dueBy, stale: snapshot.stale)
            }
        }
        return changed(at: now)
    }

    /// The profile `name` is gone: the record no longer holds it.
    mutating func removed(_ name: String, at now: Date) -> Action {
        guard record.profiles.removeValue(forKey: name) != nil else { return .none }
        return changed(at: now)
    }

    /// The record changed: written now, or when the second after the last write is over.
    private mutating func changed(at now: Date) -> Action {
        // A last write in the future means the clock was set back: that write does not hold this one up.
        if let last = writtenAt, now >= last, now < last.addingTimeInterval(Self.interval.timeInterval) {
            guard !pending else { return .none }
            pending = true
            return .wakeAt(last.addingTimeInterval(Self.interval.timeInterval))
        }
        return written(at: now)
    }

    /// The second after the last write is over: the waiting write is made.
    mutating func due(at now: Date) -> Action {
        guard pending else { return .none }
        pending = false
        return written(at: now)
    }

    private mutating func written(at now: Date) -> Action {
        writtenAt = now
        return .write(record)
    }
}
