import EnergyClockDomain
import EnergyClockRuntime
import EnergyClockStore
import EnergyClockTesting
import Foundation
import Testing

/// Promises the docs make about the manager, each checked on its own.
@Suite struct ManagerPromiseTests {
    let day = LocalDay(year: 2025, month: 12, day: 17)

    @Test func growingHistoryDaysFetchesTheMissingDays() async throws {
        let clock = ManualClock(start: at("2025-12-17T10:00:00+01:00"))
        let source = MemorySource(slots: quarterDays(around: LocalDay(year: 2025, month: 12, day: 1), days: 20))
        let (manager, output) = try makeManager(clock: clock, source: source)
        let run = await start(manager, clock)
        defer { run.cancel() }
        manager.submit(request(#"{"color_mode":"relative"}"#))
        #expect(await output.wait { $0.last?.samples == 7 * 24 })
        // Each request answers a day with its neighbours, so the oldest day asked for is the 10th at most.
        #expect(!source.requests.contains { $0 < day.adding(days: -7) })
        manager.submit(request(#"{"history_days":14}"#))
        #expect(await output.wait { $0.last?.samples == 14 * 24 }, "\(output.last?.samples ?? 0) samples")
        #expect(source.requests.contains { $0 <= day.adding(days: -12) })
    }

    @Test func historyOlderThanTheRetentionIsTrimmedAtMidnight() async throws {
        let directory = temporaryDirectory()
        let clock = ManualClock(start: at("2025-12-17T23:50:00+01:00"))
        let old = slots(from: at("2025-10-15T00:00:00+02:00"), count: 24, minutes: 60) { _ in 0.1 }.stamped(.official("energyzero"))
        let kept = quarterDays(around: day).stamped(.official("energyzero"))
        let store = try PriceStore(directory: directory)
        try store.save(old, source: "energyzero", fetchedAt: nil)
        try store.save(kept, source: "energyzero", fetchedAt: clock.now)
        store.close()
        let (manager, _) = try makeManager(
            clock: clock, source: MemorySource(slots: kept), directory: directory,
            policy: RefreshSchedule.Policy())
        let run = await start(manager, clock)
        defer { run.cancel() }
        // 15 October is 63 days before 17 December: kept until that day ends, gone once 18 December begins.
        await manager.close()
        let before = try PriceStore(directory: directory)
        let all = DateInterval(start: .distantPast, end: .distantFuture)
        #expect(try before.slots(source: "energyzero", overlapping: all).contains(old[0]))
        before.close()
        run.cancel()

        let (again, output) = try makeManager(clock: clock, source: MemorySource(slots: kept), directory: directory)
        let second = await start(again, clock)
        defer { second.cancel() }
        await clock.advance(to: at("2025-12-18T00:00:00+01:00"))
        #expect(await output.wait { $0.last.map { amsterdam.day(containing: $0.now) } == LocalDay(year: 2025, month: 12, day: 18) })
        await settle(clock, again)
        await again.close()
        let after = try PriceStore(directory: directory)
        let remaining = try after.slots(source: "energyzero", overlapping: all)
        #expect(!remaining.contains(old[0]))
        #expect(remaining.contains(kept.last!))
    }

    @Test func tomorrowIsPolledFromTheConfiguredHourAtTheConfiguredInterval() async throws {
        var policy = RefreshSchedule.Policy()
        policy.tomorrowHour = 15
        policy.pollInterval = 60
        let clock = ManualClock(start: at("2025-12-17T14:00:00+01:00"))
        // Today only: tomorrow is never published in this test.
        let today = quarterDays(around: day).filter { amsterdam.day(containing: $0.start) == day }
        let source = MemorySource(slots: today)
        let (manager, output) = try makeManager(clock: clock, source: source, policy: policy)
        let run = await start(manager, clock)
        defer { run.cancel() }
        let tomorrow = day.adding(days: 1)
        // Through every wake-up before 15:00 (slot boundaries), tomorrow is not asked for.
        let hour = at("2025-12-17T15:00:00+01:00")
        while true {
            await settle(clock, manager)
            guard let next = clock.nextDeadline, next < hour else { break }
            #expect(!source.requests.contains(tomorrow))
            await clock.advance(to: next)
        }
        #expect(!source.requests.contains(tomorrow))
        #expect(clock.nextDeadline == hour)
        await clock.advance(to: hour)
        #expect(await output.wait { _ in source.requests.contains(tomorrow) })
        await settle(clock, manager)
        // Still missing: the next poll is a minute later, before the next quarter-hour.
        #expect(clock.nextDeadline == at("2025-12-17T15:01:00+01:00"))
    }

    @Test func aNullBrightnessStopsSettingIt() throws {
        let ids = ["energyzero"]
        let set = try Settings.defaults.merged(
            SettingsPatch.parse(object: Array(#"{"brightness":{"green":64,"red":200}}"#.utf8), sources: ids))
        #expect(set.brightness == [.green: 64, .red: 200])
        let cleared = try set.merged(SettingsPatch.parse(object: Array(#"{"brightness":{"green":null}}"#.utf8), sources: ids))
        #expect(cleared.brightness == [.red: 200])
        #expect(cleared.json.contains(#""brightness":{"red":200}"#))
        let plain = try cleared.merged(SettingsPatch.parse(field: "brightness", plain: Array("red=null".utf8), sources: ids))
        #expect(plain.brightness.isEmpty)
    }
}
