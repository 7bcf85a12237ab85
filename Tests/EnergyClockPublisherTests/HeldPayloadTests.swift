import EnergyClockDomain
import EnergyClockTesting
import Foundation
import Testing

@testable import EnergyClockPublisher

/// What the publisher keeps of each topic the broker holds: a short payload itself, a long one as a digest.
@Suite struct HeldPayloadTests {
    let topics = TopicTree()
    let now = at("2026-03-02T20:10:00+01:00")

    @Test func aShortPayloadIsHeldAsTextALongOneAsADigestThatTellsEveryChange() {
        let short = String(repeating: "a", count: HeldPayload.longest)
        #expect(HeldPayload(short).text == short)
        let long = String(repeating: "a", count: HeldPayload.longest + 1)
        #expect(HeldPayload(long).text == nil)
        #expect(HeldPayload(long) == HeldPayload(String(repeating: "a", count: HeldPayload.longest + 1)))
        // One byte changed anywhere, or one more byte: a different digest.
        var bytes = Array(long.utf8)
        for index in [0, bytes.count / 2, bytes.count - 1] {
            var changed = bytes
            changed[index] = UInt8(ascii: "b")
            #expect(HeldPayload(String(decoding: changed, as: UTF8.self)) != HeldPayload(long))
        }
        bytes.append(UInt8(ascii: "a"))
        #expect(HeldPayload(String(decoding: bytes, as: UTF8.self)) != HeldPayload(long))
        // Text and digest never compare equal by accident.
        #expect(HeldPayload(short) != HeldPayload(long))
        // A short rendering is held as its text; each long one by a number of its own.
        #expect(HeldPayload.rendering(short) == HeldPayload(short))
        let first = HeldPayload.rendering(long)
        #expect(first.text == nil && first == first)
        #expect(HeldPayload.rendering(long) != first && first != HeldPayload(long))
    }

    /// Two days of official hours and five days of forecast quarter hours, shown by the hour:
    /// `prices/forecast` is well over ``HeldPayload/longest``.
    func snapshot(price: Double = 0.30) -> Snapshot {
        let day = LocalDay(year: 2026, month: 3, day: 2)
        let official = slots(from: amsterdam.start(of: day), count: 48, minutes: 60) { _ in 0.05 }.stamped(.official("energyzero"))
        let forecast = slots(from: amsterdam.start(of: day.adding(days: 2)), count: 5 * 96, minutes: 15) { i in price + Double(i % 7) / 100
        }
        .stamped(.forecast("energypriceforecast", issued: at("2026-03-02T06:00:00Z")))
        var settings = Settings.defaults
        settings.forecastTail = true
        return Snapshot.derive(
            now: now, calendar: amsterdam, settings: settings, slots: official, forecast: forecast, source: "energyzero", stale: false,
            updatedAt: nil)
    }

    func sent(_ actions: [PublisherState.Action]) -> [OutgoingMessage] {
        actions.compactMap { if case let .send(message) = $0 { message } else { nil } }
    }

    @Test func aLongPayloadGoesOutOnceIsNotRenderedAgainUnchangedAndGoesBackWhenOverwritten() throws {
        var publisher = PublisherState(topics: topics, options: PublisherOptions(discovery: nil, leds: [], clockImage: false), now: now)
        let first = sent(publisher.handle(.connected([snapshot()], previouslyRetained: [], broker: nil), at: now))
        let forecast = try #require(first.first { $0.topic == topics.pricesForecast }?.payload)
        #expect(forecast.utf8.count > HeldPayload.longest)
        #expect(publisher.views["default"]?.retained.held(topics.pricesForecast)?.text == nil, "held as a digest")

        // The next minute: the same forecast, nothing of it goes out.
        let later = snapshot()
        let minute = sent(publisher.handle(.snapshots([later]), at: now.addingTimeInterval(60)))
        #expect(!minute.contains { $0.topic == topics.pricesForecast })

        // Another client overwrites it: the daemon renders it again and puts back the same bytes.
        let restored = sent(publisher.handle(.overwritten(topic: topics.pricesForecast), at: now.addingTimeInterval(61)))
        #expect(restored.filter { $0.topic == topics.pricesForecast }.map(\.payload) == [forecast])

        // A new forecast changes it, and it goes out again.
        let dearer = sent(publisher.handle(.snapshots([snapshot(price: 0.40)]), at: now.addingTimeInterval(62)))
        let new = try #require(dearer.first { $0.topic == topics.pricesForecast }?.payload)
        #expect(new != forecast)

        // After a reconnect everything goes out again, the long payloads too.
        _ = publisher.handle(.disconnected, at: now.addingTimeInterval(63))
        let again = sent(
            publisher.handle(.connected([snapshot(price: 0.40)], previouslyRetained: [], broker: nil), at: now.addingTimeInterval(64)))
        #expect(again.first { $0.topic == topics.pricesForecast }?.payload == new)
    }

    @Test func theForecastsPayloadReadFromItsHeldPricesIsThatOfItsPricedSlots() throws {
        var settings = Settings.defaults
        settings.resolution = .native
        settings.vatPercent = 21
        let fee = try #require(JSONValue.parse(Array(#"{"default":0.05,"periods":[{"from":"17:00","to":"21:00","fee":0.09}]}"#.utf8)))
        settings.gridFee = try GridFee(json: fee)
        let day = LocalDay(year: 2026, month: 3, day: 2)
        let official = slots(from: amsterdam.start(of: day), count: 48, minutes: 60) { _ in 0.05 }.stamped(.official("energyzero"))
        let forecast = slots(from: amsterdam.start(of: day.adding(days: 2)), count: 5 * 96, minutes: 15) { i in Double(i % 11) / 50 - 0.05 }
            .stamped(.forecast("energypriceforecast", issued: at("2026-03-02T06:00:00Z")))
        let snapshot = Snapshot.derive(
            now: now, calendar: amsterdam, settings: settings, slots: official, forecast: forecast, source: "energyzero", stale: false,
            updatedAt: nil)
        #expect(snapshot.forecast.count == 480)
        #expect(Payloads.slotArray(snapshot.forecast, amsterdam) == Payloads.slotArray(Array(snapshot.forecast), amsterdam))
        #expect(snapshot.forecast.indices.allSatisfy { snapshot.forecast.shown(at: $0).slot.price == snapshot.forecast[$0].price })
    }
}
