import EnergyClockDomain
import EnergyClockRuntime
import EnergyClockTesting
import Foundation
import Testing

@Suite struct FailoverTests {
    let day = LocalDay(year: 2025, month: 12, day: 17)

    @Test func aFailingSourceFallsBackAndReturnsWhenItHeals() async throws {
        let clock = ManualClock(start: at("2025-12-17T10:20:00+01:00"))
        let primary = MemorySource(id: "energyzero", slots: quarterDays(around: day))
        let backup = MemorySource(
            id: "backup", slots: quarterDays(around: day).map { SeriesSlot(start: $0.start, end: $0.end, value: $0.value + 1) })
        primary.fail(true)
        let (manager, output) = try makeManager(clock: clock, source: primary, others: [backup])
        await manager.apply([request(#"{"fallback_sources":["backup"]}"#, sources: ["energyzero", "backup"])])
        #expect(output.outcomes.count == 1)

        let run = await start(manager, clock)
        defer { run.cancel() }
        let served = try #require(output.last)
        #expect(served.source == "backup")
        #expect(served.stale == false)
        #expect(abs(served.current!.slot.value - (0.10 + 1)) < 1e-12)

        // The chosen source is retried with backoff even though the fallback covers today.
        primary.fail(false)
        // The change applied before the run rang the doorbell, so the first sleep may end at once:
        // wait for the sleep on the retry itself.
        #expect(await clock.waitForSleeper(until: at("2025-12-17T10:20:30+01:00")))
        await clock.advance(to: at("2025-12-17T10:20:30+01:00"))
        #expect(await output.wait { $0.last?.source == "energyzero" })
        #expect(abs(output.last!.current!.slot.value - 0.10) < 1e-12)
    }

    @Test func noUsefulFallbackKeepsTheStaleCache() async throws {
        let directory = temporaryDirectory()
        let clock = ManualClock(start: at("2025-12-17T10:20:00+01:00"))
        let primary = MemorySource(id: "energyzero", slots: quarterDays(around: day, days: 2))
        let empty = MemorySource(id: "backup")
        do {
            let (first, firstOutput) = try makeManager(clock: clock, source: primary, others: [empty], directory: directory)
            _ = await first.loadAndFetchIfNeeded()
            await first.apply([request(#"{"fallback_sources":["backup"]}"#, sources: ["energyzero", "backup"])])
            #expect(await firstOutput.wait { $0.outcomes.count == 1 })
            await first.close()
        }
        primary.fail(true)
        await clock.advance(to: at("2025-12-17T14:00:00+01:00"))  // Tomorrow is due, so a fetch happens.
        let (manager, output) = try makeManager(clock: clock, source: primary, others: [empty], directory: directory)
        let run = await start(manager, clock)
        defer { run.cancel() }
        #expect(await output.wait { $0.last?.stale == true })
        #expect(output.last?.source == "energyzero")
        #expect(output.last?.current != nil)
        #expect(empty.requests.contains(day))
    }

    @Test func switchingSourcesServesEachOnesOwnCacheAtOnce() async throws {
        let clock = ManualClock(start: at("2025-12-17T10:20:00+01:00"))
        let a = MemorySource(id: "energyzero", slots: quarterDays(around: day))
        let b = MemorySource(id: "other", slots: quarterDays(around: day).map { SeriesSlot(start: $0.start, end: $0.end, value: 2) })
        let (manager, output) = try makeManager(clock: clock, source: a, others: [b])
        let run = await start(manager, clock)
        defer { run.cancel() }
        let ids = ["energyzero", "other"]
        manager.submit(request(#"{"source":"other"}"#, sources: ids))
        #expect(await output.wait { $0.last?.source == "other" && $0.last?.current?.slot.value == 2 })
        await settle(clock, manager)
        let fetchesOfA = a.requests.count
        a.fail(true)  // Going back must not need the network.
        manager.submit(request(#"{"source":"energyzero"}"#, sources: ids))
        #expect(await output.wait { $0.outcomes.count == 2 })
        let back = output.snapshots.first {
            $0.source == "energyzero" && $0.settings.source == "energyzero" && $0.now == clock.now && $0.current?.slot.value == 0.10
        }
        #expect(back != nil)
        #expect(back?.stale == false, "the cache is shown before any fetch could fail")
        // The switch asks the (now failing) network too, and its failure keeps the cache.
        #expect(await output.wait { _ in a.requests.count > fetchesOfA })
        #expect(await output.wait { $0.last?.stale == true && $0.last?.current?.slot.value == 0.10 })
    }
}
