import EnergyClockCore
import EnergyClockTesting
import Foundation
import Testing

/// The snapshots of the next slot boundary are derived while the run loop sleeps towards it:
/// what is shown there must be what a snapshot derived at the boundary would show.
@Suite struct BoundaryAheadTests {
    let day = LocalDay(year: 2025, month: 12, day: 17)

    @Test func theBoundaryShowsWhatASnapshotDerivedThereShowsPlansIncluded() async throws {
        let directory = temporaryDirectory()
        // Cheapest from 10:00 to 12:00; 14:00 to 16:00 nearly as cheap.
        let prices = slots(from: at("2025-12-17T00:00:00+01:00"), count: 48, minutes: 60) {
            [10: 0.01, 11: 0.01, 14: 0.02, 15: 0.02][$0] ?? 0.3
        }
        let clock = ManualClock(start: at("2025-12-17T09:20:00+01:00"))
        let (manager, output) = try makeManager(clock: clock, source: MemorySource(slots: prices), directory: directory)
        await manager.apply([request(#"{"jobs":{"wash":{"duration":120,"earliest":"08:00","deadline":"18:00"}}}"#)])
        let run = await start(manager, clock)
        #expect(output.last?.plans.first?.active == false)
        #expect(clock.nextDeadline == at("2025-12-17T10:00:00+01:00"))

        await clock.advance(to: at("2025-12-17T10:00:00+01:00"))
        await settle(clock)
        let shown = try #require(output.last)
        #expect(shown.now == at("2025-12-17T10:00:00+01:00"))
        #expect(shown.current?.slot.start == at("2025-12-17T10:00:00+01:00"))
        #expect(shown.plans.first?.active == true)
        run.cancel()
        _ = await run.result
        await manager.close()

        // The same as a manager that never slept towards 10:00 shows there, from the same past.
        let referenceClock = ManualClock(start: at("2025-12-17T09:20:00+01:00"))
        let (reference, _) = try makeManager(clock: referenceClock, source: MemorySource(slots: prices))
        await reference.apply([request(#"{"jobs":{"wash":{"duration":120,"earliest":"08:00","deadline":"18:00"}}}"#)])
        _ = await reference.loadAndFetchIfNeeded()
        await referenceClock.advance(to: at("2025-12-17T10:00:00+01:00"))
        let derived = await reference.snapshot()
        #expect(shown.plans == derived.plans)
        #expect(shown.today == derived.today && shown.current == derived.current && shown.next == derived.next)
        await reference.close()

        // The block that started at the boundary was kept: back at 11:30 it runs on, though from
        // there 14:00 would be the cheapest.
        await clock.advance(to: at("2025-12-17T11:30:00+01:00"))
        let (second, _) = try makeManager(clock: clock, source: MemorySource(slots: prices), directory: directory)
        _ = await second.loadAndFetchIfNeeded()
        #expect(await second.snapshot().plans.first?.start == at("2025-12-17T10:00:00+01:00"))
        await second.close()
    }

    @Test func whatChangesBeforeTheBoundaryShowsThere() async throws {
        let clock = ManualClock(start: at("2025-12-17T10:20:00+01:00"))
        let source = MemorySource(slots: quarterDays(around: day))
        let (manager, output) = try makeManager(clock: clock, source: source)
        let run = await start(manager, clock)
        defer { run.cancel() }
        func fresh() async throws -> Snapshot {
            let shown = try #require(output.last)
            return Snapshot.derive(
                now: shown.now, calendar: amsterdam, settings: await manager.settings, slots: source.slots,
                source: shown.source, stale: shown.stale, updatedAt: shown.updatedAt)
        }
        #expect(output.last?.current?.band == .yellow)
        #expect(clock.nextDeadline == at("2025-12-17T10:30:00+01:00"))

        // New thresholds while the loop sleeps towards 10:30.
        await manager.apply([request(#"{"green_max": 0.5, "yellow_max": 0.6, "orange_max": 0.7}"#)])
        await clock.advance(to: at("2025-12-17T10:30:00+01:00"))
        await settle(clock)
        #expect(output.last?.now == at("2025-12-17T10:30:00+01:00"))
        #expect(output.last?.current?.band == .green)
        #expect(output.last == (try await fresh()))

        // New prices, fetched on request before 10:45.
        source.set(quarterDays(around: day).map { PriceSlot(start: $0.start, end: $0.end, market: $0.market * 2) })
        await manager.refreshNow()
        #expect(await output.wait { abs(($0.last?.current?.price ?? 0) - 0.20 * 1.21) < 1e-12 })
        await settle(clock)
        await clock.advance(to: at("2025-12-17T10:45:00+01:00"))
        await settle(clock)
        #expect(output.last?.now == at("2025-12-17T10:45:00+01:00"))
        #expect(output.last == (try await fresh()))

        // Woken long after the boundary it slept towards: the slot of the hour it wakes in.
        await clock.advance(to: at("2025-12-17T12:10:00+01:00"))
        await settle(clock)
        #expect(output.last?.now == at("2025-12-17T12:10:00+01:00"))
        #expect(output.last?.current?.slot.start == at("2025-12-17T12:00:00+01:00"))
        #expect(abs((output.last?.current?.price ?? 0) - 0.24 * 1.21) < 1e-12)
    }
}
