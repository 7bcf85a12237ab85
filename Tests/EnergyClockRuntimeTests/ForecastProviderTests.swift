import EnergyClockDomain
import EnergyClockSources
import EnergyClockTesting
import Foundation
import Testing

/// The forecast providers' answers, recorded where a recording exists, and every way one could be
/// wrong.
@Suite struct ForecastProviderTests {
    let issued = at("2024-08-20T18:01:12Z")

    @Test func nordpoolPredictFiIsReadAsAMarketPriceWithoutFinlandsVAT() throws {
        let slots = try NordPoolPredictProvider.parse(
            fixture("forecasts/nordpool-predict-fi_prediction-2024-08-20T18-01-12Z.json"), issued: issued)
        #expect(slots.count == 167)
        #expect(slots.first?.start == at("2024-08-18T21:00:00Z"))
        #expect(slots.last?.end == at("2024-08-25T20:00:00Z"))
        #expect(slots.allSatisfy { $0.duration == 3600 && $0.basis == .market && $0.currency == .eur })
        #expect(slots.allSatisfy { $0.provenance == .forecast("nordpool-predict-fi", issued: issued) })
        // 1.612925384358234 c/kWh with 24 % VAT: ÷ 100 ÷ 1.24.
        #expect(abs(slots[0].value - 0.013007462777082531) < 1e-15)
    }

    @Test func finlandsVATIsTheRateOfTheHour() {
        #expect(NordPoolPredictProvider.vatRate(at: at("2024-08-31T20:59:59Z")) == 0.24)
        #expect(NordPoolPredictProvider.vatRate(at: at("2024-08-31T21:00:00Z")) == 0.255)
        #expect(NordPoolPredictProvider.vatRate(at: at("2023-01-15T12:00:00Z")) == 0.10)
        #expect(NordPoolPredictProvider.vatRate(at: at("2023-04-30T21:00:00Z")) == 0.24)
        #expect(NordPoolPredictProvider.vatRate(at: at("2022-06-01T00:00:00Z")) == 0.24)
    }

    @Test func energyforecastKeepsOnlyWhatItForecasts() throws {
        let slots = try EnergyForecastProvider.parse(fixture("forecasts/energyforecast_2026-02-26.json"), issued: issued)
        // 71 hours: 48 published (`market`), 23 forecast.
        #expect(slots.count == 23)
        #expect(slots.first?.start == at("2026-02-28T00:00:00+01:00"))
        #expect(slots.first?.value == 0.25978)
        #expect(slots.last?.end == at("2026-02-28T23:00:00+01:00"))
        #expect(slots.allSatisfy { !$0.provenance.isOfficial })
    }

    @Test func epexPredictorKeepsWhatLiesAfterKnownUntil() throws {
        let slots = try EpexPredictorProvider.parse(fixture("forecasts/epex-predictor_NL_constructed.json"), issued: issued)
        #expect(slots.first?.start == at("2026-12-06T23:00:00Z"))
        #expect(slots.last?.end == at("2026-12-08T00:00:00Z"))
        #expect(slots.count == 4 + 96)
        #expect(slots.allSatisfy { $0.duration == 900 })
    }

    @Test func energypriceforecastKeepsItsForecastAndRefusesAKeyItSaysIsBad() throws {
        let body = fixture("forecasts/energypriceforecast_NL_constructed.json")
        let slots = try EnergyPriceForecastProvider.parse(body, issued: issued)
        #expect(slots.count == 24)
        #expect(slots.first?.start == at("2026-12-07T00:00:00Z"))
        #expect(slots.first?.value == 0.085)
        let text = String(decoding: body, as: UTF8.self)
        // Without a key "missing" is the state; a key given and refused is an error, not 48 hours.
        #expect(try EnergyPriceForecastProvider.parse(body, issued: issued, keyGiven: true).count == 24)
        let refused = Array(text.replacingOccurrences(of: #""api_key_state":"missing""#, with: #""api_key_state":"expired""#).utf8)
        #expect(throws: SourceError.self) { try EnergyPriceForecastProvider.parse(refused, issued: issued, keyGiven: true) }
        #expect(try EnergyPriceForecastProvider.parse(refused, issued: issued).count == 24)
    }

    /// Each provider's parse, by id.
    static let parsers: [String: @Sendable ([UInt8]) throws(SourceError) -> [SeriesSlot]] = [
        "nordpool-predict-fi": { body throws(SourceError) in try NordPoolPredictProvider.parse(body, issued: Date()) },
        "energyforecast": { body throws(SourceError) in try EnergyForecastProvider.parse(body, issued: Date()) },
        "epex-predictor": { body throws(SourceError) in try EpexPredictorProvider.parse(body, issued: Date()) },
        "energypriceforecast": { body throws(SourceError) in try EnergyPriceForecastProvider.parse(body, issued: Date()) },
    ]

    @Test(arguments: [
        ("nordpool-predict-fi", "", "empty response body"),
        ("nordpool-predict-fi", "<html>rate limited</html>", "not JSON"),
        ("nordpool-predict-fi", "{}", "not a JSON array"),
        ("nordpool-predict-fi", "[[1724014800000.0, 1.2, 3]]", "not a [time, price] pair"),
        ("nordpool-predict-fi", "[[1e300, 1.2]]", "no time in milliseconds"),
        ("nordpool-predict-fi", "[[-1724014800000.0, 1.2]]", "no time in milliseconds"),
        ("nordpool-predict-fi", "[[1724014800000.0, \"1.2\"]]", "not a number"),
        ("nordpool-predict-fi", "[[1724014800000.0, 1e6]]", "not a number within"),
        ("nordpool-predict-fi", "[[1724018400000.0, 1.2], [1724014800000.0, 1.1]]", "ends before it starts"),
        ("nordpool-predict-fi", "[[1724014800000.0, 1.2], [1724014800000.0, 1.1]]", "ends before it starts"),
        (
            "energyforecast",
            "[{\"start\":\"2026-02-28T00:00:00Z\",\"end\":\"2026-02-28T01:00:00Z\",\"price\":0.2,\"price_origin\":\"guess\"}]", "neither"
        ),
        ("energyforecast", "[{\"start\":\"2026-02-28T00:00:00Z\",\"price\":0.2,\"price_origin\":\"forecast\"}]", "end is not a time"),
        (
            "energyforecast",
            "[{\"start\":\"2026-02-28T01:00:00Z\",\"end\":\"2026-02-28T00:00:00Z\",\"price\":0.2,\"price_origin\":\"forecast\"}]",
            "ends before it starts"
        ),
        (
            "energyforecast",
            "[{\"start\":\"2026-02-28T00:00:00Z\",\"end\":\"2026-02-28T01:00:00Z\",\"price\":null,\"price_origin\":\"forecast\"}]",
            "not a number"
        ),
        (
            "energyforecast",
            "[{\"start\":\"2026-02-28T00:00:00Z\",\"end\":\"2026-03-02T01:00:00Z\",\"price\":0.2,\"price_origin\":\"forecast\"}]",
            "at most a day"
        ),
        ("epex-predictor", "{\"detail\":\"Invalid timezone X\"}", "no prices list"),
        ("epex-predictor", "{\"prices\":[{\"startsAt\":\"soon\",\"total\":0.1}]}", "startsAt is not a time"),
        ("epex-predictor", "{\"prices\":[{\"startsAt\":\"2026-12-06T23:00:00Z\",\"total\":1e308}]}", "not a number within"),
        ("epex-predictor", "{\"prices\":[],\"knownUntil\":12}", "knownUntil is not a time"),
        ("energypriceforecast", "{\"entries\":[],\"currency\":\"SEK\"}", "not in EUR"),
        (
            "energypriceforecast", "{\"entries\":[{\"start\":\"2026-12-07T00:00:00Z\",\"end\":\"2026-12-07T01:00:00Z\",\"value\":0.1}]}",
            "neither"
        ),
        ("energypriceforecast", "{\"detail\":\"unknown country\"}", "no entries list"),
    ])
    func hostileAnswersAreRefusedWithTheirReason(provider: String, body: String, reason: String) throws {
        let parse = try #require(Self.parsers[provider])
        #expect(performing: { _ = try parse(Array(body.utf8)) }, throws: { "\($0)".hasPrefix("\(provider): ") && "\($0)".contains(reason) })
    }

    @Test func anEmptyForecastIsNoError() throws {
        #expect(try NordPoolPredictProvider.parse(Array("[]".utf8), issued: issued).isEmpty)
        #expect(try EnergyForecastProvider.parse(Array("[]".utf8), issued: issued).isEmpty)
        #expect(try EpexPredictorProvider.parse(Array(#"{"prices":[]}"#.utf8), issued: issued).isEmpty)
        #expect(try EnergyPriceForecastProvider.parse(Array(#"{"entries":[]}"#.utf8), issued: issued).isEmpty)
    }

    @Test func aProviderIsRefusedForAZoneItDoesNotForecastOrWithoutItsToken() throws {
        let catalog = SourceRegistry.catalog(baseURLs: [:], tokens: SourceTokens(), http: HTTPClient(timeout: 1))
        var settings = Settings.defaults
        settings.forecastProvider = "nordpool-predict-fi"
        #expect(performing: { try catalog.check(settings) }, throws: { "\($0)".contains("forecasts zone FI only, not NL") })
        settings.forecastProvider = "energyforecast"
        #expect(performing: { try catalog.check(settings) }, throws: { "\($0)".contains("needs a token") })
        settings.forecastProvider = "epex-predictor"
        try catalog.check(settings)
        settings.forecastFallbacks = ["epex-predictor"]
        #expect(performing: { try catalog.check(settings) }, throws: { "\($0)".contains("is the forecast_provider itself") })
        settings.forecastFallbacks = ["crystal-ball"]
        #expect(performing: { try catalog.check(settings) }, throws: { "\($0)".contains("crystal-ball") })
        settings.forecastProvider = ""
        settings.forecastFallbacks = ["energypriceforecast"]
        #expect(performing: { try catalog.check(settings) }, throws: { "\($0)".contains("need a forecast_provider") })
    }
}
