import EnergyClockDomain
import EnergyClockTesting
import Foundation
import Testing

/// Plans that look ahead into the forecast: tentative while they use it, made again when the
/// official prices come, and never on in a forecast slot unless the job asks for it.
@Suite struct ForecastPlanTests {
    let issued = at("2026-03-02T06:00:00Z")

    /// Hourly slots from `start` at `prices`, marked as a forecast when `forecast`.
    func hours(_ prices: [Double], from start: String, forecast: Bool = false) -> [PricedSlot] {
        PlanBookTests.slots(prices, from: start).map { slot in
            var slot = slot
            slot.slot.provenance = forecast ? .forecast("epex-predictor", issued: issued) : .official("energyzero")
            return slot
        }
    }

    /// A two-hour job, once, anywhere in what is known.
    func job(useForecast: Bool, runOnForecast: Bool = false) -> Job {
        var job = Job(duration: 120, window: nil, repeats: .once, since: at("2026-03-02T08:00:00+01:00"))
        job.useForecast = useForecast
        job.runOnForecast = runOnForecast
        return job
    }

    @Test func aJobThatUsesTheForecastIsTentativeUntilTheOfficialPricesCome() throws {
        // Today at 0.30 but for 20:00-22:00 at 0.20; tomorrow forecast at 0.10 from 03:00 to 05:00.
        let today = hours((0..<24).map { $0 == 20 || $0 == 21 ? 0.20 : 0.30 }, from: "2026-03-02T00:00:00+01:00")
        let forecast = hours((0..<24).map { $0 == 3 || $0 == 4 ? 0.10 : 0.25 }, from: "2026-03-03T00:00:00+01:00", forecast: true)
        func plan(_ job: Job, slots: [PricedSlot], forecast: [PricedSlot], book: inout PlanBook) -> Plan {
            book.plans(
                ["dish": job], slots: slots, knownUntil: slots.last?.slot.end, now: at("2026-03-02T10:00:00+01:00"), calendar: amsterdam,
                forecast: forecast)[0]
        }
        var plain = PlanBook()
        let official = plan(job(useForecast: false), slots: today, forecast: forecast, book: &plain)
        #expect(official.start == at("2026-03-02T20:00:00+01:00") && !official.tentative)

        var book = PlanBook()
        let ahead = plan(job(useForecast: true), slots: today, forecast: forecast, book: &book)
        #expect(ahead.start == at("2026-03-03T03:00:00+01:00"))
        #expect(ahead.tentative)
        #expect(ahead.reason?.contains("planned on a forecast of the prices after 2026-03-03T00:00:00+01:00") == true)

        // 13:00: tomorrow's official prices come, cheapest from 13:00 to 15:00; 03:00 was not what
        // the forecast said. The plan is made again on them, no longer tentative.
        let tomorrow = hours((0..<24).map { $0 == 13 || $0 == 14 ? 0.05 : 0.28 }, from: "2026-03-03T00:00:00+01:00")
        let replanned = plan(job(useForecast: true), slots: today + tomorrow, forecast: forecast, book: &book)
        #expect(replanned.start == at("2026-03-03T13:00:00+01:00"))
        #expect(!replanned.tentative && replanned.reason == nil)
    }

    @Test func aForecastSlotSwitchesNothingOnUnlessTheJobAsksForIt() throws {
        // No official price covers now (the source fails); the forecast does, cheapest 11:00-13:00.
        let forecast = hours((0..<24).map { $0 == 1 || $0 == 2 ? 0.05 : 0.30 }, from: "2026-03-02T10:00:00+01:00", forecast: true)
        for (runs, expected) in [(false, false), (true, true)] {
            var book = PlanBook()
            func plan(at now: String) -> Plan {
                book.plans(
                    ["dish": job(useForecast: true, runOnForecast: runs)], slots: [], knownUntil: nil, now: at(now), calendar: amsterdam,
                    forecast: forecast)[0]
            }
            let before = plan(at: "2026-03-02T10:30:00+01:00")
            #expect(before.start == at("2026-03-02T11:00:00+01:00") && before.tentative, "\(before)")
            #expect(plan(at: "2026-03-02T11:10:00+01:00").active == expected, "run_on_forecast \(runs)")
        }
    }

    @Test func runOnForecastNeedsUseForecastAndBothTravelInTheJobsJSON() throws {
        var settings = Settings.defaults
        let patch = try SettingsPatch.parse(
            object: Array(#"{"jobs":{"car":{"duration":180,"earliest":"18:00","deadline":"07:00","use_forecast":true}}}"#.utf8),
            sources: ["energyzero"])
        settings = try settings.merged(patch)
        #expect(settings.jobs["car"]?.useForecast == true)
        #expect(settings.json.contains(#""repeat":"daily","use_forecast":true}"#), "\(settings.json)")
        let refused = try SettingsPatch.parse(
            object: Array(#"{"jobs":{"car":{"use_forecast":false,"run_on_forecast":true}}}"#.utf8), sources: ["energyzero"])
        #expect(performing: { _ = try settings.merged(refused) }, throws: { "\($0)".contains("run_on_forecast needs use_forecast") })
        #expect(
            performing: {
                _ = try SettingsPatch.parse(object: Array(#"{"jobs":{"car":{"use_forecast":"yes"}}}"#.utf8), sources: ["energyzero"])
            }, throws: { "\($0)".contains("jobs.car.use_forecast") })
    }
}
