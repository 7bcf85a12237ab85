import EnergyClockDomain
import EnergyClockSources
import EnergyClockTesting
import Foundation
import Testing

/// Nord Pool's data portal answers, as recorded.
@Suite struct NordPoolTests {
    @Test func hourlyEuroAnswerForTheNetherlands() throws {
        let slots = try NordPoolSource.parse(fixture("nordpool/delivery_period_nl.json"), area: "NL")
        #expect(slots.count == 24)
        #expect(slots.first?.start == at("2024-11-04T23:00:00Z"))
        #expect(slots.last?.end == at("2024-11-05T23:00:00Z"))
        #expect(slots.first?.value == 0.08363)
        #expect(slots.allSatisfy { $0.duration == 3600 })
        #expect(slots.map(\.value).max() == 0.47299)
    }

    @Test func quarterHourAnswerInKronorIsKeptInKronor() throws {
        let body = fixture("nordpool/delivery_period_today.json")
        let se3 = try NordPoolSource.parse(body, area: "SE3")
        #expect(se3.count == 96)
        #expect(se3.allSatisfy { $0.duration == 900 && $0.currency == Currency("SEK") && $0.basis == .market })
        // 556.68 SEK/MWh is 0.55668 SEK/kWh, not converted at the answer's rate of 11.05186 SEK per euro.
        #expect(DecimalFormat.string(se3[0].value, decimals: 6) == "0.55668")
        let se4 = try NordPoolSource.parse(body, area: "SE4")
        // The zero price Home Assistant's tests put in stays a real zero.
        #expect(se4.first { $0.start == at("2025-10-01T18:00:00Z") }?.value == 0)
    }

    @Test func answersThatCannotBeTrustedAreRefused() {
        let nl = String(decoding: fixture("nordpool/delivery_period_nl.json"), as: UTF8.self)
        for (body, area, reason) in [
            (nl, "SE3", "not SE3"),
            (nl.replacingOccurrences(of: #""NL": 94.0"#, with: #""NL": "94""#), "NL", "string"),
            (nl.replacingOccurrences(of: "2024-11-05T03:00:00Z", with: "yesterday"), "NL", "not ISO 8601"),
            (nl.replacingOccurrences(of: #""currency": "EUR""#, with: #""currency": "XYZ""#), "NL", "a currency energyclock does not know"),
            (nl.replacingOccurrences(of: #""currency": "EUR""#, with: #""currency": 978"#), "NL", "currency is a number"),
            ("[1,2]", "NL", "not a JSON object"),
        ] {
            #expect(
                performing: { _ = try NordPoolSource.parse(Array(body.utf8), area: area) },
                throws: { "\($0)".hasPrefix("nordpool: ") && "\($0)".contains(reason) })
        }
    }

    @Test func anEntryWhoseEndIsNotTheNextStartIsRefused() throws {
        // The recorded answer (edited variant): one quarter hour's deliveryEnd moved 15 minutes on.
        var root = try #require(
            try JSONSerialization.jsonObject(with: Data(fixture("nordpool/delivery_period_today.json"))) as? [String: Any])
        var entries = try #require(root["multiAreaEntries"] as? [[String: Any]])
        let end = try #require(entries[10]["deliveryEnd"] as? String)
        entries[10]["deliveryEnd"] = ISO8601.utc(at(end).addingTimeInterval(900))
        root["multiAreaEntries"] = entries
        #expect {
            try NordPoolSource.parse(Array(try JSONSerialization.data(withJSONObject: root)), area: "SE3")
        } throws: { "\($0)".contains("multiAreaEntries[10] ends at") && "\($0)".contains("but multiAreaEntries[11] starts at") }
    }

    @Test func anEmptyAnswerMeansNotYet() throws {
        #expect(
            "only 204 means not yet", performing: { _ = try NordPoolSource.parse([], area: "NL") }, throws: { "\($0)".contains("empty") })
        #expect(try NordPoolSource.parse(Array(#"{"deliveryDateCET":"2024-11-06","multiAreaEntries":[]}"#.utf8), area: "NL").isEmpty)
    }
}
