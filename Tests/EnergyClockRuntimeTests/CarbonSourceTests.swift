import EnergyClockDomain
import EnergyClockSources
import EnergyClockTesting
import Foundation
import Testing

@testable import EnergyClockSources

/// The carbon sources' answers, recorded where a recording exists, and every way one could be wrong.
@Suite struct CarbonSourceTests {
    let issued = at("2024-01-12T06:01:00Z")

    func gb(_ text: String) throws(SourceError) -> [SeriesSlot] {
        try GBCarbonIntensitySource.parse(Array(text.utf8), issued: issued)
    }

    @Test func aNationalForecastIsReadAsForecastsInGramsWithTheOperatorsIndex() throws {
        let slots = try GBCarbonIntensitySource.parse(fixture("carbon/gb_national_2024-01-12T0601Z_first8.json"), issued: issued)
        #expect(slots.count == 8)
        #expect(slots.first?.start == at("2024-01-12T06:00:00Z") && slots.last?.end == at("2024-01-12T10:00:00Z"))
        #expect(slots.first?.value == 293 && slots.last?.value == 309)
        #expect(slots.allSatisfy { $0.quantity == .carbonIntensity && $0.duration == 1800 && $0.level == .veryExpensive })
        #expect(slots.allSatisfy { $0.provenance == .forecast("gb-carbon-intensity", issued: issued) })
    }

    @Test func aPastHalfHourIsTheOperatorsEstimateOfWhatWasEmitted() throws {
        let slots = try GBCarbonIntensitySource.parse(fixture("carbon/gb_national_2017-10-01_with-actual.json"), issued: issued)
        // 49 half hours, each with an `actual`: the values are those, not the forecasts (145 → 143).
        #expect(slots.count == 49)
        #expect(slots.first?.value == 143 && slots.last?.value == 184)
        #expect(slots.map(\.value).reduce(0, +) == 6975)
        #expect(slots.allSatisfy { $0.provenance == .official("gb-carbon-intensity") })
        #expect(slots.first?.level == .cheap)
        #expect(Set(slots.compactMap(\.level)) == [.veryCheap, .cheap, .normal])
    }

    @Test func aRegionalAnswerHoldsTheRegionsHalfHoursOneLevelDown() throws {
        let bournemouth = try GBCarbonIntensitySource.parse(fixture("carbon/gb_regional_BH1_2020-05-19T2000Z.json"), issued: issued)
        #expect(bournemouth.count == 48)
        #expect(bournemouth.first?.value == 307 && bournemouth.first?.level == .expensive)
        #expect(bournemouth.map(\.value).reduce(0, +) == 11949)
        #expect(bournemouth.filter { $0.level == .expensive }.count == 26 && bournemouth.filter { $0.level == .normal }.count == 22)
        let bristol = try GBCarbonIntensitySource.parse(fixture("carbon/gb_regional_BS7_2022-12-31T2330Z.json"), issued: issued)
        #expect(bristol.count == 5 && bristol.first?.value == 152 && bristol.last?.end == at("2023-01-01T02:00:00Z"))
        // The current half hour's form: `data` a list holding the one region.
        let listed = try gb(
            #"{"data":[{"regionid":13,"shortname":"London","data":[{"from":"2026-01-01T00:00Z","to":"2026-01-01T00:30Z","intensity":{"forecast":88,"index":"low"}}]}]}"#
        )
        #expect(listed.map(\.value) == [88] && listed.first?.level == .cheap)
    }

    @Test func anErrorAnswerSaysWhatTheOperatorSaid() {
        // The error envelope of the API's documentation, with a message its users have recorded.
        let refused =
            #"{"error":{"code":"400 Bad Request","message":"The date range you have specified is greater than 31 days. Please select a smaller date range."}}"#
        #expect(
            GBCarbonIntensitySource.errorMessage(Array(refused.utf8))
                == "The date range you have specified is greater than 31 days. Please select a smaller date range.")
        #expect(GBCarbonIntensitySource.errorMessage(Array("<html>".utf8)) == "")
        #expect(GBCarbonIntensitySource.errorMessage(Array(#"{"error":{"message":"\u0000\n"}}"#.utf8)) == "\\u{0}\\n")
    }

    @Test(arguments: [
        ("", "empty response body"),
        ("[]", "not a JSON object"),
        (#"{"data":null}"#, "no data"),
        (#"{"error":{"code":"500","message":"x"}}"#, "no data"),
        (#"{"data":{"regionid":1}}"#, "data.data is not a list"),
        (#"{"data":[{"regionid":1,"data":[]},{"regionid":2,"data":[]}]}"#, "no single region"),
        (#"{"data":[{"from":"2026-01-01T00:00Z","to":"2026-01-01T00:30Z"}]}"#, "has no intensity"),
        (#"{"data":[{"from":"yesterday","to":"2026-01-01T00:30Z","intensity":{"forecast":1}}]}"#, "from is not a time"),
        (#"{"data":[{"from":"2026-01-01T00:00","to":"2026-01-01T00:30Z","intensity":{"forecast":1}}]}"#, "from is not a time"),
        (#"{"data":[{"from":"2026-01-01T00:00Z","to":"2026-01-01T00:30Z","intensity":{"forecast":-1}}]}"#, "not an intensity"),
        (#"{"data":[{"from":"2026-01-01T00:00Z","to":"2026-01-01T00:30Z","intensity":{"forecast":5001}}]}"#, "not an intensity"),
        (#"{"data":[{"from":"2026-01-01T00:00Z","to":"2026-01-01T00:30Z","intensity":{"forecast":1e400}}]}"#, "not an intensity"),
        (#"{"data":[{"from":"2026-01-01T00:00Z","to":"2026-01-01T00:30Z","intensity":{"forecast":"12"}}]}"#, "not an intensity"),
        (#"{"data":[{"from":"2026-01-01T00:00Z","to":"2026-01-01T00:30Z","intensity":{"forecast":1,"index":"dirty"}}]}"#, "none of"),
        (#"{"data":[{"from":"2026-01-01T00:30Z","to":"2026-01-01T00:00Z","intensity":{"forecast":1}}]}"#, "ends before it starts"),
        (
            #"{"data":[{"from":"2026-01-01T00:00Z","to":"2026-01-01T01:00Z","intensity":{"forecast":1}},{"from":"2026-01-01T00:30Z","to":"2026-01-01T01:00Z","intensity":{"forecast":1}}]}"#,
            "overlaps"
        ),
        (#"{"data":[{"from":"2200-01-01T00:00Z","to":"2200-01-01T00:30Z","intensity":{"forecast":1}}]}"#, "outside"),
    ])
    func everyHostileAnswerIsRefusedWithItsReason(body: String, reason: String) {
        #expect {
            try gb(body)
        } throws: { error in
            "\(error)".contains("gb-carbon-intensity") && "\(error)".contains(reason)
        }
    }

    @Test func aHalfHourWithNeitherFigureIsLeftOut() throws {
        let slots = try gb(
            #"{"data":[{"from":"2026-01-01T00:00Z","to":"2026-01-01T00:30Z","intensity":{"forecast":null,"actual":null,"index":"low"}},{"from":"2026-01-01T00:30Z","to":"2026-01-01T01:00Z","intensity":{"forecast":0}}]}"#
        )
        #expect(slots.map(\.value) == [0] && slots.first?.level == nil)
    }

    @Test func anAreaIsTheNationARegionOrAnOutwardPostcode() {
        let source = GBCarbonIntensitySource()
        for area in ["", "GB", "gb", "1", "17", "RG41", "sw1", "SW1A", "TF8", "E1"] { #expect(source.areaProblem(area) == nil, "\(area)") }
        #expect(source.areaProblem("0")?.contains("not one of 1 to 17") == true)
        #expect(source.areaProblem("18")?.contains("not one of 1 to 17") == true)
        #expect(source.areaProblem("BT1")?.contains("Northern Ireland") == true)
        #expect(source.areaProblem("JE2")?.contains("Jersey") == true)
        for area in ["RG41 1AA", "RG", "41", "123", "R-41", "ABC1", "RG411", "../x", "RG4\u{0}"] {
            #expect(source.areaProblem(area) != nil, "\(area)")
        }
        let now = at("2026-12-04T10:47:31Z")
        #expect(
            source.url(area: .postcode("RG41"), from: now).absoluteString
                == "https://api.carbonintensity.org.uk/regional/intensity/2026-12-04T10:47Z/2026-12-07T10:47Z/postcode/RG41")
        #expect(
            source.url(area: .nation, from: now).absoluteString
                == "https://api.carbonintensity.org.uk/intensity/2026-12-04T10:47Z/2026-12-07T10:47Z")
        #expect(source.url(area: .region(13), from: now).path.hasSuffix("/regionid/13"))
    }

    func energinet(_ text: String, area: String = "DK1") throws(SourceError) -> [SeriesSlot] {
        try EnerginetCO2Source.parse(Array(text.utf8), area: area, issued: issued)
    }

    @Test func energinetsPrognosisIsReadAsFiveMinuteForecastsInUTC() throws {
        let slots = try EnerginetCO2Source.parse(fixture("carbon/energinet_DK1_constructed.json"), area: "DK1", issued: issued)
        #expect(slots.count == 12)
        // `Minutes5UTC` is UTC without a zone; `Minutes5DK` (an hour later in March) is not read.
        #expect(slots.first?.start == at("2026-03-02T11:00:00Z") && slots.last?.end == at("2026-03-02T12:00:00Z"))
        #expect(slots.allSatisfy { $0.duration == 300 && $0.quantity == .carbonIntensity && $0.level == nil })
        #expect(slots.allSatisfy { $0.provenance == .forecast("energinet-co2", issued: issued) })
        #expect(slots.map(\.value).reduce(0, +) == 1205)
    }

    @Test(arguments: [
        ("", "empty response body"),
        (#"{"records":{}}"#, "no records"),
        (#"{"records":[1]}"#, "is not an object"),
        (#"{"records":[{"Minutes5UTC":"2026-03-02T11:00:00","PriceArea":"DK2","CO2Emission":90}]}"#, "PriceArea is not DK1"),
        (#"{"records":[{"Minutes5UTC":"2026-03-02T11:00:00","CO2Emission":90}]}"#, "PriceArea is not DK1"),
        (#"{"records":[{"Minutes5UTC":"11:00","PriceArea":"DK1","CO2Emission":90}]}"#, "Minutes5UTC is not a time"),
        (#"{"records":[{"Minutes5UTC":"2026-03-02T11:00:00","PriceArea":"DK1","CO2Emission":-3}]}"#, "not an intensity"),
        (#"{"records":[{"Minutes5UTC":"2026-03-02T11:00:00","PriceArea":"DK1","CO2Emission":"90"}]}"#, "not an intensity"),
        (#"{"records":[{"Minutes5UTC":"2026-03-02T11:00:00","PriceArea":"DK1","CO2Emission":1e999}]}"#, "not an intensity"),
        (
            #"{"records":[{"Minutes5UTC":"2026-03-02T11:05:00","PriceArea":"DK1","CO2Emission":1},{"Minutes5UTC":"2026-03-02T11:00:00","PriceArea":"DK1","CO2Emission":1}]}"#,
            "out of order"
        ),
        (
            #"{"records":[{"Minutes5UTC":"2026-03-02T11:00:00","PriceArea":"DK1","CO2Emission":1},{"Minutes5UTC":"2026-03-02T11:00:00","PriceArea":"DK1","CO2Emission":2}]}"#,
            "overlaps"
        ),
    ])
    func everyHostileEnerginetAnswerIsRefusedWithItsReason(body: String, reason: String) {
        #expect {
            try energinet(body)
        } throws: { error in
            "\(error)".contains("energinet-co2") && "\(error)".contains(reason)
        }
    }

    @Test func energinetIsAskedForOneAreaOldestFirst() throws {
        let source = EnerginetCO2Source()
        #expect(source.areaProblem("DK1") == nil && source.areaProblem("DK2") == nil)
        #expect(source.areaProblem("DK") != nil && source.areaProblem("dk1") != nil && source.areaProblem("SE3") != nil)
        let start = at("2026-12-04T10:47:31Z")
        let query = try #require(source.url(area: "DK2", from: start).query)
        let decoded = query.removingPercentEncoding ?? ""
        #expect(decoded.contains("start=2026-12-04T10:47") && decoded.contains("end=2026-12-07T10:47"))
        #expect(query.contains(#"filter={"PriceArea":["DK2"]}"#) || query.contains("%22DK2%22"))
        #expect(source.url(area: "DK2", from: start).path == "/dataset/CO2EmisProg")
        #expect(try energinet(#"{"records":[{"Minutes5UTC":"2026-03-02T11:00:00","PriceArea":"DK1","CO2Emission":null}]}"#).isEmpty)
    }
}
