import EnergyClockDomain
import EnergyClockSources
import EnergyClockSupport
import EnergyClockTesting
import Foundation
import Testing

/// Octopus Agile's recorded `standard-unit-rates` pages, and broken variants of them.
@Suite struct OctopusTests {
    static let compact = fixture("octopus/agile_2023-03-28_utc-day_48slots.json")
    static let pretty = fixture("octopus/agile_region-L_2023-11-07_to_09_page1.json")

    /// The recorded results as `(start, value_exc_vat, value_inc_vat)`, newest first as sent.
    static func results(_ body: [UInt8]) throws -> [(start: String, exc: Double, inc: Double)] {
        let root = try #require(try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any])
        let results = try #require(root["results"] as? [[String: Any]])
        return try results.map {
            (
                try #require($0["valid_from"] as? String), try #require($0["value_exc_vat"] as? Double),
                try #require($0["value_inc_vat"] as? Double)
            )
        }
    }

    @Test func aGapIsNeverFilledWithThePriceBeforeIt() throws {
        // The recorded day (edited variant): every `valid_to` null, as for an open-ended rate, and
        // the four half hours of 05:00-07:00 left out.
        var root = try #require(try JSONSerialization.jsonObject(with: Data(Self.compact)) as? [String: Any])
        let results = try #require(root["results"] as? [[String: Any]])
        let gap = ["2023-03-28T05:00:00Z", "2023-03-28T05:30:00Z", "2023-03-28T06:00:00Z", "2023-03-28T06:30:00Z"]
        root["results"] = results.filter { !gap.contains($0["valid_from"] as? String ?? "") }.map { result in
            var open = result
            open["valid_to"] = NSNull()
            return open
        }
        let slots = try OctopusSource.parse(Array(try JSONSerialization.data(withJSONObject: root)))
        #expect(slots.count == 44)
        let before = try #require(slots.first { $0.start == at("2023-03-28T04:30:00Z") })
        #expect(before.end == at("2023-03-28T05:00:00Z"), "the 04:30 price ends with its half hour")
        #expect(!slots.contains { $0.contains(at("2023-03-28T05:00:00Z")) || $0.contains(at("2023-03-28T06:45:00Z")) })
        #expect(slots.first { $0.start == at("2023-03-28T07:00:00Z") }?.end == at("2023-03-28T07:30:00Z"))
        #expect(slots.allSatisfy { $0.duration == 1800 })
    }

    @Test func aCompactDayIsReadOldestFirstInPoundsWithoutVAT() throws {
        let slots = try OctopusSource.parse(Self.compact)
        #expect(slots.count == 48)
        #expect(slots.first?.start == at("2023-03-28T00:00:00Z") && slots.last?.end == at("2023-03-29T00:00:00Z"))
        #expect(slots.allSatisfy { $0.duration == 1800 && $0.currency == Currency("GBP") && $0.basis == .tariff && $0.level == nil })
        // Every slot is the recorded price without VAT, in pounds: 17.43 p is 0.1743 GBP.
        let recorded = try Self.results(Self.compact).reversed()
        for (slot, result) in zip(slots, recorded) {
            #expect(slot.start == at(result.start))
            #expect(DecimalFormat.string(slot.value * 100, decimals: 4) == DecimalFormat.string(result.exc, decimals: 4))
        }
        #expect(slots.map(\.value).min() == 0.1743)
    }

    @Test func aPrettyPageWithAWholeNumberAndANullPaymentMethodIsRead() throws {
        let slots = try OctopusSource.parse(Self.pretty)
        #expect(slots.count == 100)
        #expect(slots.first?.start == at("2023-11-07T21:00:00Z") && slots.last?.end == at("2023-11-09T23:00:00Z"))
        // The exc-VAT value written `23` (no decimal point) at 19:30Z.
        #expect(slots.first { $0.start == at("2023-11-08T19:30:00Z") }?.value == 0.23)
    }

    @Test func theVATOfGreatBritainOnThePriceWithoutItGivesThePriceWithIt() throws {
        // vat_percent 5 and no markup: what energyclock publishes is Octopus's own inc-VAT figure.
        var settings = Settings.defaults
        settings.vatPercent = 5
        settings.markupPercent = 10  // Not applied: the tariff has its margin in it.
        settings.surcharge = 0.02
        settings.currency = "GBP"
        let slots = try OctopusSource.parse(Self.pretty)
        let recorded = try Self.results(Self.pretty).reversed()
        for (slot, result) in zip(slots, recorded) {
            let parts = PriceComponents(market: slot.value, basis: slot.basis, gridFee: 0, settings: settings)
            #expect(parts.markup == 0 && parts.surcharge == 0)
            #expect(
                DecimalFormat.string(parts.total, decimals: 6) == DecimalFormat.string(result.inc / 100, decimals: 6), "\(result.start)")
        }
    }

    @Test func brokenPagesAreRefusedWithTheReason() {
        let pretty = String(decoding: Self.pretty, as: UTF8.self)
        for (body, reason) in [
            (pretty.replacingOccurrences(of: #""results""#, with: #""items""#), "no results array"),
            (pretty.replacingOccurrences(of: #""value_exc_vat": 23,"#, with: #""value_exc_vat": "23","#), "is a string, not a number"),
            (pretty.replacingOccurrences(of: #""value_exc_vat": 23,"#, with: #""value_exc_vat": 1e300,"#), "beyond"),
            (pretty.replacingOccurrences(of: "2023-11-08T19:30:00Z", with: "tonight"), "not an ISO 8601 time"),
            (pretty.replacingOccurrences(of: #""next": "#, with: #""next": 7, "was": "#), "next is a number"),
            ("[]", "not a JSON object"),
        ] {
            #expect(
                "\(reason)", performing: { _ = try OctopusSource.parse(Array(body.utf8)) },
                throws: { "\($0)".hasPrefix("octopus: ") && "\($0)".contains(reason) })
        }
        #expect(performing: { _ = try OctopusSource.parse([]) }, throws: { "\($0)".contains("empty") })
    }

    @Test func theSourceNeedsARegionAndServesGreatBritainOnly() {
        var settings = Settings.defaults
        settings.zone = "GB"
        let source = OctopusSource()
        #expect(source.unusableReason(for: settings)?.contains("octopus_region") == true)
        settings.octopusRegion = "C"
        #expect(source.unusableReason(for: settings) == nil)
        #expect(source.cacheKey(for: settings) == "octopus/AGILE-24-10-01/C")
        settings.zone = "NL"
        #expect(source.unusableReason(for: settings)?.contains("GB only") == true)
        func patch(_ json: String) throws -> SettingsPatch { try SettingsPatch.parse(object: Array(json.utf8), sources: ["octopus"]) }
        #expect(throws: SettingsError.self) { try patch(#"{"octopus_region":"I"}"#) }
        #expect(throws: SettingsError.self) { try patch(#"{"octopus_product":"agile/../x"}"#) }
        #expect(throws: Never.self) { try patch(#"{"octopus_product":"AGILE-OUTGOING-19-05-13","octopus_region":"P"}"#) }
    }

    @Test func ukClockChangeDaysHaveTwentyThreeAndTwentyFiveHours() throws {
        // The recorded slots re-dated onto the UK's spring and autumn nights: 46 and 50 half-hours.
        let london = try #require(LocalCalendar(identifier: "Europe/London"))
        let recorded = try OctopusSource.parse(Self.pretty)
        for (day, count) in [(LocalDay(year: 2024, month: 3, day: 31), 46), (LocalDay(year: 2024, month: 10, day: 27), 50)] {
            let span = london.interval(of: day)
            #expect(Int(span.duration / 1800) == count)
            let slots = (0..<count).map { i in
                var slot = recorded[i]
                slot.start = span.start.addingTimeInterval(Double(i) * 1800)
                slot.end = slot.start.addingTimeInterval(1800)
                return slot
            }
            var settings = Settings.defaults
            settings.currency = "GBP"
            settings.vatPercent = 5
            settings.resolution = .native
            let basis = Snapshot.Basis(day: day, calendar: london, settings: settings, slots: slots, rates: ExchangeRates())
            let snapshot = basis.snapshot(at: span.start.addingTimeInterval(3 * 3600), source: "octopus", stale: false, updatedAt: nil)
            #expect(snapshot.today.count == count)
            settings.resolution = .hour
            let hourly = Snapshot.Basis(day: day, calendar: london, settings: settings, slots: slots, rates: ExchangeRates())
            #expect(hourly.snapshot(at: span.start, source: "octopus", stale: false, updatedAt: nil).today.count == count / 2)
        }
    }
}
