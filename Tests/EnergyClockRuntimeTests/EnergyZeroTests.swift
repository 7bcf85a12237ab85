import EnergyClockDomain
import EnergyClockSources
import EnergyClockTesting
import Foundation
import Testing

@Suite struct EnergyZeroTests {
    /// The `base` series as (start, value) read independently with JSONSerialization.
    func baseSeries(_ name: String) throws -> [(String, Double)] {
        let json = try JSONSerialization.jsonObject(with: Data(fixture(name))) as! [String: Any]
        return (json["base"] as! [[String: Any]]).map { item in
            (item["start"] as! String, Double((item["price"] as! [String: String])["value"]!)!)
        }
    }

    @Test func quarterFixtureParsesEveryBaseSlot() throws {
        let slots = try EnergyZeroSource.parse(fixture("electricity_quarter_response.json"))
        let expected = try baseSeries("electricity_quarter_response.json")
        #expect(slots.count == 288)
        #expect(slots.count == expected.count)
        for (slot, (start, value)) in zip(slots, expected) {
            #expect(slot.start == ISO8601.parse(start))
            #expect(slot.value == value)
            #expect(slot.duration == 900)
        }
        #expect(slots.first?.start == at("2025-12-15T23:00:00Z"))
        #expect(slots.last?.end == at("2025-12-18T23:00:00Z"))
        // Three whole local days, 96 quarters each.
        for day in 16...18 {
            #expect(slots.covers(amsterdam.interval(of: LocalDay(year: 2025, month: 12, day: day))))
        }
    }

    @Test func hourFixtureKeepsTrailingZeroPrices() throws {
        let slots = try EnergyZeroSource.parse(fixture("electricity_hour_response.json"))
        let expected = try baseSeries("electricity_hour_response.json")
        #expect(slots.count == 72)
        #expect(slots.map(\.value) == expected.map(\.1))
        #expect(slots.allSatisfy { $0.duration == 3600 })
    }

    @Test func hourlyMeanOfTheQuarterFixture() throws {
        let slots = try EnergyZeroSource.parse(fixture("electricity_quarter_response.json"))
        let expected = try baseSeries("electricity_quarter_response.json").map(\.1)
        let hours = slots.at(.hour, in: amsterdam)
        #expect(hours.count == 72)
        for (i, hour) in hours.enumerated() {
            let mean = expected[(i * 4)..<(i * 4 + 4)].reduce(0, +) / 4
            #expect(abs(hour.value - mean) < 1e-12)
        }
    }

    @Test func errorBodyIsMalformedNotEmpty() throws {
        #expect(throws: SourceError(source: "energyzero", problem: .malformed("missing base"))) {
            try EnergyZeroSource.parse(fixture("error_response.json"))
        }
    }

    @Test func emptyListsMeanNoData() throws {
        let body = #"{"interval": 2, "range": {}, "base": [], "base_with_vat": [], "all_in": [], "all_in_with_vat": []}"#
        #expect(try EnergyZeroSource.parse(Array(body.utf8)).isEmpty)
    }

    @Test func garbageIsRejectedWithAReason() {
        let cases: [(String, SourceError.Problem)] = [
            ("", .emptyBody),
            ("{not json", .malformed("not valid JSON")),
            (
                #"{"base":[{"start":"2025-12-15T23:00:00Z","end":"2025-12-15T23:15:00Z","price":{"value":"abc"}}]}"#,
                .malformed("base[0].price.value is not a number")
            ),
            (
                #"{"base":[{"start":"later","end":"2025-12-15T23:15:00Z","price":{"value":"0.1"}}]}"#,
                .malformed("base[0] has an unreadable time")
            ),
            (
                #"{"base":[{"start":"2025-12-15T23:00:00Z","end":"2025-12-15T23:15:00Z","price":{"value":"12"}}]}"#,
                .invalidSlots(.outOfRange(value: 12, at: at("2025-12-15T23:00:00Z"), limit: 10, quantity: .price(.eur)))
            ),
            (
                // Price strings are plain decimals: not `nan`, not hexadecimal.
                #"{"base":[{"start":"2025-12-15T23:00:00Z","end":"2025-12-15T23:15:00Z","price":{"value":"nan"}}]}"#,
                .malformed("base[0].price.value is not a number")
            ),
            (
                #"{"base":[{"start":"2025-12-15T23:00:00Z","end":"2025-12-15T23:15:00Z","price":{"value":"0x1p3"}}]}"#,
                .malformed("base[0].price.value is not a number")
            ),
            (
                #"{"base":[{"start":"2025-12-15T23:00:00Z","end":"2025-12-15T23:15:00+99:99","price":{"value":"0.1"}}]}"#,
                .malformed("base[0] has an unreadable time")
            ),
        ]
        for (body, problem) in cases {
            #expect(throws: SourceError(source: "energyzero", problem: problem), "\(body)") {
                try EnergyZeroSource.parse(Array(body.utf8))
            }
        }
    }

    @Test func requestUsesDayMonthYearAndQuarters() {
        let source = EnergyZeroSource(baseURL: URL(string: "http://127.0.0.1:9/base")!)
        #expect(
            source.url(for: LocalDay(year: 2025, month: 12, day: 7)).absoluteString
                == "http://127.0.0.1:9/base/public/v1/prices?energyType=ENERGY_TYPE_ELECTRICITY&date=07-12-2025&interval=INTERVAL_QUARTER")
    }
}
