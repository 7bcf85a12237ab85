import EnergyClockDomain
import EnergyClockRuntime
import EnergyClockTesting
import Foundation
import Testing

@Suite struct ManagerTests {
    let day = LocalDay(year: 2025, month: 12, day: 17)

    @Test func publishesCurrentSlotAndFollowsBoundaries() async throws {
        let clock = ManualClock(start: at("2025-12-17T10:20:00+01:00"))
        let source = MemorySource(slots: quarterDays(around: day))
        let (manager, output) = try makeManager(clock: clock, source: source)
        let run = await start(manager, clock)
        defer { run.cancel() }

        let first = try #require(output.last)
        #expect(first.current?.slot.start == at("2025-12-17T10:00:00+01:00"))
        #expect(abs(first.current!.price - 0.10 * 1.21) < 1e-12)
        #expect(first.current?.band == .yellow)
        #expect(first.next?.slot.start == at("2025-12-17T11:00:00+01:00"))
        #expect(first.today.count == 24 && first.tomorrow.count == 24)
        #expect(clock.nextDeadline == at("2025-12-17T10:30:00+01:00"))

        // Jump to the next hour: the current slot moves exactly there.
        await clock.advance(to: at("2025-12-17T11:00:00+01:00"))
        await settle(clock, manager)
        #expect(output.last?.current?.slot.start == at("2025-12-17T11:00:00+01:00"))
        // One fetch for today; the rest are single-day backfill requests for older history.
        #expect(source.requests.filter { $0 >= day } == [day])
        #expect(source.requests.allSatisfy { $0 >= day.adding(days: -6) })
    }

    @Test func theKeptDayFollowsEveryChangeItDerivesFrom() async throws {
        // A boundary reuses the day's priced slots; a new threshold, new prices and a new day
        // must each show at once, as a snapshot derived afresh would.
        let clock = ManualClock(start: at("2025-12-17T10:20:00+01:00"))
        let source = MemorySource(slots: quarterDays(around: day))
        let (manager, output) = try makeManager(clock: clock, source: source)
        let run = await start(manager, clock)
        defer { run.cancel() }
        func fresh() async throws -> Snapshot { try await derivedAfresh(output, manager, source) }
        #expect(output.last?.current?.band == .yellow)

        // The loop sleeps towards 10:30 with that boundary's snapshots derived ahead (see
        // PriceManager.Ahead): each change before it must show there too.
        #expect(clock.nextDeadline == at("2025-12-17T10:30:00+01:00"))
        await manager.apply([request(#"{"green_max": 0.5, "yellow_max": 0.6, "orange_max": 0.7}"#)])
        #expect(output.last?.current?.band == .green)
        #expect(output.last?.today == (try await fresh()).today)
        await clock.advance(to: at("2025-12-17T10:30:00+01:00"))
        await settle(clock, manager)
        #expect(output.last?.now == at("2025-12-17T10:30:00+01:00"))
        #expect(output.last == (try await fresh()))

        source.set(quarterDays(around: day).map { SeriesSlot(start: $0.start, end: $0.end, value: $0.value * 2) })
        await manager.refreshNow()
        #expect(await output.wait { abs(($0.last?.current?.price ?? 0) - 0.20 * 1.21) < 1e-12 })
        await settle(clock, manager)
        #expect(output.last?.today == (try await fresh()).today)
        await clock.advance(to: at("2025-12-17T10:45:00+01:00"))
        await settle(clock, manager)
        #expect(output.last?.now == at("2025-12-17T10:45:00+01:00"))
        #expect(output.last == (try await fresh()))

        // Woken long after the boundary it slept towards: the slot of the hour it wakes in.
        await clock.advance(to: at("2025-12-17T12:10:00+01:00"))
        await settle(clock, manager)
        #expect(output.last?.current?.slot.start == at("2025-12-17T12:00:00+01:00"))
        #expect(output.last == (try await fresh()))

        await clock.advance(to: at("2025-12-18T00:00:00+01:00"))
        await settle(clock, manager)
        #expect(output.last?.current?.slot.start == at("2025-12-18T00:00:00+01:00"))
        #expect(output.last?.today == (try await fresh()).today)
    }

    @Test func midnightRolloverTurnsTomorrowIntoToday() async throws {
        let clock = ManualClock(start: at("2025-12-17T23:50:00+01:00"))
        let (manager, output) = try makeManager(clock: clock, source: MemorySource(slots: quarterDays(around: day)))
        let run = await start(manager, clock)
        defer { run.cancel() }
        let before = try #require(output.last)
        #expect(before.tomorrow.count == 24)
        await clock.advance(to: at("2025-12-18T00:00:00+01:00"))
        await settle(clock, manager)
        let after = try #require(output.last)
        #expect(after.today.map(\.slot) == before.tomorrow.map(\.slot))
        #expect(after.tomorrow.isEmpty)
        #expect(after.current?.slot.start == at("2025-12-18T00:00:00+01:00"))
    }

    @Test func noCoveringSlotMeansNoCurrentPrice() async throws {
        let clock = ManualClock(start: at("2026-01-05T10:00:00+01:00"))
        let source = MemorySource(slots: quarterDays(around: day))
        let (manager, output) = try makeManager(clock: clock, source: source)
        let run = await start(manager, clock)
        defer { run.cancel() }
        let snapshot = try #require(output.last)
        #expect(snapshot.current == nil && snapshot.next == nil && snapshot.today.isEmpty)
        #expect(!snapshot.stale)
    }

    @Test func failedFetchKeepsCacheMarksStaleAndRecovers() async throws {
        let directory = temporaryDirectory()
        let clock = ManualClock(start: at("2025-12-17T09:00:00+01:00"))
        let source = MemorySource(slots: quarterDays(around: day))
        do {
            let (first, _) = try makeManager(clock: clock, source: source, directory: directory)
            _ = await first.loadAndFetchIfNeeded()
            await first.close()
        }
        // A day later the source is down; yesterday's fetch already holds today (the 18th).
        source.fail(true)
        await clock.advance(to: at("2025-12-18T14:00:00+01:00"))
        let (manager, output) = try makeManager(clock: clock, source: source, directory: directory)
        let run = await start(manager, clock)
        defer { run.cancel() }
        let snapshot = try #require(output.last)
        #expect(snapshot.stale)
        #expect(snapshot.current?.slot.start == at("2025-12-18T14:00:00+01:00"))
        #expect(snapshot.tomorrow.isEmpty)
        let retry = try #require(clock.nextDeadline)
        #expect(retry == at("2025-12-18T14:00:30+01:00"))

        source.fail(false)
        source.set(quarterDays(around: LocalDay(year: 2025, month: 12, day: 18)))
        await clock.advance(to: retry)
        await settle(clock, manager)
        #expect(await output.wait { $0.last?.stale == false && $0.last?.tomorrow.count == 24 })
    }

    @Test func startsFromTheCacheWithoutFetching() async throws {
        let directory = temporaryDirectory()
        let clock = ManualClock(start: at("2025-12-17T09:00:00+01:00"))
        let source = MemorySource(slots: quarterDays(around: day))
        let (first, _) = try makeManager(clock: clock, source: source, directory: directory)
        _ = await first.loadAndFetchIfNeeded()
        await first.close()
        let fetchesBefore = source.requests.count

        let (manager, output) = try makeManager(clock: clock, source: source, directory: directory)
        let run = await start(manager, clock)
        defer { run.cancel() }
        #expect(output.snapshots.first?.current != nil)
        #expect(source.requests.count == fetchesBefore)
        #expect(output.last?.stale == false)
    }

    @Test func tomorrowIsPolledFrom1300WithTheInterval() async throws {
        let clock = ManualClock(start: at("2025-12-17T12:00:00+01:00"))
        let onlyToday = quarterDays(around: day, days: 2)
        let source = MemorySource(slots: onlyToday)
        let (manager, output) = try makeManager(clock: clock, source: source)
        let run = await start(manager, clock)
        defer { run.cancel() }
        #expect(source.requests.filter { $0 >= day } == [day])
        #expect(clock.nextDeadline == at("2025-12-17T12:15:00+01:00"))
        await clock.advance(to: at("2025-12-17T13:00:00+01:00"))
        await settle(clock, manager)
        // At 13:00 it asks for today (with neighbours) and then tomorrow directly, finds nothing, and polls again in 5 min.
        #expect(source.requests.filter { $0 >= day } == [day, day, day.adding(days: 1)])
        #expect(clock.nextDeadline == at("2025-12-17T13:05:00+01:00"))
        source.set(quarterDays(around: day))
        await clock.advance(to: at("2025-12-17T13:05:00+01:00"))
        await settle(clock, manager)
        #expect(await output.wait { $0.last?.tomorrowValid == true })
        #expect(output.last?.tomorrow.count == 24)
    }

    @Test func aSourceWhoseAnswersSpanTomorrowIsAskedOncePerPoll() async throws {
        let clock = ManualClock(start: at("2025-12-17T13:10:00+01:00"))
        let source = MemorySource(slots: quarterDays(around: day, days: 2), answersIncludeNextDay: true)
        let (manager, _) = try makeManager(clock: clock, source: source)
        let run = await start(manager, clock)
        defer { run.cancel() }
        #expect(source.requests.filter { $0 >= day } == [day])
        await clock.advance(to: at("2025-12-17T13:15:00+01:00"))
        await settle(clock, manager)
        #expect(source.requests.filter { $0 >= day } == [day, day])
    }

    @Test func todayIsShownBeforeTheHistoryDaysAreFetched() async throws {
        let clock = ManualClock(start: at("2025-12-17T10:20:00+01:00"))
        let source = MemorySource(slots: quarterDays(around: day))
        source.hold(before: day)
        let (manager, output) = try makeManager(clock: clock, source: source)
        let run = Task { try await manager.run() }
        defer { run.cancel() }
        // Today's answer is published while the first history day is still being asked for.
        #expect(await output.wait { $0.last?.current?.slot.start == at("2025-12-17T10:00:00+01:00") }, "\(source.requests)")
        #expect(source.requests.filter { $0 < day }.count <= 1, "\(source.requests)")
        source.hold(before: nil)
        await settle(clock, manager)
        // The week's other days follow (the 16th came with today's answer).
        let history = (1...5).map { day.adding(days: -1 - $0) }.reversed()
        #expect(source.requests.filter { $0 < day } == Array(history), "\(source.requests)")
    }

    @Test func relativeModeUsesHistoryQuartilesAndBackfills() async throws {
        let clock = ManualClock(start: at("2025-12-17T10:00:00+01:00"))
        // Ten days of data; the first fetch only sees three, the rest must be backfilled.
        let all = quarterDays(around: LocalDay(year: 2025, month: 12, day: 9), days: 10)
        let source = MemorySource(slots: all)
        let (manager, output) = try makeManager(clock: clock, source: source)
        let run = await start(manager, clock)
        defer { run.cancel() }
        manager.submit(SettingsRequest(patch: .success(SettingsPatch([.colorMode: .text("relative")]))))
        #expect(await output.wait { $0.outcomes.count == 1 })
        let snapshot = await manager.snapshot()
        #expect(snapshot.samples == 7 * 24)
        // Every day repeats 0.00…0.23 per hour, so the consumer prices are i × 0.0121 for i in 0…23, and
        // numpy's linear quartiles sit at ranks 5.75, 11.5 and 17.25: 0.069575, 0.13915 and 0.208725.
        #expect(abs(snapshot.thresholds!.greenMax - 0.069575) < 1e-12)
        #expect(abs(snapshot.thresholds!.yellowMax - 0.13915) < 1e-12)
        #expect(abs(snapshot.thresholds!.orangeMax - 0.208725) < 1e-12)
        #expect(source.requests.contains(LocalDay(year: 2025, month: 12, day: 11)))
    }
}

@Suite struct StaleRecoveryTests {
    @Test func aFailedOptionalFetchIsRetriedUntilStaleClears() async throws {
        let day = LocalDay(year: 2025, month: 12, day: 17)
        let clock = ManualClock(start: at("2025-12-17T10:20:00+01:00"))
        let source = MemorySource(slots: quarterDays(around: day))
        let (manager, output) = try makeManager(clock: clock, source: source)
        let run = await start(manager, clock)
        defer { run.cancel() }
        // Everything is cached; the refresh button fails.
        source.fail(true)
        await manager.refreshNow()
        #expect(await output.wait { $0.last?.stale == true })
        await settle(clock, manager)
        // The source heals; the backoff retry clears stale although nothing was missing.
        source.fail(false)
        let retry = try #require(clock.nextDeadline)
        #expect(retry <= clock.now.addingTimeInterval(30))
        await clock.advance(to: retry)
        #expect(await output.wait { $0.last?.stale == false })
    }
}
