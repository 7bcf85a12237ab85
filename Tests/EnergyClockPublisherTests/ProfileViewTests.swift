import EnergyClockDomain
import EnergyClockTesting
import Foundation
import Testing

@testable import EnergyClockPublisher

/// Profiles in the publisher's state machine: their own trees, their lights, their removal.
@Suite struct ProfileViewTests {
    let topics = TopicTree()
    let now = at("2026-01-14T13:30:00+01:00")

    /// Hourly prices of two days at `price`, every other hour at `odd` if given.
    func snapshot(_ profile: String, price: Double, odd: Double? = nil, at moment: Date? = nil) -> Snapshot {
        let hours = slots(from: at("2026-01-14T00:00:00+01:00"), count: 48, minutes: 60) { $0 % 2 == 1 ? odd ?? price : price }
        var snapshot = Snapshot.derive(
            now: moment ?? now, calendar: ClockFixtures.amsterdam, settings: .defaults, slots: hours, source: "energyzero", stale: false,
            updatedAt: now)
        snapshot.profile = profile
        return snapshot
    }

    func sent(_ actions: [PublisherState.Action]) -> [OutgoingMessage] {
        actions.compactMap { if case let .send(message) = $0 { message } else { nil } }
    }

    @Test func everyProfilesNowGoesOutBeforeAnyDayPayloadAndEachLightFollowsItsProfile() {
        var options = PublisherOptions(discovery: HADiscovery(sources: ["energyzero"]), leds: [.json("lamp/home")], clockImage: false)
        options.profileLEDs = ["export": [.json("lamp/export")]]
        var publisher = PublisherState(topics: topics, options: options, now: now)
        let snapshots = [snapshot(Profiles.firstName, price: 0.05), snapshot("export", price: 0.25)]
        let topicsSent = sent(publisher.handle(.connected(snapshots, previouslyRetained: [], broker: nil), at: now)).map(\.topic)
        let lastPrice = topicsSent.lastIndex(of: "energyclock/export/price")!
        let firstDay = topicsSent.firstIndex(of: "energyclock/prices/today")!
        #expect(lastPrice < firstDay, "both prices leave before the first day's payload")
        #expect(topicsSent.contains("homeassistant/sensor/energyclock-export/price/config"))
        #expect(topicsSent.contains("energyclock/profiles"))
        #expect(!topicsSent.contains("energyclock/export/status"), "status is the daemon's")

        let lights = sent(
            publisher.handle(.snapshots([snapshot(Profiles.firstName, price: 0.25), snapshot("export", price: 0.05)]), at: now))
        #expect(lights.first { $0.topic == "lamp/home" }.flatMap { object($0.payload)?["band"] as? String } == "red", "0.25 with VAT")
        #expect(lights.first { $0.topic == "lamp/export" }.flatMap { object($0.payload)?["band"] as? String } == "green")
    }

    @Test func aBoundarySendsEveryPriceFirstThenEveryColourThenTheSlotsThenOnlyTheDayPayloadsThatChanged() {
        var publisher = PublisherState(topics: topics, options: PublisherOptions(clockImage: false), now: now)
        let names = [Profiles.firstName, "p01", "p02"]
        let hourly = { (moment: Date) in names.map { snapshot($0, price: 0.1, odd: 0.3, at: moment) } }
        _ = publisher.handle(.connected(hourly(now), previouslyRetained: [], broker: nil), at: now)
        // The next hour, at another price: what `publish(all:)` feeds, event by event.
        let later = hourly(now.addingTimeInterval(3600))
        #expect(later[0].current?.band != publisher.latest?.current?.band, "the band moves too")
        let prices = sent(publisher.handle(.prices(later), at: now)).map(\.topic)
        #expect(prices == ["energyclock/price", "energyclock/p01/price", "energyclock/p02/price"])
        let trees = names.map { $0 == Profiles.firstName ? topics : topics.profile($0) }
        let colors = sent(publisher.handle(.current(later), at: now)).map(\.topic)
        #expect(colors == trees.flatMap { [$0.color, $0.colorHex, $0.colorRGB] }, "each colour, the band moved; nothing else")
        let slots = sent(publisher.handle(.slots(later), at: now)).map(\.topic)
        #expect(slots == trees.flatMap { [$0.current, $0.next] })
        let day = sent(publisher.handle(.snapshots(later), at: now)).map(\.topic)
        #expect(!day.contains { $0.hasSuffix("/price") || $0.hasSuffix("/color") || $0.hasSuffix("/current") }, "now was sent already")
        #expect(!day.contains { $0.contains("prices/today") || $0.hasSuffix("/settings") }, "unchanged, not sent again")
        #expect(day.contains("energyclock/p02/stats/today"), "the rank of the current price moved")
    }

    @Test func aRemovedProfileClearsWhatItPublishedAndLeavesTheLedger() {
        var publisher = PublisherState(
            topics: topics, options: PublisherOptions(discovery: HADiscovery(sources: ["energyzero"]), clockImage: true), now: now)
        let connect = publisher.handle(
            .connected([snapshot(Profiles.firstName, price: 0.1), snapshot("export", price: 0.1)], previouslyRetained: [], broker: nil),
            at: now)
        guard case let .ledger(before)? = connect.last else {
            Issue.record("the ledger comes last")
            return
        }
        let actions = publisher.handle(.removed(profile: "export"), at: now)
        let cleared = sent(actions)
        #expect(cleared.allSatisfy { $0.retain && $0.payload.isEmpty })
        let exported = before.filter { $0.hasPrefix("energyclock/export/") || $0.contains("/energyclock-export/") }
        #expect(exported.contains("energyclock/export/clock/png"))
        #expect(Set(cleared.map(\.topic)) == exported.union(["energyclock/profiles"]))
        guard case let .ledger(after)? = actions.last else {
            Issue.record("a removal updates the ledger")
            return
        }
        #expect(after == before.subtracting(exported).subtracting(["energyclock/profiles"]))
        #expect(
            sent(publisher.handle(.snapshots([snapshot(Profiles.firstName, price: 0.1)]), at: now)).allSatisfy {
                !$0.topic.contains("export")
            }
        )
    }
}
