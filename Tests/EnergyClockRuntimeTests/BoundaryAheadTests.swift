import EnergyClockDomain
import EnergyClockRuntime
import EnergyClockTesting
import Foundation
import Testing

/// The snapshots of the next slot boundary are derived while the run loop sleeps towards it:
/// what is shown there must be what a snapshot derived at the boundary would show. (What changes
/// before a boundary shows there: `ManagerTests.theKeptDayFollowsEveryChangeItDerivesFrom`.)
@Suite struct BoundaryAheadTests {
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
        await settle(clock, manager)
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
}
