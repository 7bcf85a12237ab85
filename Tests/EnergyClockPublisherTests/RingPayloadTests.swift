import EnergyClockDomain
import EnergyClockTesting
import Foundation
import Testing

@testable import EnergyClockPublisher

/// The WLED ring's JSON commands, byte for byte.
@Suite struct RingPayloadTests {
    func ring(_ options: String) throws -> WLEDRing { try WLEDRing("wled/ring" + options) }

    @Test func aDayOnTwentyFourLEDsReadsLikeAClockFace() throws {
        // Now is 13:30, an orange hour: full colour; every other LED at 40 %.
        #expect(
            try ring("").payload(for: ClockFixtures.normal)
                == #"{"on":true,"seg":{"id":0,"i":[0,6,"155024",6,12,"665200",12,"663C00",13,"FF9500",14,18,"663C00",18,24,"661813"]}}"#)
    }

    @Test func theNextSlotsAhead() throws {
        // LED 0 is now (13:00, orange), then 14…17 orange, 18…23 red, then tomorrow from midnight.
        #expect(
            try ring(",leds=12,mode=ahead").payload(for: ClockFixtures.normal)
                == #"{"on":true,"seg":{"id":0,"i":[0,"FF9500",1,5,"663C00",5,11,"661813",11,"155024"]}}"#)
    }

    @Test func offsetAndReverseMoveTheFace() throws {
        // Midnight at LED 6, running backwards: hour h is at LED (6 − h) mod 24.
        #expect(
            try ring(",offset=6,reverse").payload(for: ClockFixtures.normal)
                == #"{"on":true,"seg":{"id":0,"i":[0,"665200",1,7,"155024",7,13,"661813",13,17,"663C00",17,"FF9500",18,"663C00",19,24,"665200"]}}"#
        )
    }

    @Test func everyRingOnEveryDayMatchesItsGoldenFile() throws {
        var lines: [String] = []
        for (name, snapshot) in [("normal", ClockFixtures.normal), ("short", ClockFixtures.short), ("long", ClockFixtures.long)] {
            for leds in [24, 60, 12] {
                for mode in WLEDRing.Mode.allCases {
                    let ring = try ring(",leds=\(leds),mode=\(mode.rawValue)")
                    lines.append("\(name) \(leds) \(mode.rawValue) \(ring.payload(for: snapshot))")
                }
            }
        }
        let payloads = Array((lines.joined(separator: "\n") + "\n").utf8)
        #expect(try payloads == golden("ring-payloads.txt", actual: payloads), "ring-payloads.txt differs from its golden file")
    }

    @Test func daylightSavingDaysOnTheFace() throws {
        let ring = try ring("")
        // 29 March: 02:00 does not exist, so LED 2 stays dark.
        #expect(ring.payload(for: ClockFixtures.short).contains(#"2,"000000""#))
        // 25 October: both 02:00 hours share LED 2, which is green like its neighbours.
        #expect(ring.payload(for: ClockFixtures.long).hasPrefix(#"{"on":true,"seg":{"id":0,"i":[0,6,"155024""#))
    }

    @Test func anLEDCoveringSeveralSlotsShowsTheDearest() throws {
        // Twelve LEDs of two hours each; LED 6 covers 12:00–14:00 and so holds now.
        #expect(
            try ring(",leds=12").payload(for: ClockFixtures.normal)
                == #"{"on":true,"seg":{"id":0,"i":[0,3,"155024",3,6,"665200",6,"FF9500",7,9,"663C00",9,12,"661813"]}}"#)
        // Quarter-hours rise within each hour, so every LED shows the dearest quarter it covers:
        // a night of green and yellow quarters is yellow, never green.
        let quarters = ClockFixtures.snapshot(
            day: LocalDay(year: 2026, month: 1, day: 14), now: at("2026-01-14T05:10:00+01:00"), quarters: true)
        #expect(
            try ring(",leds=12").payload(for: quarters)
                == #"{"on":true,"seg":{"id":0,"i":[0,2,"665200",2,"FFCC00",3,6,"663C00",6,12,"661813"]}}"#)
    }

    @Test func badRingOptionsAreRefusedWithTheReason() throws {
        for (text, words) in [
            (",leds=0", "leds"), (",leds=x", "leds"), (",mode=week", "mode"), (",offset=-1", "offset"), (",spin", "unknown ring option"),
        ] {
            #expect("\(text)", performing: { _ = try ring(text) }, throws: { "\($0)".contains(words) })
        }
        #expect(throws: LEDTarget.ParseError.self) { _ = try LEDTarget.parse("wled-ring:") }
        let parsed = try LEDTarget.parse("wled-ring:wled/ring,leds=60,mode=ahead,offset=15,reverse")
        #expect(parsed.description == "wled-ring:wled/ring,leds=60,mode=ahead,offset=15,reverse")
    }
}
