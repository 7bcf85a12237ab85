import EnergyClockDomain
import EnergyClockPublisher
import EnergyClockTesting
import Foundation
import Testing

/// `prices/forecast`, and the forecast beyond the official prices on evcc's and EMHASS's topics.
@Suite struct ForecastPayloadTests {
    let topics = TopicTree(prefix: "energyclock")
    let day = LocalDay(year: 2026, month: 3, day: 2)
    let issued = at("2026-03-02T06:00:00Z")

    /// Today's official hours at 0.05, and a forecast of the next two days' hours at 0.30: every
    /// forecast hour dearer than the last threshold.
    func render(tail: Bool) -> [String: String] {
        let official = slots(from: amsterdam.start(of: day), count: 24, minutes: 60) { _ in 0.05 }.stamped(.official("energyzero"))
        let forecast = slots(from: amsterdam.start(of: day.adding(days: 1)), count: 48, minutes: 60) { _ in 0.30 }
            .stamped(.forecast("energypriceforecast", issued: issued))
        var settings = Settings.defaults
        settings.forecastTail = tail
        let snapshot = Snapshot.derive(
            now: at("2026-03-02T20:10:00Z"), calendar: amsterdam, settings: settings, slots: official, forecast: forecast,
            source: "energyzero", stale: false, updatedAt: nil)
        return Dictionary(uniqueKeysWithValues: Payloads.render(snapshot, topics: topics).map { ($0.topic, $0.payload) })
    }

    @Test func theForecastIsPublishedApartWithItsProvenance() throws {
        let payloads = render(tail: false)
        let forecast = try #require(payloads["energyclock/prices/forecast"])
        #expect(
            forecast.hasPrefix(
                #"[{"start":"2026-03-03T00:00:00+01:00","end":"2026-03-03T01:00:00+01:00","price":0.363,"band":"red","forecast":true,"provider":"energypriceforecast","issued":"2026-03-02T07:00:00+01:00"},"#
            ))
        #expect(forecast.components(separatedBy: #""forecast":true"#).count - 1 == 48)
        #expect(payloads["energyclock/prices/tomorrow"] == "[]", "tomorrow stays what the market has published")
        #expect(payloads["energyclock/prices/today"]?.contains("forecast") == false)
    }

    @Test func evccAndEMHASSCarryTheForecastOnlyWhenTheProfileSaysSo() {
        let without = render(tail: false)
        let with = render(tail: true)
        let evccWithout = without["energyclock/forecast/evcc"] ?? ""
        let evccWith = with["energyclock/forecast/evcc"] ?? ""
        // From the current slot (21:00 local) to midnight: three official hours; then 48 forecast hours.
        #expect(!evccWithout.contains("forecast"))
        #expect(evccWithout.components(separatedBy: #""start""#).count - 1 == 3)
        #expect(evccWith.components(separatedBy: #""start""#).count - 1 == 3 + 48)
        #expect(evccWith.components(separatedBy: #""forecast":true"#).count - 1 == 48)
        #expect(evccWith.contains(#""end":"2026-03-05T00:00:00+01:00","value":0.363,"forecast":true}]"#))
        // EMHASS's half hours: six official ones without, 102 with.
        #expect(without["energyclock/forecast/emhass"]?.contains(#""prediction_horizon":6,"#) == true)
        #expect(with["energyclock/forecast/emhass"]?.contains(#""prediction_horizon":102,"#) == true)
    }
}
