import EnergyClockDomain
import EnergyClockStore
import EnergyClockTesting
import Foundation
import Testing

@Suite struct StoreTests {
    @Test func savesReplacesAndTrimsPerSource() throws {
        let store = try PriceStore(directory: temporaryDirectory())
        let start = at("2026-01-01T00:00:00Z")
        let quarters = slots(from: start, count: 8, minutes: 15) { Double($0) / 10 }
        try store.save(quarters, source: "a", fetchedAt: at("2026-01-01T12:00:00Z"))
        try store.save([SeriesSlot(start: start, end: start.addingTimeInterval(3600), value: 0.5)], source: "b", fetchedAt: nil)
        let all = DateInterval(start: start, end: start.addingTimeInterval(86400))
        #expect(try store.slots(source: "a", overlapping: all) == quarters.stamped(.official("a")))
        #expect(try store.slots(source: "b", overlapping: all).count == 1)
        #expect(try store.lastSuccess(source: "a") == at("2026-01-01T12:00:00Z"))
        #expect(try store.lastSuccess(source: "b") == nil)

        // A new answer for the first hour replaces the four quarters it overlaps.
        let hour = SeriesSlot(start: start, end: start.addingTimeInterval(3600), value: 0.7)
        try store.save([hour], source: "a", fetchedAt: at("2026-01-01T13:00:00Z"))
        #expect(try store.slots(source: "a", overlapping: all) == ([hour] + quarters[4...]).stamped(.official("a")))

        try store.trim(before: start.addingTimeInterval(3600))
        #expect(try store.slots(source: "a", overlapping: all) == Array(quarters[4...]).stamped(.official("a")))
        #expect(try store.slots(source: "b", overlapping: all).isEmpty)
    }

    @Test func aCarbonSourcesValuesReadBackAsItsEstimateBeforeTheFetchAndItsForecastAfter() throws {
        let store = try PriceStore(directory: temporaryDirectory())
        let start = at("2026-12-05T09:00:00Z")
        let fetched = at("2026-12-05T10:10:00Z")
        let halves = (0..<4).map { i in
            SeriesSlot(
                start: start.addingTimeInterval(Double(i) * 1800), end: start.addingTimeInterval(Double(i + 1) * 1800),
                value: 200 + Double(i), quantity: .carbonIntensity, level: .normal)
        }
        let key = "carbon/gb-carbon-intensity/RG41"
        try store.save(halves, source: key, fetchedAt: fetched)
        let read = try store.slots(source: key, overlapping: DateInterval(start: start, duration: 7200))
        #expect(read.map(\.value) == [200, 201, 202, 203] && read.allSatisfy { $0.quantity == .carbonIntensity && $0.level == .normal })
        // 09:00–10:00 had passed at the fetch; 10:00–10:30 had not ended, so it is still the forecast.
        #expect(
            read.map(\.provenance) == [
                .official("gb-carbon-intensity"), .official("gb-carbon-intensity"),
                .forecast("gb-carbon-intensity", issued: fetched), .forecast("gb-carbon-intensity", issued: fetched),
            ])
    }

    @Test func unwritableDirectoryGivesAClearError() {
        #expect {
            _ = try PriceStore(directory: URL(fileURLWithPath: "/proc/energyclock-cannot-exist"))
        } throws: { error in
            "\(error)".contains("store: could not create state directory /proc/energyclock-cannot-exist")
        }
    }
}
