import EnergyClockDomain
import EnergyClockSupport
import Foundation

/// Fixed days for the clock: bands by hour, green at night, yellow in the morning, orange in the
/// afternoon and red in the evening, so every picture and ring can be checked by eye.
package enum ClockFixtures {
    package static let amsterdam = LocalCalendar(identifier: "Europe/Amsterdam")!

    /// The band each local hour gets: green 0–5, yellow 6–11, orange 12–17, red 18–23.
    package static func price(hour: Int) -> Double { [0.05, 0.15, 0.25, 0.35][hour / 6] }

    /// A snapshot of `day` at `now`, with hourly (or quarter-hour) prices for that day and the next.
    package static func snapshot(day: LocalDay, now: Date, quarters: Bool = false, stale: Bool = false) -> Snapshot {
        var settings = Settings.defaults
        settings.vatPercent = 0
        settings.resolution = quarters ? .native : .hour
        var slots: [SeriesSlot] = []
        for d in [day, day.adding(days: 1)] {
            let span = amsterdam.interval(of: d)
            var t = span.start
            let step: Double = quarters ? 900 : 3600
            while t < span.end {
                let local = ISO8601.local(t, in: amsterdam)
                let hour = Int(local.dropFirst(11).prefix(2))!
                let minute = Int(local.dropFirst(14).prefix(2))!
                // Quarter-hours step up within the hour, so the four parts differ.
                let price = price(hour: hour) + (quarters ? Double(minute / 15) * 0.026 : 0)
                slots.append(SeriesSlot(start: t, end: t.addingTimeInterval(step), value: price))
                t = t.addingTimeInterval(step)
            }
        }
        return Snapshot.derive(
            now: now, calendar: amsterdam, settings: settings, slots: slots, source: "energyzero", stale: stale, updatedAt: now)
    }

    /// 14 January 2026 at 13:30, a 24-hour day.
    package static var normal: Snapshot { snapshot(day: LocalDay(year: 2026, month: 1, day: 14), now: at("2026-01-14T13:30:00+01:00")) }
    /// 29 March 2026 at 13:30, 23 hours long.
    package static var short: Snapshot { snapshot(day: LocalDay(year: 2026, month: 3, day: 29), now: at("2026-03-29T13:30:00+02:00")) }
    /// 25 October 2026 at 13:30, 25 hours long.
    package static var long: Snapshot { snapshot(day: LocalDay(year: 2026, month: 10, day: 25), now: at("2026-10-25T13:30:00+01:00")) }
}
