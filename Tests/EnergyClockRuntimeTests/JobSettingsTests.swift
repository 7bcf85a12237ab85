import EnergyClockDomain
import EnergyClockRuntime
import EnergyClockTesting
import Foundation
import Testing

/// Jobs as settings: checked, merged field by field, persisted, anchored.
@Suite struct JobSettingsTests {
    static func patch(_ json: String) throws(SettingsError) -> SettingsPatch {
        try SettingsPatch.parse(object: Array(json.utf8), sources: ["energyzero"])
    }

    static func merged(_ json: String, over settings: Settings = .defaults) throws(SettingsError) -> Settings {
        try settings.merged(patch(json))
    }

    static func refusal(_ json: String, over settings: Settings = .defaults) -> String? {
        do {
            _ = try merged(json, over: settings)
            return nil
        } catch { return error.description }
    }

    @Test func aJobIsCreatedChangedFieldByFieldAndDeleted() throws {
        let created = try Self.merged(#"{"jobs":{"dishwasher":{"duration":120,"earliest":"18:00","deadline":"07:00"}}}"#)
        #expect(created.jobs["dishwasher"] == Job(duration: 120, window: Job.Window(earliest: 18 * 60, deadline: 7 * 60)))
        let changed = try Self.merged(#"{"jobs":{"dishwasher":{"deadline":"06:30","max_price":0.25}}}"#, over: created)
        #expect(changed.jobs["dishwasher"]?.window == Job.Window(earliest: 18 * 60, deadline: 6 * 60 + 30))
        #expect(changed.jobs["dishwasher"]?.maxPrice == 0.25)
        #expect(changed.jobs["dishwasher"]?.duration == 120)
        let anytime = try Self.merged(#"{"jobs":{"dishwasher":{"earliest":null,"repeat":"once"}}}"#, over: changed)
        #expect(anytime.jobs["dishwasher"]?.window == nil)
        let deleted = try Self.merged(#"{"jobs":{"dishwasher":null}}"#, over: changed)
        #expect(deleted.jobs.isEmpty)
        // The JSON the store keeps reads back to the same jobs.
        #expect(Settings.restore(json: changed.json, sources: ["energyzero"]).settings == changed)
        #expect(
            changed.json.hasSuffix(
                #""jobs":{"dishwasher":{"duration":120,"contiguous":true,"min_block":0,"earliest":"18:00","deadline":"06:30","max_price":0.25,"repeat":"daily"}},"octopus_product":"AGILE-24-10-01","octopus_region":"","forecast_provider":"","forecast_fallbacks":[],"forecast_tail":false,"signal":"price","carbon_source":"","carbon_area":"","co2_green_max":100,"co2_yellow_max":200,"co2_orange_max":300}"#
            ))
    }

    @Test func aJobThatCannotRunIsRefusedWithTheReason() {
        #expect(
            Self.refusal(#"{"jobs":{"boiler":{"duration":600,"earliest":"22:00","deadline":"06:00"}}}"#)
                == "jobs.boiler refused: the duration (600 minutes) is longer than its window 22:00–06:00 (480 minutes)")
        #expect(
            Self.refusal(#"{"jobs":{"boiler":{"earliest":"22:00","deadline":"06:00"}}}"#)
                == "jobs.boiler refused: a new job needs a duration")
        #expect(
            Self.refusal(#"{"jobs":{"heat":{"duration":60,"contiguous":false,"min_block":90,"earliest":"00:00","deadline":"00:00"}}}"#)
                == "jobs.heat refused: min_block (90 minutes) is longer than the duration (60 minutes)")
        #expect(
            Self.refusal(#"{"jobs":{"car":{"duration":60}}}"#)
                == "jobs.car refused: a daily job needs a window: set earliest and deadline, or repeat: once to run once in the known prices"
        )
        #expect(Self.refusal(#"{"jobs":{"Car":{"duration":60}}}"#) == "jobs refused: a job's name may hold only a-z, 0-9, _ and -")
        #expect(
            Self.refusal(#"{"jobs":{"car":{"duration":0}}}"#)?.hasPrefix(
                "jobs.car.duration must be a whole number of minutes from 1 to 2880") == true)
        #expect(Self.refusal(#"{"jobs":{"car":{"duration":1e300}}}"#)?.hasPrefix("jobs.car.duration must be") == true)
        #expect(
            Self.refusal(#"{"jobs":{"car":{"duration":60,"deadline":"25:00"}}}"#)?.hasPrefix(
                "jobs.car.deadline must be a time from 00:00 to 23:59") == true)
        #expect(Self.refusal(#"{"jobs":{"car":{"duration":60,"colour":"red"}}}"#)?.contains("unknown key \"colour\"") == true)
        #expect(Self.refusal(#"{"jobs":{"car":{"duration":60,"max_price":"cheap"}}}"#)?.hasPrefix("jobs.car.max_price must be") == true)
        #expect(Self.refusal(#"{"jobs":[]}"#)?.hasPrefix("jobs must be an object of jobs by name") == true)
        let many = (0...Job.maxCount).map { #""j\#($0)":{"duration":60,"repeat":"once"}"# }.joined(separator: ",")
        #expect(Self.refusal(#"{"jobs":{\#(many)}}"#) == "jobs must be at most 32, got 33 jobs")
    }

    @Test func aStoredJobThatNoLongerChecksOutIsLeftOutAtRestore() {
        let stored =
            #"{"jobs":{"ok":{"duration":60,"earliest":"01:00","deadline":"03:00"},"bad":{"duration":600,"earliest":"01:00","deadline":"03:00"}}}"#
        let restored = Settings.restore(json: stored, sources: ["energyzero"])
        #expect(restored.settings.jobs.keys.sorted() == ["ok"])
        #expect(restored.repairs.count == 1)
        #expect(restored.repairs.first?.hasPrefix("job bad: the duration (600 minutes)") == true)
    }

    @Test func aOnceJobIsAnchoredWhenItIsSetAndKeepsItsTimeWhileUnchanged() async throws {
        let clock = ManualClock(start: at("2025-12-17T10:00:00+01:00"))
        let (manager, output) = try makeManager(clock: clock, source: MemorySource())
        await manager.apply([
            request(#"{"jobs":{"car":{"duration":120,"repeat":"once"},"dish":{"duration":60,"earliest":"18:00","deadline":"22:00"}}}"#)
        ])
        #expect(await manager.settings.jobs["car"]?.since == at("2025-12-17T10:00:00+01:00"))
        #expect(await manager.settings.jobs["dish"]?.since == nil)
        await clock.advance(to: at("2025-12-17T11:00:00+01:00"))
        await manager.apply([request(#"{"jobs":{"dish":{"duration":90}}}"#)])
        #expect(await manager.settings.jobs["car"]?.since == at("2025-12-17T10:00:00+01:00"))
        await manager.apply([request(#"{"jobs":{"car":{"duration":60}}}"#)])
        #expect(await manager.settings.jobs["car"]?.since == at("2025-12-17T11:00:00+01:00"))
        #expect(output.outcomes.allSatisfy { (try? $0.result.get()) != nil })
    }
}
