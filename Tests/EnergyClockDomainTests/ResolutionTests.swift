import EnergyClockDomain
import EnergyClockTesting
import Foundation
import Testing

@Suite struct ResolutionTests {
    @Test func hourIsTheTimeWeightedMeanOfItsQuarters() {
        let quarters = slots(from: at("2025-12-16T23:00:00Z"), count: 8, minutes: 15) { [0.1, 0.2, 0.3, 0.4, 1, 1, 1, 2][$0] }
        let hours = quarters.at(.hour, in: amsterdam)
        #expect(hours.count == 2)
        #expect(abs(hours[0].value - 0.25) < 1e-12)
        #expect(abs(hours[1].value - 1.25) < 1e-12)
        #expect(hours[0].start == at("2025-12-16T23:00:00Z") && hours[0].end == at("2025-12-17T00:00:00Z"))
        #expect(quarters.at(.native, in: amsterdam) == quarters)
    }

    @Test func partialHourKeepsItsRealSpan() {
        let quarters = slots(from: at("2025-12-16T23:30:00Z"), count: 2, minutes: 15) { Double($0) }
        let hours = quarters.at(.hour, in: amsterdam)
        #expect(hours == [SeriesSlot(start: at("2025-12-16T23:30:00Z"), end: at("2025-12-17T00:00:00Z"), value: 0.5)])
    }

    @Test func springForwardDayHas92QuartersAnd23Hours() {
        let day = amsterdam.interval(of: LocalDay(year: 2026, month: 3, day: 29))
        let quarters = slots(from: day.start, count: Int(day.duration / 900), minutes: 15) { Double($0) / 1000 }
        #expect(quarters.count == 92)
        #expect(quarters.covers(day))
        let hours = quarters.at(.hour, in: amsterdam)
        #expect(hours.count == 23)
        let labels = hours.map { ISO8601.local($0.start, in: amsterdam).dropFirst(11).prefix(5) }
        #expect(!labels.contains("02:00"))
        #expect(labels[2] == "03:00")
    }

    @Test func fallBackDayHas100QuartersAnd25HoursWith0200Twice() {
        let day = amsterdam.interval(of: LocalDay(year: 2026, month: 10, day: 25))
        let quarters = slots(from: day.start, count: Int(day.duration / 900), minutes: 15) { Double($0) / 1000 }
        #expect(quarters.count == 100)
        let hours = quarters.at(.hour, in: amsterdam)
        #expect(hours.count == 25)
        let twoOClock = hours.filter { ISO8601.local($0.start, in: amsterdam).contains("T02:00") }
        #expect(twoOClock.map(\.start) == [at("2026-10-25T00:00:00Z"), at("2026-10-25T01:00:00Z")])
        // Each copy averages its own four quarters: indices 8…11 and 12…15.
        #expect(abs(twoOClock[0].value - 0.0095) < 1e-12)
        #expect(abs(twoOClock[1].value - 0.0135) < 1e-12)
    }

    @Test func coverageAndLookup() {
        let list = slots(from: at("2026-01-01T00:00:00Z"), count: 4, minutes: 60) { Double($0) }
        #expect(list.covers(DateInterval(start: at("2026-01-01T00:00:00Z"), end: at("2026-01-01T04:00:00Z"))))
        #expect(!list.covers(DateInterval(start: at("2026-01-01T00:00:00Z"), end: at("2026-01-01T04:00:01Z"))))
        var gap = list
        gap.remove(at: 2)
        #expect(!gap.covers(DateInterval(start: at("2026-01-01T00:00:00Z"), end: at("2026-01-01T04:00:00Z"))))
        #expect(list.index(containing: at("2026-01-01T01:59:59Z")) == 1)
        #expect(list.index(containing: at("2026-01-01T02:00:00Z")) == 2)
        #expect(list.index(containing: at("2026-01-01T04:00:00Z")) == nil)
    }

    /// The history days are resolved only for relative thresholds: with absolute ones a snapshot
    /// from a week of history and one from today and tomorrow alone are the same at every instant.
    @Test(arguments: [Resolution.hour, .native])
    func historyFeedsOnlyRelativeThresholds(resolution: Resolution) {
        // 25 October 2026 falls back: a 25-hour day.
        let day = LocalDay(year: 2026, month: 10, day: 25)
        let start = amsterdam.start(of: day.adding(days: -7))
        let count = Int(amsterdam.start(of: day.adding(days: 2)).timeIntervalSince(start) / 900)
        // History dear, today and tomorrow cheap: relative quartiles differ with and without it;
        // the six history days before the 25th (`history_days` 7) are 24 hours each.
        let todayIndex = Int(amsterdam.start(of: day).timeIntervalSince(start) / 900)
        let week = slots(from: start, count: count, minutes: 15) { i in i < todayIndex ? 0.5 + Double(i % 7) / 100 : Double(i % 13) / 100 }
        let twoDays = Array(week[todayIndex...])
        func snapshot(_ list: [SeriesSlot], _ mode: ColorMode, at now: Date) -> Snapshot {
            var settings = Settings.defaults
            settings.colorMode = mode
            settings.resolution = resolution
            return Snapshot.derive(
                now: now, calendar: amsterdam, settings: settings, slots: list, source: "custom", stale: false, updatedAt: nil)
        }
        let day25 = amsterdam.interval(of: day)
        for offset in stride(from: 0.0, to: day25.duration, by: 1799) {
            let now = day25.start.addingTimeInterval(offset)
            #expect(snapshot(week, .absolute, at: now) == snapshot(twoDays, .absolute, at: now))
        }
        let first = snapshot(week, .absolute, at: day25.start)
        #expect(first.current?.slot.start == day25.start)
        #expect(first.today.count == (resolution == .hour ? 25 : 100))
        let last = day25.end.addingTimeInterval(-1)
        #expect(snapshot(week, .absolute, at: last).next?.slot.start == day25.end)
        #expect(snapshot(week, .relative, at: last).thresholds != snapshot(twoDays, .relative, at: last).thresholds)
        #expect(
            snapshot(week, .relative, at: last).samples == snapshot(twoDays, .relative, at: last).samples! + 6 * 96
                / (resolution == .hour ? 4 : 1))
    }

    @Test func validationRejectsBadSlots() {
        let t = at("2026-01-01T00:00:00Z")
        func check(_ list: [SeriesSlot]) -> SlotProblem? {
            do {
                _ = try list.validated()
                return nil
            } catch { return error }
        }
        #expect(check([SeriesSlot(start: t, end: t.addingTimeInterval(60), value: .nan)]) == .nonFinite(at: t))
        #expect(
            check([SeriesSlot(start: t, end: t.addingTimeInterval(60), value: 10.5)])
                == .outOfRange(value: 10.5, at: t, limit: 10, quantity: .price(.eur)))
        #expect(check([SeriesSlot(start: t, end: t, value: 0.1)]) == .emptySlot(at: t))
        let overlap = [
            SeriesSlot(start: t, end: t.addingTimeInterval(120), value: 0.1),
            SeriesSlot(start: t.addingTimeInterval(60), end: t.addingTimeInterval(180), value: 0.1),
        ]
        #expect(check(overlap) == .overlapOrUnsorted(at: t.addingTimeInterval(60)))
        #expect(check([SeriesSlot(start: t, end: t.addingTimeInterval(60), value: -10)]) == nil)
    }
}
