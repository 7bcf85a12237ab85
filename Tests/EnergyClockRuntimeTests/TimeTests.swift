import EnergyClockDomain
import EnergyClockSupport
import EnergyClockTesting
import Foundation
import Testing

@Suite struct TimeTests {
    @Test func daylightSavingDaysHave23And25Hours() {
        #expect(amsterdam.interval(of: LocalDay(year: 2026, month: 3, day: 29)).duration == 23 * 3600)
        #expect(amsterdam.interval(of: LocalDay(year: 2026, month: 10, day: 25)).duration == 25 * 3600)
        #expect(amsterdam.interval(of: LocalDay(year: 2026, month: 6, day: 1)).duration == 24 * 3600)
        #expect(amsterdam.start(of: LocalDay(year: 2026, month: 10, day: 25)) == at("2026-10-24T22:00:00Z"))
    }

    @Test func localDayAroundMidnight() {
        // 00:30 local on 17 December is still 16 December in UTC.
        #expect(amsterdam.day(containing: at("2025-12-16T23:30:00Z")) == LocalDay(year: 2025, month: 12, day: 17))
        #expect(amsterdam.day(containing: at("2025-12-16T22:59:59Z")) == LocalDay(year: 2025, month: 12, day: 16))
    }

    @Test func thirteenHundredOnShortAndLongDays() {
        #expect(amsterdam.instant(hour: 13, on: LocalDay(year: 2026, month: 3, day: 29)) == at("2026-03-29T11:00:00Z"))
        #expect(amsterdam.instant(hour: 13, on: LocalDay(year: 2026, month: 10, day: 25)) == at("2026-10-25T12:00:00Z"))
        #expect(amsterdam.instant(hour: 13, on: LocalDay(year: 2026, month: 1, day: 5)) == at("2026-01-05T12:00:00Z"))
    }

    @Test func iso8601RoundTripsWithLocalOffsets() {
        #expect(ISO8601.local(at("2026-10-25T00:00:00Z"), in: amsterdam) == "2026-10-25T02:00:00+02:00")
        #expect(ISO8601.local(at("2026-10-25T01:00:00Z"), in: amsterdam) == "2026-10-25T02:00:00+01:00")
        #expect(ISO8601.parse("2025-12-15T23:00:00Z") == Date(timeIntervalSince1970: 1_765_839_600))
        #expect(ISO8601.parse("2025-12-16T00:00:00+01:00") == ISO8601.parse("2025-12-15T23:00:00Z"))
        #expect(ISO8601.parse("2025-12-15T23:00:00.500Z")!.timeIntervalSince1970 == 1_765_839_600.5)
        #expect(ISO8601.parse("2025-12-15T23:00Z") == ISO8601.parse("2025-12-15T23:00:00Z"))
        for bad in ["2025-12-15T23:00:00", "2025-02-30T00:00:00Z", "2025-12-15 23:00:00Q", "yesterday", ""] {
            #expect(ISO8601.parse(bad) == nil, "\(bad)")
        }
    }

    @Test func localDayParsing() {
        #expect(LocalDay(parsing: "2026-10-25") == LocalDay(year: 2026, month: 10, day: 25))
        #expect(LocalDay(parsing: "2026-02-29") == nil)
        #expect(LocalDay(parsing: "2028-02-29") != nil)
        #expect(LocalDay(year: 2026, month: 12, day: 31).adding(days: 1) == LocalDay(year: 2027, month: 1, day: 1))
    }

    @Test func manualClockWakesSleepersOnlyWhenPassed() async throws {
        let clock = ManualClock(start: at("2026-01-01T00:00:00Z"))
        let woke = Task {
            try await clock.sleep(until: at("2026-01-01T00:15:00Z"))
            return clock.now
        }
        while clock.sleeperCount == 0 { try await Task.sleep(for: .milliseconds(1)) }
        await clock.advance(to: at("2026-01-01T00:14:59Z"))
        #expect(clock.sleeperCount == 1)
        // The woken task ends instead of sleeping again, so waiting for it to do so times out.
        #expect(await clock.advance(to: at("2026-01-01T00:15:00Z"), timeout: 0.2) == false)
        #expect(try await woke.value == at("2026-01-01T00:15:00Z"))
    }
}

@Suite struct SystemClockTests {
    @Test func aSleepEndsAtItsDeadlineAndACancelledOneAtOnce() async throws {
        let clock = SystemClock()
        let deadline = clock.now.addingTimeInterval(0.2)
        try await clock.sleep(until: deadline)
        #expect(clock.now >= deadline)

        let sleeper = Task { try await clock.sleep(until: clock.now.addingTimeInterval(3600)) }
        try await Task.sleep(for: .milliseconds(50))
        let cancelled = ContinuousClock.now
        sleeper.cancel()
        await #expect(throws: CancellationError.self) { try await sleeper.value }
        #expect(ContinuousClock.now - cancelled < .seconds(5), "a cancelled hour-long sleep ends at once")
    }

    @Test func sleepsCancelledAtAnyMomentEndCleanly() async {
        // Cancelled before, while and after they start waiting; a timer released unresumed would trap.
        let clock = SystemClock()
        var cancelled = 0
        for round in 0..<300 {
            let sleeper = Task { try await clock.sleep(until: clock.now.addingTimeInterval(round % 3 == 0 ? 0 : 60)) }
            if round % 2 == 0 { await Task.yield() }
            sleeper.cancel()
            if case .failure = await sleeper.result { cancelled += 1 }
        }
        #expect(cancelled >= 150)
    }
}
