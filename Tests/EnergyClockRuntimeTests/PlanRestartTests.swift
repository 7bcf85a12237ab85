import EnergyClockDomain
import EnergyClockRuntime
import EnergyClockSources
import EnergyClockStore
import EnergyClockSupport
import EnergyClockTesting
import Foundation
import Testing

/// Started blocks survive a restart.
@Suite struct PlanRestartTests {
    @Test func aRestartInTheMiddleOfABlockRunsTheBlockOn() async throws {
        let directory = temporaryDirectory()
        let start = at("2025-12-17T00:00:00+01:00")
        // Cheapest from 10:00 to 12:00; 14:00 to 16:00 nearly as cheap.
        let prices = slots(from: start, count: 48, minutes: 60) { [10: 0.01, 11: 0.01, 14: 0.02, 15: 0.02][$0] ?? 0.3 }
        let job = #"{"jobs":{"wash":{"duration":120,"earliest":"08:00","deadline":"18:00"}}}"#
        let clock = ManualClock(start: at("2025-12-17T09:00:00+01:00"))
        let (first, _) = try makeManager(clock: clock, source: MemorySource(slots: prices), directory: directory)
        _ = await first.loadAndFetchIfNeeded()
        await first.apply([request(job)])
        #expect(await first.snapshot().plans.first?.start == at("2025-12-17T10:00:00+01:00"))
        await clock.advance(to: at("2025-12-17T10:00:00+01:00"))
        #expect(await first.snapshot().plans.first?.active == true)
        await first.close()

        // Back at 11:30: the block from 10:00 runs on, though from here 14:00 would be the cheapest.
        await clock.advance(to: at("2025-12-17T11:30:00+01:00"))
        let (second, _) = try makeManager(clock: clock, source: MemorySource(slots: prices), directory: directory)
        _ = await second.loadAndFetchIfNeeded()
        let plan = try #require(await second.snapshot().plans.first)
        #expect(plan.start == at("2025-12-17T10:00:00+01:00"))
        #expect(plan.active)
        #expect(plan.status == .running)
        await second.close()

        // A job set differently since is planned afresh.
        let (third, _) = try makeManager(clock: clock, source: MemorySource(slots: prices), directory: directory)
        _ = await third.loadAndFetchIfNeeded()
        await third.apply([request(#"{"jobs":{"wash":{"duration":60}}}"#)])
        #expect(await third.snapshot().plans.first?.start == at("2025-12-17T14:00:00+01:00"))
        await third.close()
    }

    @Test func startedBlocksThatDoNotReadBackWholeAreLeftOut() throws {
        let job = Job(duration: 60, window: Job.Window(earliest: 480, deadline: 1080))
        var book = PlanBook()
        let prices = slots(from: at("2025-12-17T00:00:00+01:00"), count: 24, minutes: 60) { _ in 0.1 }.map {
            PricedSlot(slot: $0, components: PriceComponents(market: 0.1, markup: 0, surcharge: 0, gridFee: 0, vat: 0), band: nil)
        }
        _ = book.plans(
            ["wash": job], slots: prices, knownUntil: prices.last?.slot.end, now: at("2025-12-17T08:00:00+01:00"), calendar: amsterdam)
        let good = try #require(book.startedLines.first)
        #expect(PlanBook(restoring: [good], jobs: ["wash": job]).startedLines == [good])
        let fields = good.split(separator: "\t").map(String.init)
        let hostile = [
            String(repeating: "x", count: 20_000),
            "wash\tnan\t\(fields[2])\t\(fields[3])",
            "wash\t1e300\t\(fields[2])\t\(fields[3])",
            "wash\t\(fields[1])\t{\"duration\":-5}\t\(fields[3])",
            "wash\t\(fields[1])\t\(fields[2])\t1765954800,1765951200,0.1",
            "wash\t\(fields[1])\t\(fields[2])\t1765954800,1765958400,inf",
            "wash\t\(fields[1])\t\(fields[2])",
            "other\t\(fields[1])\t\(fields[2])\t\(fields[3])",
        ]
        for line in hostile { #expect(PlanBook(restoring: [line], jobs: ["wash": job]).startedLines.isEmpty, "\(line.prefix(60))") }
        // A job set differently since keeps nothing.
        #expect(PlanBook(restoring: [good], jobs: ["wash": Job(duration: 120, window: job.window)]).startedLines.isEmpty)
    }

    @Test func aOnceJobFromTheCommandLineKeepsItsTimeAcrossRestarts() async throws {
        let directory = temporaryDirectory()
        let update = try SettingsUpdate.parse(
            object: Array(#"{"jobs":{"car":{"duration":60,"repeat":"once"}}}"#.utf8), sources: ["energyzero"])
        func open(at now: String) throws -> PriceManager {
            try PriceManager(
                configuration: .init(calendar: amsterdam), store: try PriceStore(directory: directory),
                catalog: SourceCatalog([MemorySource()]), clock: ManualClock(start: at(now)), output: RecordingOutput(),
                logger: Logger(label: "test", level: .error, handler: StandardErrorLogHandler()), overrides: update)
        }
        let first = try open(at: "2025-12-17T09:00:00+01:00")
        #expect(await first.settings.jobs["car"]?.since == at("2025-12-17T09:00:00+01:00"))
        await first.close()
        let second = try open(at: "2025-12-18T09:00:00+01:00")
        #expect(await second.settings.jobs["car"]?.since == at("2025-12-17T09:00:00+01:00"), "the same job given again is not set anew")
        await second.close()
    }
}
