import EnergyClockDomain
import EnergyClockSources
import EnergyClockTesting
import Foundation
import Testing

/// Tibber's recorded GraphQL answers (VCR cassettes and a saved body), and broken variants of them.
@Suite struct TibberTests {
    /// The `n`th response body of a cassette.
    static func body(_ cassette: String, _ n: Int = 0) throws -> [UInt8] {
        let bodies = Cassette.responseBodies(String(decoding: fixture("tibber/\(cassette)"), as: UTF8.self))
        return try #require(n < bodies.count ? bodies[n] : nil)
    }

    static func parse(_ body: [UInt8], status: Int = 200) throws(SourceError) -> [SeriesSlot] {
        do {
            return try TibberSource.parse(body, status: status)
        } catch let .source(error) {
            throw error
        } catch {
            throw SourceError(source: "tibber", problem: .malformed("\(error)"))
        }
    }

    @Test func theCassetteBodiesAreTheJSONTheAPISent() throws {
        let bodies = Cassette.responseBodies(String(decoding: fixture("tibber/vcr_prices_current_2023-04-28.yml"), as: UTF8.self))
        #expect(bodies.count == 2)
        // Answer 1 is 104 bytes by its own Content-Length, the newline that ends it included.
        #expect(bodies.first?.count == 104 && bodies.first?.last == 10)
        for body in bodies { #expect(JSONValue.parse(body) != nil) }
        let error = try Self.body("vcr_tibber_invalid_token_2024-10-31.yml")
        #expect(error.count == 106)  // Content-Length: 106.
    }

    @Test func aSwedishHomesTodayAndTomorrowAreRetailPricesInKronorWithTheirLevels() throws {
        let slots = try Self.parse(Self.body("vcr_prices_current_2023-04-28.yml", 1))
        #expect(slots.count == 48)
        #expect(slots.first?.start == at("2023-04-27T22:00:00Z") && slots.last?.end == at("2023-04-29T22:00:00Z"))
        #expect(slots.allSatisfy { $0.duration == 3600 && $0.currency == Currency("SEK") && $0.basis == .retail && $0.level != nil })
        let now = try #require(slots.first { $0.start == at("2023-04-28T13:00:00Z") })
        #expect(now.value == 1.3832 && now.level == .normal)
        #expect(slots.map(\.value).min() == 0.4796 && slots.map(\.value).max() == 1.9208)
        // A retail price gets no markup, surcharge or VAT: the household pays Tibber's total.
        var settings = Settings.defaults
        settings.currency = "SEK"
        settings.markupPercent = 10
        settings.surcharge = 0.1
        let parts = PriceComponents(market: now.value, basis: now.basis, gridFee: 0.25, settings: settings)
        #expect(parts.total == 1.6332 && parts.vat == 0 && parts.markup == 0 && parts.surcharge == 0)
    }

    @Test func anAnswerWithoutLevelsInEuroIsRead() throws {
        let slots = try Self.parse(fixture("tibber/PriceInfoToday_2024-08-22.json"))
        #expect(slots.count == 24 && slots.allSatisfy { $0.currency == .eur && $0.level == nil })
        #expect(slots.map(\.value).min() == 0.1569 && slots.map(\.value).max() == 0.3161)
    }

    @Test func anEmptyTomorrowIsNotYetPublished() throws {
        // Edited variant: the Swedish answer with its `tomorrow` list emptied.
        let text = String(decoding: try Self.body("vcr_prices_current_2023-04-28.yml", 1), as: UTF8.self)
        let cut = try #require(text.range(of: #""tomorrow":["#))
        let end = try #require(text.range(of: "]", range: cut.upperBound..<text.endIndex))
        let edited = text.replacingCharacters(in: cut.upperBound..<end.lowerBound, with: "")
        let slots = try Self.parse(Array(edited.utf8))
        #expect(slots.count == 24 && slots.last?.end == at("2023-04-28T22:00:00Z"))
    }

    @Test func anAnswerThatNamesNoCurrencyIsRefused() throws {
        // The German cassette did not ask for `currency` (and has `tomorrow: []`); a price without
        // its currency is not guessed.
        #expect(
            performing: { _ = try Self.parse(Self.body("vcr_tibber_success_2024-08-21.yml")) },
            throws: { "\($0)".contains("currency is missing") })
    }

    @Test func aRefusedTokenSaysSo() throws {
        let body = try Self.body("vcr_tibber_invalid_token_2024-10-31.yml")
        #expect(
            performing: { _ = try Self.parse(body, status: 400) },
            throws: { ($0 as? SourceError)?.problem.isRefusal == true && "\($0)".contains("the token was refused") })
        // A 401 without a body is a refusal too.
        #expect(performing: { _ = try Self.parse([], status: 401) }, throws: { "\($0)".contains("HTTP 401") })
    }

    @Test func brokenVariantsAreRefusedWithTheReason() throws {
        let text = String(decoding: try Self.body("vcr_prices_current_2023-04-28.yml", 1), as: UTF8.self)
        for (body, reason) in [
            (text.replacingOccurrences(of: #""total":1.3832"#, with: #""total":"1.3832""#), "total is a string"),
            (
                text.replacingOccurrences(of: #""startsAt":"2023-04-28T15:00:00.000+02:00""#, with: #""startsAt":"soon""#),
                "not an ISO 8601 time"
            ),
            (
                text.replacingOccurrences(of: #""currency":"SEK","level":"VERY_CHEAP""#, with: #""currency":"NOK","level":"VERY_CHEAP""#),
                "the others in"
            ),
            (text.replacingOccurrences(of: #""currency":"SEK""#, with: #""currency":"XBT""#), "not a known currency"),
            (text.replacingOccurrences(of: #""total":1.3832"#, with: #""total":1e300"#), "beyond"),
            (text.replacingOccurrences(of: #""viewer""#, with: #""watcher""#), "no data.viewer.homes"),
            (#"{"errors":[{"message":"Unknown argument \"resolution\" on field \"priceInfo\""}]}"#, "resolution"),
            ("[]", "not a JSON object"),
        ] {
            #expect("\(reason)", performing: { _ = try Self.parse(Array(body.utf8)) }, throws: { "\($0)".contains(reason) })
        }
    }
}
