import EnergyClockDomain
import EnergyClockSupport
import EnergyClockTesting
import Foundation
import Testing

/// The tz database reader against Foundation's ICU time zones, which the daemon no longer loads.
@Suite struct TimeZoneRulesTests {
    /// Zones with every kind of rule: northern and southern daylight saving, half-hour and
    /// 45-minute offsets, a 30-minute daylight shift, negative daylight saving (Dublin), a
    /// daylight change at midnight (Havana), no daylight saving at all.
    static let zones = [
        "Europe/Amsterdam", "Europe/Dublin", "Europe/London", "Europe/Oslo", "Europe/Warsaw", "Europe/Helsinki",
        "America/New_York", "America/St_Johns", "America/Havana", "Australia/Sydney", "Australia/Lord_Howe",
        "Pacific/Chatham", "Asia/Kolkata", "Asia/Tokyo", "UTC",
    ]

    @Test(arguments: zones)
    func offsetsMatchFoundationAtEveryTransitionAndDaily(_ name: String) throws {
        let rules = try #require(TimeZoneRules(identifier: name))
        let reference = try #require(TimeZone(identifier: name))
        var instant = Date(timeIntervalSince1970: 0)
        let end = Date(timeIntervalSince1970: 2_900_000_000)  // 2061, far past every file's last listed transition
        var checked = 0
        while let next = reference.nextDaylightSavingTimeTransition(after: instant), next < end {
            for delta in [-1.0, 0, 1] {
                let probe = next.addingTimeInterval(delta)
                #expect(rules.secondsFromUTC(for: probe) == reference.secondsFromGMT(for: probe), "\(name) at \(probe)")
                checked += 1
            }
            instant = next
        }
        var day = Date(timeIntervalSince1970: 0)
        while day < end {
            #expect(rules.secondsFromUTC(for: day) == reference.secondsFromGMT(for: day), "\(name) at \(day)")
            day.addTimeInterval(86_400 + 3_607)
            checked += 1
        }
        #expect(checked > 20_000)
    }

    @Test func aDayThatStartsInAGapStartsWhenTheClocksJump() throws {
        // Havana moves its clocks from 00:00 to 01:00 in March: that day starts at 01:00 local.
        let havana = try #require(LocalCalendar(identifier: "America/Havana"))
        var reference = Calendar(identifier: .gregorian)
        reference.timeZone = try #require(TimeZone(identifier: "America/Havana"))
        for year in 2015...2030 {
            for month in [3, 11] {
                for dayOfMonth in 1...15 {
                    let day = LocalDay(year: year, month: month, day: dayOfMonth)
                    let noon = try #require(reference.date(from: DateComponents(year: year, month: month, day: dayOfMonth, hour: 12)))
                    #expect(havana.start(of: day) == reference.startOfDay(for: noon), "\(day)")
                }
            }
        }
    }

    @Test func unknownAndUnsafeNamesAreRefused() {
        for name in ["Europe/Atlantis", "../../etc/passwd", "/etc/localtime", "Europe//Amsterdam", "Europe/./Amsterdam", "", "Europe"] {
            #expect(TimeZoneRules(identifier: name) == nil, "\(name)")
        }
    }

    @Test func aMachineWithoutTheTzDatabaseStillKnowsUTC() throws {
        let empty = temporaryDirectory().path
        #expect(TimeZoneRules(identifier: "Europe/Amsterdam", directory: empty) == nil)
        let utc = try #require(TimeZoneRules(identifier: "UTC", directory: empty))
        #expect(utc.secondsFromUTC(for: Date()) == 0)
    }

    @Test func aDamagedZoneFileIsRefused() throws {
        let directory = temporaryDirectory().path
        let original = try [UInt8](Data(contentsOf: URL(fileURLWithPath: "/usr/share/zoneinfo/Europe/Amsterdam")))
        try FileManager.default.createDirectory(atPath: directory + "/Europe", withIntermediateDirectories: true)
        for (name, bytes) in [("Europe/Cut", Array(original.prefix(60))), ("Europe/Text", Array("not a zone".utf8))] {
            try Data(bytes).write(to: URL(fileURLWithPath: directory + "/" + name))
            #expect(TimeZoneRules(identifier: name, directory: directory) == nil, "\(name)")
        }
    }
}
