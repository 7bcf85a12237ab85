import EnergyClockTesting
import Foundation
import Testing

@testable import EnergyClockDomain
@testable import EnergyClockSources
@testable import EnergyClockSupport

@Suite struct EntsoeTests {
    let brussels = LocalCalendar(identifier: "Europe/Brussels")!

    /// `price.amount` of each `position` in the n-th Period of a fixture, read with a plain text scan.
    func points(_ name: String, period: Int) throws -> [Int: Double] {
        let text = String(decoding: fixture(name), as: UTF8.self)
        let body = text.components(separatedBy: "<Period>")[period + 1].components(separatedBy: "</Period>")[0]
        var result: [Int: Double] = [:]
        for chunk in body.components(separatedBy: "<Point>").dropFirst() {
            let position = Int(chunk.between("<position>", "</position>"))!
            result[position] = Double(chunk.between("<price.amount>", "</price.amount>"))!
        }
        return result
    }

    @Test func fullHourlyDay() throws {
        let slots = try EntsoeSource.parse(fixture("BE_60M.xml"))
        let expected = try points("BE_60M.xml", period: 0)
        #expect(slots.count == 24)
        #expect(slots.allSatisfy { $0.duration == 3600 })
        #expect(slots.first?.start == at("2024-10-07T22:00:00Z"))
        for (i, slot) in slots.enumerated() { #expect(abs(slot.value - expected[i + 1]! / 1000) < 1e-12) }
        #expect(slots.covers(brussels.interval(of: LocalDay(year: 2024, month: 10, day: 8))))
    }

    @Test func exactlyFourQuarters() throws {
        let slots = try EntsoeSource.parse(fixture("BE_15M_exact4.xml"))
        #expect(slots.map(\.value) == [55.35, 44.22, 40.32, 31.86].map { $0 / 1000 })
        #expect(slots.map(\.duration) == [900, 900, 900, 900])
    }

    @Test func curveA03RepeatsOmittedPositionsToTheEndOfEachPeriod() throws {
        let slots = try EntsoeSource.parse(fixture("BE_60M_15M_mix.xml"))
        // Two PT15M days of 96 quarters written at hourly steps, then a PT60M day of 24 hours.
        #expect(slots.count == 96 + 96 + 24)
        let first = try points("BE_60M_15M_mix.xml", period: 0)
        #expect(first[57] == nil)  // The gap in the first day …
        for position in 53...60 {  // … is filled from position 53.
            #expect(abs(slots[position - 1].value - first[53]! / 1000) < 1e-12)
        }
        for position in 1...4 { #expect(abs(slots[position - 1].value - first[1]! / 1000) < 1e-12) }
        // The last quarter of the first day repeats position 93 up to the Period's end.
        #expect(abs(slots[95].value - first[93]! / 1000) < 1e-12)
        #expect(slots[95].end == at("2024-10-06T22:00:00Z"))
        #expect(slots[192].duration == 3600 && slots[191].duration == 900)
        // Hourly means of a filled day equal the hourly values it was written from.
        let hours = Array(slots[0..<96]).at(.hour, in: brussels)
        #expect(hours.count == 24)
        #expect(abs(hours[0].value - first[1]! / 1000) < 1e-12)
    }

    @Test func outOfOrderPositionsAndPositionsBeyondThePeriod() throws {
        let slots = try EntsoeSource.parse(fixture("BE_15M_avg.xml"))
        // 22:00–03:00 at 15 min is 20 quarters; 03:00–05:00 at 60 min is 2 hours; position 3 there is outside.
        #expect(slots.count == 22)
        let expected =
            [55.35, 40.32, 31.86, 28.71, 44.22, 44.22, 44.22, 44.22, 44.22, 44.22] + Array(repeating: 28.37, count: 10) + [64.98, 64.98]
        #expect(slots.map(\.value) == expected.map { $0 / 1000 })
        #expect(slots.last?.end == at("2024-10-06T05:00:00Z"))
    }

    @Test func acknowledgementWithReason999MeansNoDataYet() throws {
        let ack = """
            <?xml version="1.0" encoding="UTF-8"?>
            <Acknowledgement_MarketDocument xmlns="urn:iec62325.351:tc57wg16:451-1:acknowledgementdocument:7:0">
              <mRID>1</mRID><createdDateTime>2026-11-29T10:00:00Z</createdDateTime>
              <Reason><code>999</code><text>No matching data found for Data item Day-ahead Prices</text></Reason>
            </Acknowledgement_MarketDocument>
            """
        #expect(try EntsoeSource.parse(Array(ack.utf8), httpStatus: 200).isEmpty)
        #expect(try EntsoeSource.parse(Array(ack.utf8), httpStatus: 400).isEmpty)
        let refused = ack.replacingOccurrences(of: "<code>999</code>", with: "<code>Z02</code>")
        #expect(throws: SourceError.self) { try EntsoeSource.parse(Array(refused.utf8), httpStatus: 400) }
    }

    @Test func doubleSeriesKeepsClassificationSequencePositionOne() throws {
        // DE-LU publishes the same day twice; only the series at position 1 counts.
        func series(_ position: Int, _ price: String) -> String {
            """
            <TimeSeries><mRID>\(position)</mRID><classificationSequence_AttributeInstanceComponent.position>\(position)</classificationSequence_AttributeInstanceComponent.position>
            <currency_Unit.name>EUR</currency_Unit.name><price_Measure_Unit.name>MWH</price_Measure_Unit.name><curveType>A03</curveType>
            <Period><timeInterval><start>2026-01-14T23:00Z</start><end>2026-01-15T23:00Z</end></timeInterval><resolution>PT60M</resolution>
            <Point><position>1</position><price.amount>\(price)</price.amount></Point></Period></TimeSeries>
            """
        }
        let document =
            "<Publication_MarketDocument xmlns=\"urn:iec62325.351:tc57wg16:451-3:publicationdocument:7:3\">"
            + series(2, "999") + series(1, "87.5") + "</Publication_MarketDocument>"
        let slots = try EntsoeSource.parse(Array(document.utf8))
        #expect(slots.count == 24)
        #expect(slots.allSatisfy { $0.value == 0.0875 })
    }

    @Test func daylightSavingDaysAtQuarterAndHourResolution() throws {
        let amsterdam = LocalCalendar(identifier: "Europe/Amsterdam")!
        func document(_ day: LocalDay, _ resolution: String, step: Double) -> [UInt8] {
            let span = amsterdam.interval(of: day)
            let count = Int(span.duration / step)
            let points = (1...count).map { "<Point><position>\($0)</position><price.amount>\($0)</price.amount></Point>" }.joined()
            let start = String(ISO8601.utc(span.start).prefix(16)) + "Z"
            let end = String(ISO8601.utc(span.end).prefix(16)) + "Z"
            return Array(
                """
                <Publication_MarketDocument xmlns="urn:iec62325.351:tc57wg16:451-3:publicationdocument:7:3"><TimeSeries>
                <currency_Unit.name>EUR</currency_Unit.name><price_Measure_Unit.name>MWH</price_Measure_Unit.name><curveType>A01</curveType>
                <Period><timeInterval><start>\(start)</start><end>\(end)</end></timeInterval><resolution>\(resolution)</resolution>\(points)</Period>
                </TimeSeries></Publication_MarketDocument>
                """.utf8)
        }
        let fallBack = LocalDay(year: 2026, month: 10, day: 25)
        let springForward = LocalDay(year: 2026, month: 3, day: 29)
        #expect(try EntsoeSource.parse(document(fallBack, "PT15M", step: 900)).count == 100)
        #expect(try EntsoeSource.parse(document(fallBack, "PT15M", step: 900)).at(.hour, in: amsterdam).count == 25)
        #expect(try EntsoeSource.parse(document(fallBack, "PT60M", step: 3600)).count == 25)
        #expect(try EntsoeSource.parse(document(springForward, "PT15M", step: 900)).count == 92)
        #expect(try EntsoeSource.parse(document(springForward, "PT60M", step: 3600)).count == 23)
    }

    @Test func garbageIsRejectedWithAReason() {
        #expect(throws: SourceError(source: "entsoe", problem: .emptyBody)) { try EntsoeSource.parse([]) }
        #expect { try EntsoeSource.parse(Array("<html><body>busy</body></html>".utf8)) } throws: { error in
            "\(error)".contains("unexpected document <html>")
        }
        #expect { try EntsoeSource.parse(Array("<Publication_MarketDocument><TimeSeries>".utf8)) } throws: { error in
            "\(error)".hasPrefix("entsoe: unreadable response: not well-formed XML")
        }
        let nan = String(decoding: fixture("BE_15M_exact4.xml"), as: UTF8.self).replacingOccurrences(of: "55.35", with: "NaN")
        #expect { try EntsoeSource.parse(Array(nan.utf8)) } throws: { error in
            "\(error)".contains("not a finite") || "\(error)".contains("not a number")
        }
    }

    @Test func requestIsInUTCAndNeverLeaksTheToken() {
        let source = EntsoeSource(baseURL: URL(string: "http://127.0.0.1:9")!, token: "t0ken")
        var settings = Settings.defaults
        settings.source = "entsoe"
        settings.zone = "DE-LU"
        let url = source.url(for: LocalDay(year: 2026, month: 3, day: 29), zone: BiddingZone.named("DE-LU")!, calendar: amsterdam)
            .absoluteString
        #expect(url.contains("documentType=A44&in_Domain=10Y1001A1001A82H&out_Domain=10Y1001A1001A82H"))
        #expect(url.contains("periodStart=202603282300&periodEnd=202603302200"))
        #expect(EntsoeSource(token: nil).unusableReason(for: settings)?.contains("ENERGYCLOCK_ENTSOE_TOKEN") == true)
        #expect(source.cacheKey(for: settings) == "entsoe/DE-LU")
    }
}

extension String {
    /// The text between the first `open` and the `close` after it.
    func between(_ open: String, _ close: String) -> String {
        components(separatedBy: open)[1].components(separatedBy: close)[0].trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
