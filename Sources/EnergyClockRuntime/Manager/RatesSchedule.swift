import EnergyClockDomain
import EnergyClockSupport
import FoundationEssentials

/// When to ask the ECB for its reference rates: a pure state machine over the clock.
///
/// The ECB publishes on working days around 16:00 CET. The rates are asked for once the newest
/// expected day is missing, again an hour later when it still is (a holiday, a late file), and
/// with backoff after a failure.
package struct RatesSchedule: Sendable {
    /// The zone of the ECB's publication time.
    let cet: LocalCalendar
    /// Not before this instant; nil when nothing holds it back.
    package private(set) var notBefore: Date?
    /// Failures in a row.
    package private(set) var failures = 0

    /// Seconds to wait after the first failure; doubled for each further one up to ``retryMax``.
    static let retryBase: Double = 60
    static let retryMax: Double = 3600
    /// The hour (CET) after which the day's rates are expected.
    static let publicationHour = 16

    /// A schedule for a daemon in `calendar`; CET comes from the tz database when it is there.
    package init(fallback calendar: LocalCalendar) {
        cet = LocalCalendar(identifier: "CET") ?? calendar
    }

    /// The newest day whose rates should be published at `now`.
    package func expectedDay(at now: Date) -> LocalDay {
        let today = cet.day(containing: now)
        var day = now >= cet.instant(hour: Self.publicationHour, on: today) ? today : today.adding(days: -1)
        while day.weekday >= 5 { day = day.adding(days: -1) }
        return day
    }

    /// Whether to fetch at `now`, given the newest day already known.
    package func isDue(at now: Date, latest: LocalDay?) -> Bool {
        if let notBefore, now < notBefore { return false }
        guard let latest else { return true }
        return latest < expectedDay(at: now)
    }

    /// When the schedule next wants to look, if the newest day known is `latest`.
    package func nextCheck(after now: Date, latest: LocalDay?) -> Date {
        if isDue(at: now, latest: latest) { return now }
        if let notBefore, now < notBefore, latest.map({ $0 < expectedDay(at: notBefore) }) ?? true { return notBefore }
        // The next publication: the next working day's 16:00 CET after now.
        var day = cet.day(containing: now)
        while true {
            let publication = cet.instant(hour: Self.publicationHour, on: day)
            if day.weekday < 5, publication > now { return max(publication, notBefore ?? publication) }
            day = day.adding(days: 1)
        }
    }

    /// Records a fetch that answered with rates of `day`.
    package mutating func succeeded(at now: Date, day: LocalDay) {
        failures = 0
        // Still behind (a holiday, a late file): look again in an hour.
        notBefore = day < expectedDay(at: now) ? now.addingTimeInterval(3600) : nil
    }

    /// Records a failed fetch and backs off; `jitter` is a random number in −1…1.
    package mutating func failed(at now: Date, jitter: Double) {
        failures += 1
        let delay = min(Self.retryBase * Double(1 << min(failures - 1, 20)), Self.retryMax)
        notBefore = now.addingTimeInterval(delay * (1 + 0.2 * jitter))
    }
}
