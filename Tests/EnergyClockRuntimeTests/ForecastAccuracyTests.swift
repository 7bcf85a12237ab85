import EnergyClockDomain
import EnergyClockSources
import EnergyClockSupport
import EnergyClockTesting
import Foundation
import Testing

/// The report card, on a recorded forecast and the prices the market then published.
@Suite struct ForecastAccuracyTests {
    let helsinki = LocalCalendar(identifier: "Europe/Helsinki")!

    /// The realised hourly prices of the recording, as official market prices without Finland's
    /// 24 % VAT (the CSV holds c/kWh with it).
    func actuals() throws -> [SeriesSlot] {
        let text = String(decoding: fixture("forecasts/nordpool-predict-fi_actuals_2024-08-18T21Z_2024-08-27T19Z.csv"), as: UTF8.self)
        var rows = text.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false) }
        let header = rows.removeFirst()
        let price = try #require(header.firstIndex(of: "Price_cpkWh"))
        return try rows.map { row in
            let start = at(String(row[0]).replacingOccurrences(of: " ", with: "T"))
            let cents = try #require(Double(row[price]))
            return SeriesSlot(
                start: start, end: start.addingTimeInterval(3600), value: cents / 100 / 1.24, provenance: .official("nordpool"))
        }
    }

    /// Settings whose consumer price is the market price with 24 % VAT: what both files quote.
    var settings: Settings {
        var settings = Settings.defaults
        settings.vatPercent = 24
        return settings
    }

    @Test func aRecordedForecastIsScoredAgainstTheDayTheMarketPublishedAfterIt() throws {
        let issued = at("2024-08-20T18:01:12Z")
        let forecast = try NordPoolPredictProvider.parse(
            fixture("forecasts/nordpool-predict-fi_prediction-2024-08-20T18-01-12Z.json"), issued: issued)
        // The market published 22 August (Helsinki) on the 21st, after this forecast was issued.
        let day = helsinki.interval(of: LocalDay(year: 2024, month: 8, day: 22))
        let published = try actuals().filter { $0.start >= day.start && $0.start < day.end }
        #expect(published.count == 24)
        var card = ForecastAccuracy()
        let thresholds = Thresholds(greenMax: 0.02, yellowMax: 0.04, orangeMax: 0.08)
        card.score(
            forecast: forecast, official: published, settings: settings, calendar: helsinki, rates: ExchangeRates(),
            thresholds: thresholds)
        // Worked out apart from the code: each hour's forecast and realised c/kWh ÷ 100, rounded to
        // six decimals as published; hours from 21:00Z on the 21st are 27 to 50 hours after
        // 18:01:12Z on the 20th, so 22 fall in 24-48 h and the last two in 48-96 h; bands under
        // 0.02, 0.04 and 0.08.
        let two = card.tally(of: "nordpool-predict-fi", at: .twoDays)
        #expect(two.slots == 22)
        #expect(abs(try #require(two.meanAbsoluteError) - 0.007881772727) < 1e-9)
        #expect(abs(try #require(two.bias) - 0.007620227273) < 1e-9)
        #expect(two.bandsAgreed == 19)
        let four = card.tally(of: "nordpool-predict-fi", at: .fourDays)
        #expect(four.slots == 2)
        #expect(abs(try #require(four.meanAbsoluteError) - 0.008299) < 1e-9)
        #expect(four.bandAgreement == 1)
        #expect(card.tally(of: "nordpool-predict-fi", at: .day).slots == 0)
        #expect(card.providers == ["nordpool-predict-fi"])
    }

    @Test func onlyWhatTheForecastWhollyCoversIsScored() throws {
        let issued = at("2024-08-20T18:01:12Z")
        let forecast = try NordPoolPredictProvider.parse(
            fixture("forecasts/nordpool-predict-fi_prediction-2024-08-20T18-01-12Z.json"), issued: issued)
        var card = ForecastAccuracy()
        // Quarter hours of one hour, each scored against the forecast hour that covers it; one
        // before the forecast was issued and one past its end are not scored.
        let hour = at("2024-08-22T10:00:00Z")
        let quarters = (0..<4).map {
            SeriesSlot(start: hour.addingTimeInterval(Double($0) * 900), end: hour.addingTimeInterval(Double($0 + 1) * 900), value: 0.05)
        }
        let early = SeriesSlot(start: at("2024-08-20T10:00:00Z"), end: at("2024-08-20T11:00:00Z"), value: 0.05)
        let late = SeriesSlot(start: at("2024-08-25T20:00:00Z"), end: at("2024-08-25T21:00:00Z"), value: 0.05)
        card.score(
            forecast: forecast, official: [early] + quarters + [late], settings: settings, calendar: helsinki, rates: ExchangeRates(),
            thresholds: nil)
        #expect(card.tally(of: "nordpool-predict-fi").slots == 4)
        #expect(card.tally(of: "nordpool-predict-fi").bandsAgreed == 0, "no bands without thresholds")
    }

    @Test func theCardSurvivesTheStoreAndAHostileLineIsLeftOut() {
        var card = ForecastAccuracy()
        var tally = ForecastAccuracy.Tally()
        tally.slots = 24
        tally.absoluteError = 0.12
        tally.error = -0.03
        tally.bandsAgreed = 20
        card.add(tally, provider: "epex-predictor", day: LocalDay(year: 2026, month: 12, day: 5), horizon: .twoDays)
        let lines = card.lines
        #expect(lines == ["epex-predictor 2026-12-05 1 24 0.12 -0.03 20"])
        let hostile: Set<String> = [
            "Epex 2026-12-05 1 24 0.12 -0.03 20", "epex-predictor 2026-13-05 1 24 0.12 -0.03 20",
            "epex-predictor 2026-12-05 3 24 0.12 0 20",
            "epex-predictor 2026-12-05 1 24 nan 0 20", "epex-predictor 2026-12-05 1 24 0.1 0 25", "epex-predictor 2026-12-05 1 0 0 0 0",
            "epex-predictor 2026-12-05 1 24 1e400 0 20", "a b", "",
        ]
        #expect(ForecastAccuracy(restoring: lines.union(hostile)) == card)
        var kept = card
        kept.keep(from: LocalDay(year: 2026, month: 12, day: 6))
        #expect(kept.providers.isEmpty)
    }
}
