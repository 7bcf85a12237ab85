import EnergyClockDomain
import EnergyClockTesting
import Foundation
import Testing

@Suite struct StatsTests {
    func priced(_ prices: [Double], from start: Date, minutes: Int = 60) -> [PricedSlot] {
        prices.enumerated().map { i, price in
            let s = start.addingTimeInterval(Double(i * minutes * 60))
            return PricedSlot(
                slot: SeriesSlot(start: s, end: s.addingTimeInterval(Double(minutes * 60)), value: price),
                components: PriceComponents(market: price, markup: 0, surcharge: 0, gridFee: 0, vat: 0), band: nil)
        }
    }

    @Test func dayFigures() throws {
        let slots = priced([0.30, 0.10, 0.20, 0.10, 0.50], from: at("2026-01-15T00:00:00+01:00"))
        let stats = try #require(DayStats.of(slots))
        #expect(stats.min == 0.10 && stats.max == 0.50 && stats.count == 5)
        #expect(abs(stats.mean - 0.24) < 1e-12)
        #expect(stats.median == 0.20)
        #expect(stats.cheapest.slot.start == at("2026-01-15T01:00:00+01:00"))  // The earliest of the two 0.10s.
        #expect(stats.mostExpensive.slot.start == at("2026-01-15T04:00:00+01:00"))
        #expect(stats.rank(of: 0.20, in: slots) == 2)
        #expect(stats.rank(of: 0.10, in: slots) == 0)
        #expect(abs(stats.quantile(of: 0.20) - 0.25) < 1e-12)
        #expect(DayStats.of([]) == nil)
        #expect(DayStats.of(priced([0.2, 0.2], from: at("2026-01-15T00:00:00Z")))?.quantile(of: 0.2) == 0)
    }

    @Test func cheapestWindowOfHourlySlots() throws {
        // 0.5 0.4 0.1 0.2 0.9 0.05 0.05 — two hours: 0.05+0.05 at 05:00 beats 0.1+0.2.
        let slots = priced([0.5, 0.4, 0.1, 0.2, 0.9, 0.05, 0.05], from: at("2026-01-15T00:00:00Z"))
        let two = try #require(PriceWindow.cheapest(hours: 2, in: slots, from: at("2026-01-15T00:10:00Z")))
        #expect(two.start == at("2026-01-15T05:00:00Z") && two.end == at("2026-01-15T07:00:00Z"))
        #expect(abs(two.meanPrice - 0.05) < 1e-12)
        let three = try #require(PriceWindow.cheapest(hours: 3, in: slots, from: at("2026-01-15T00:10:00Z")))
        #expect(three.start == at("2026-01-15T01:00:00Z"))  // 0.4+0.1+0.2 = 0.7 < 0.9+0.05+0.05 = 1.0
        #expect(PriceWindow.cheapest(hours: 8, in: slots, from: at("2026-01-15T00:10:00Z")) == nil)
        // Later in the day the past is out of reach; the current slot still counts.
        #expect(PriceWindow.cheapest(hours: 1, in: slots, from: at("2026-01-15T06:30:00Z"))?.start == at("2026-01-15T06:00:00Z"))
    }

    @Test func windowsNeverSpanAGap() throws {
        var slots = priced([0.1, 0.1, 5, 0.1], from: at("2026-01-15T00:00:00Z"))
        slots.remove(at: 2)  // 02:00–03:00 unknown.
        let two = try #require(PriceWindow.cheapest(hours: 2, in: slots, from: at("2026-01-15T00:00:00Z")))
        #expect(two.start == at("2026-01-15T00:00:00Z"))
        #expect(PriceWindow.cheapest(hours: 3, in: slots, from: at("2026-01-15T00:00:00Z")) == nil)
    }

    @Test func cheapestWindowMatchesTryingEveryStartAndEnd() {
        // Slots of 15, 30 and 60 minutes with gaps, against the plain search over every pair.
        var random = SeededRandom(seed: 20)
        let origin = at("2026-01-15T00:00:00Z")
        for _ in 0..<300 {
            var slots: [PricedSlot] = []
            var t = origin
            for _ in 0..<Int.random(in: 1...40, using: &random) {
                if Int.random(in: 0..<8, using: &random) == 0 { t.addTimeInterval(900) }
                let minutes = [15, 30, 60].randomElement(using: &random)!
                let price = Double(Int.random(in: -5...20, using: &random)) / 100
                slots += priced([price], from: t, minutes: minutes)
                t = slots.last!.slot.end
            }
            let from = origin.addingTimeInterval(Double(Int.random(in: 0...8, using: &random)) * 900)
            for hours in 1...4 {
                let length = Double(hours) * 3600
                var expected: (start: Date, end: Date, meanPrice: Double)?
                let first = slots.firstIndex { $0.slot.end > from } ?? slots.endIndex
                for i in first..<slots.endIndex {
                    for j in i..<slots.endIndex where slots[j].slot.end.timeIntervalSince(slots[i].slot.start) == length {
                        guard (i..<j).allSatisfy({ slots[$0].slot.end == slots[$0 + 1].slot.start }) else { continue }
                        let mean = slots[i...j].reduce(0) { $0 + $1.price * $1.slot.duration } / length
                        if expected == nil || mean < expected!.meanPrice - 1e-12 {
                            expected = (slots[i].slot.start, slots[j].slot.end, mean)
                        }
                    }
                }
                let found = PriceWindow.cheapest(hours: hours, in: slots, from: from)
                #expect(found?.start == expected?.start && found?.end == expected?.end)
                if let found, let expected { #expect(abs(found.meanPrice - expected.meanPrice) < 1e-9) }
            }
        }
    }

    @Test func quarterSlotsMakeWindowsOfFourTimesNSlots() throws {
        // Quarters: a cheap 15 minutes alone must not win a one-hour window.
        let prices = [0.3, 0.3, 0.3, 0.3, 0.0, 0.9, 0.9, 0.9, 0.2, 0.2, 0.2, 0.2]
        let slots = priced(prices, from: at("2026-01-15T00:00:00Z"), minutes: 15)
        let hour = try #require(PriceWindow.cheapest(hours: 1, in: slots, from: at("2026-01-15T00:00:00Z")))
        #expect(hour.start == at("2026-01-15T02:00:00Z"))
        #expect(abs(hour.meanPrice - 0.2) < 1e-12)
        #expect(hour.end.timeIntervalSince(hour.start) == 3600)
    }

    @Test func fallBackDayWindowCrossesTheRepeatedHour() throws {
        let day = amsterdam.interval(of: LocalDay(year: 2026, month: 10, day: 25))
        // 25 hours; the cheap pair is the two 02:00 hours (00:00Z and 01:00Z).
        let prices = (0..<25).map { $0 == 2 || $0 == 3 ? 0.01 : 0.3 }
        let slots = priced(prices, from: day.start)
        let two = try #require(PriceWindow.cheapest(hours: 2, in: slots, from: day.start))
        #expect(two.start == at("2026-10-25T00:00:00Z") && two.end == at("2026-10-25T02:00:00Z"))
        #expect(ISO8601.local(two.start, in: amsterdam) == "2026-10-25T02:00:00+02:00")
        #expect(ISO8601.local(two.end, in: amsterdam) == "2026-10-25T03:00:00+01:00")
    }
}
