import EnergyClockDomain
import EnergyClockTesting
import Foundation
import Testing

/// A forecast held as figures, and read back as the slots it was made from.
@Suite struct CompactSeriesTests {
    let issued = at("2026-03-02T06:00:00Z")

    func week() -> [SeriesSlot] {
        slots(from: at("2026-03-02T00:00:00Z"), count: 672, minutes: 15) { Double($0 % 97) / 1000 - 0.02 }
            .stamped(.forecast("epex-predictor", issued: issued))
    }

    @Test func slotsThatShareAllButTheirFiguresReadBackAsTheyWere() {
        let slots = week()
        let series = CompactSeries(slots)
        #expect(Array(series) == slots)
        #expect(series.provenance == .forecast("epex-predictor", issued: issued))
        #expect(series.firstIndex(startingAtOrAfter: slots[100].start) == 100)
        #expect(series.firstIndex(startingAtOrAfter: slots[100].start.addingTimeInterval(1)) == 101)
        #expect(series.firstIndex(startingAtOrAfter: .distantFuture) == 672)
        #expect(series.firstIndex(startingAtOrAfter: .distantPast) == 0)
        #expect(series == CompactSeries(week()))
        var dearer = week()
        dearer[671].value += 0.001
        #expect(series != CompactSeries(dearer))
        #expect(CompactSeries([SeriesSlot]()).isEmpty && CompactSeries([SeriesSlot]()).provenance == nil)
    }

    @Test func slotsOfMixedProvenanceOrQuantityAreHeldWhole() {
        var slots = week()
        slots[5].provenance = .forecast("epex-predictor", issued: issued.addingTimeInterval(3600))
        slots[9].quantity = .price(Currency("SEK")!)
        slots[11].level = .cheap
        let series = CompactSeries(slots)
        #expect(Array(series) == slots)
        #expect(series.start(at: 9) == slots[9].start)
    }
}
