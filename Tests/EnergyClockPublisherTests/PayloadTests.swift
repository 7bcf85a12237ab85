import EnergyClockDomain
import EnergyClockPublisher
import EnergyClockSupport
import EnergyClockTesting
import Foundation
import Testing

/// What the topic tree holds on the days other integrations get wrong.
@Suite struct PayloadTests {
    let calendar = LocalCalendar(identifier: "Europe/Amsterdam")!
    let topics = TopicTree(prefix: "energyclock")

    func render(now: Date, day: LocalDay, resolution: Resolution, priceDecimals: Int = 6) -> [String: String] {
        let span = calendar.interval(of: day)
        let count = Int(span.duration / 900)
        let quarters = (0..<count).map { i in
            SeriesSlot(
                start: span.start.addingTimeInterval(Double(i) * 900), end: span.start.addingTimeInterval(Double(i + 1) * 900),
                value: Double(i) / 1000)
        }
        var settings = Settings.defaults
        settings.resolution = resolution
        settings.priceDecimals = priceDecimals
        let snapshot = Snapshot.derive(
            now: now, calendar: calendar, settings: settings, slots: quarters,
            source: "energyzero", stale: false, updatedAt: nil)
        return Dictionary(
            uniqueKeysWithValues: Payloads.render(snapshot, topics: topics, cheapestHours: [2]).map { ($0.topic, $0.payload) })
    }

    @Test func everyPublishedPriceHasThePriceDecimalsAsked() throws {
        let topics = render(
            now: at("2026-01-15T10:20:00+01:00"), day: LocalDay(year: 2026, month: 1, day: 15), resolution: .native, priceDecimals: 2)
        func decimals(_ number: Any?) -> Int {
            guard let value = number as? Double else { return 99 }
            let text = "\(value)"
            return text.contains(".") ? text.split(separator: ".")[1].count : 0
        }
        #expect(
            topics["energyclock/price"].map { $0.split(separator: ".").last?.count ?? 0 } ?? 99 <= 2, "\(topics["energyclock/price"] ?? "")"
        )
        let current = try #require(object(topics["energyclock/current"]))
        #expect(decimals(current["price"]) <= 2)
        for slot in try #require(array(topics["energyclock/prices/today"])) { #expect(decimals(slot["price"]) <= 2) }
        let stats = try #require(object(topics["energyclock/stats/today"]))
        for key in ["min", "max", "mean", "median"] { #expect(decimals(stats[key]) <= 2, "\(key): \(stats[key] ?? "")") }
        let cheapest = try #require(object(topics["energyclock/cheapest/2h"]))
        #expect(decimals(cheapest["mean_price"]) <= 2)
        // With six, the same day's prices have more.
        let six = render(now: at("2026-01-15T10:20:00+01:00"), day: LocalDay(year: 2026, month: 1, day: 15), resolution: .native)
        #expect(try #require(array(six["energyclock/prices/today"])).contains { decimals($0["price"]) > 2 })
    }

    @Test func fallBackDayShows0200TwiceWithTheirOwnOffsets() throws {
        let day = LocalDay(year: 2026, month: 10, day: 25)
        let hourly = try #require(array(render(now: at("2026-10-25T01:30:00Z"), day: day, resolution: .hour)["energyclock/prices/today"]))
        #expect(hourly.count == 25)
        let starts = hourly.map { $0["start"] as! String }
        #expect(starts.contains("2026-10-25T02:00:00+02:00") && starts.contains("2026-10-25T02:00:00+01:00"))
        #expect(starts.last == "2026-10-25T23:00:00+01:00")
        let quarters = try #require(
            array(render(now: at("2026-10-25T01:30:00Z"), day: day, resolution: .native)["energyclock/prices/today"]))
        #expect(quarters.count == 100)

        // At 01:30 UTC it is the second 02:00 hour, 02:30 CET.
        let current = try #require(object(render(now: at("2026-10-25T01:30:00Z"), day: day, resolution: .hour)["energyclock/current"]))
        #expect(current["start"] as? String == "2026-10-25T02:00:00+01:00")
        #expect(current["end"] as? String == "2026-10-25T03:00:00+01:00")
    }

    @Test func springForwardDayHas23HoursAndNo0200() throws {
        let day = LocalDay(year: 2026, month: 3, day: 29)
        let payloads = render(now: at("2026-03-29T01:00:00Z"), day: day, resolution: .hour)
        let hourly = try #require(array(payloads["energyclock/prices/today"]))
        #expect(hourly.count == 23)
        #expect(!hourly.contains { ($0["start"] as! String).contains("T02:") })
        let current = try #require(object(payloads["energyclock/current"]))
        #expect(current["start"] as? String == "2026-03-29T03:00:00+02:00")
        #expect(array(render(now: at("2026-03-29T01:00:00Z"), day: day, resolution: .native)["energyclock/prices/today"])?.count == 92)
    }

    @Test func theFirstHourAfterMidnightHasAPrice() throws {
        // 00:30 local is still the previous day in UTC; the price must not go missing.
        let payloads = render(now: at("2026-01-14T23:30:00Z"), day: LocalDay(year: 2026, month: 1, day: 15), resolution: .hour)
        #expect(payloads["energyclock/price"]?.isEmpty == false)
        #expect(object(payloads["energyclock/current"])?["start"] as? String == "2026-01-15T00:00:00+01:00")
    }

    @Test func theLastSlotHasNoNext() throws {
        let payloads = render(now: at("2026-01-15T22:30:00Z"), day: LocalDay(year: 2026, month: 1, day: 15), resolution: .hour)
        #expect(payloads["energyclock/current"]?.isEmpty == false)
        #expect(payloads["energyclock/next"] == "")
    }
}
