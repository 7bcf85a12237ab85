import EnergyClockDomain
import EnergyClockTesting
import Foundation
import Testing

/// Jobs that minimise carbon, worked out by hand: what a slot weighs, how far it is known, and
/// how `minimise` and `co2_price` are read, kept and refused.
@Suite struct CarbonPlanTests {
    /// Half-hour intensities in gCO₂/kWh from `start`.
    static func intensity(_ grams: [Double], from start: String) -> [SeriesSlot] {
        grams.enumerated().map { i, value in
            let begin = at(start).addingTimeInterval(Double(i) * 1800)
            return SeriesSlot(start: begin, end: begin.addingTimeInterval(1800), value: value, quantity: .carbonIntensity)
        }
    }

    @Test func aSlotWeighsTheMeanIntensityOverItAndOneNotCoveredWholeIsLeftOut() {
        // Hours at 0.10, 0.20, 0.30 EUR/kWh from 12:00; intensity from 12:00 to 14:30 only.
        let hours = PlanBookTests.slots([0.10, 0.20, 0.30], from: "2026-12-05T12:00:00+01:00")
        let grams = Self.intensity([100, 300, 200, 200, 50], from: "2026-12-05T12:00:00+01:00")
        var clean = Job(duration: 60, window: PlanBookTests.window("12:00", "15:00"))
        clean.minimise = .co2
        let weighed = clean.weighed(hours, intensity: grams)
        #expect(weighed.map(\.cost) == [200, 200], "(100 + 300) / 2 and (200 + 200) / 2; 14:00-15:00 is half known")
        #expect(weighed.map(\.price) == [0.10, 0.20], "the published price stays")
        var both = clean
        both.minimise = .co2Price
        both.co2Price = 500
        // 0.10 + 200 × 0.0005 = 0.2, 0.20 + 200 × 0.0005 = 0.3.
        let costs = both.weighed(hours, intensity: grams).map(\.cost)
        #expect(costs.count == 2 && abs(costs[0] - 0.2) < 1e-12 && abs(costs[1] - 0.3) < 1e-12)
        var plain = clean
        plain.minimise = .price
        #expect(plain.weighed(hours, intensity: []) == hours)
        #expect(grams.mean(over: DateInterval(start: at("2026-12-05T12:15:00+01:00"), duration: 1800)) == 200, "a quarter of each")
        #expect(grams.mean(over: DateInterval(start: at("2026-12-05T11:45:00+01:00"), duration: 1800)) == nil)
    }

    @Test func aCleanJobIsPlannedOnlyAsFarAsTheIntensityIsKnown() {
        // Four hours of prices, the last the cheapest; the intensity covers the first three.
        let hours = PlanBookTests.slots([0.30, 0.20, 0.25, 0.05], from: "2026-12-05T12:00:00+01:00")
        let grams = Self.intensity([300, 300, 150, 250, 90, 110], from: "2026-12-05T12:00:00+01:00")
        var job = Job(duration: 60, window: PlanBookTests.window("12:00", "16:00"))
        job.minimise = .co2
        var book = PlanBook()
        let plan = book.plans(
            ["clean": job], slots: hours, knownUntil: hours.last?.slot.end, now: at("2026-12-05T11:00:00+01:00"),
            calendar: amsterdam, intensity: grams)[0]
        // 14:00 weighs (90 + 110) / 2 = 100, the least of 300, 200 and 100; 15:00 is not known.
        #expect(plan.slots.first?.start == at("2026-12-05T14:00:00+01:00"))
        #expect(plan.meanPrice == 0.25, "the price paid at 14:00")
        #expect(plan.status == .waiting, "the window reaches past what the intensity knows")
        job.minimise = nil
        var priced = PlanBook()
        let cheapest = priced.plans(
            ["cheap": job], slots: hours, knownUntil: hours.last?.slot.end, now: at("2026-12-05T11:00:00+01:00"), calendar: amsterdam,
            intensity: grams)[0]
        #expect(cheapest.slots.first?.start == at("2026-12-05T15:00:00+01:00") && cheapest.status == .planned)
    }

    func merged(_ json: String, over settings: Settings = .defaults) throws(SettingsError) -> Settings {
        try settings.merged(try SettingsPatch.parse(object: Array(json.utf8), sources: ["energyzero"]))
    }

    @Test func minimiseAndItsPriceAreReadKeptAndRefusedWithAReason() throws {
        let paired = try merged(#"{"carbon_source":"gb-carbon-intensity"}"#)
        let job = #"{"jobs":{"j":{"duration":60,"earliest":"12:00","deadline":"18:00","minimise":"co2_price","co2_price":80.5}}}"#
        let set = try merged(job, over: paired)
        #expect(set.jobs["j"]?.minimise == .co2Price && set.jobs["j"]?.co2Price == 80.5)
        #expect(set.json.contains(#""minimise":"co2_price","co2_price":80.5"#))
        #expect(Settings.restore(json: set.json, sources: ["energyzero"]).settings == set, "kept as acknowledged")
        let back = try merged(#"{"jobs":{"j":{"minimise":null}}}"#, over: set)
        #expect(back.jobs["j"]?.minimise == nil && !back.json.contains("minimise"))
        let refusals = [
            (
                #"{"jobs":{"j":{"duration":60,"earliest":"12:00","deadline":"18:00","minimise":"co2"}}}"#, Settings.defaults,
                "needs the profile's carbon_source"
            ),
            (
                #"{"jobs":{"j":{"duration":60,"earliest":"12:00","deadline":"18:00","minimise":"co2_price"}}}"#, paired,
                "needs a co2_price per tonne"
            ),
            (#"{"jobs":{"j":{"minimise":"carbon"}}}"#, paired, "jobs.j.minimise must be one of price, co2, co2_price, null"),
            (#"{"jobs":{"j":{"co2_price":-1}}}"#, paired, "jobs.j.co2_price must be a number from 0 to 10000"),
            (#"{"jobs":{"j":{"co2_price":1e400}}}"#, paired, "co2_price"),
            (
                #"{"signal":"co2","jobs":{"j":{"duration":60,"earliest":"12:00","deadline":"18:00","minimise":"price"}}}"#, paired,
                "a co2 profile shows no price"
            ),
        ]
        for (update, over, reason) in refusals {
            #expect("\(update)") {
                try merged(update, over: over)
            } throws: {
                "\($0)".contains(reason)
            }
        }
    }
}
