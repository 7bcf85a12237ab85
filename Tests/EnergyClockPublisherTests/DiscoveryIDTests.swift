import EnergyClockTesting
import Foundation
import Testing

@testable import EnergyClockPublisher

/// Home Assistant keeps the first entity of each `unique_id` and drops the others: every id is
/// unique by construction, whatever the profiles and jobs are called.
@Suite struct DiscoveryIDTests {
    let discovery = HADiscovery(sources: ["energyzero"])
    let root = TopicTree()

    /// Every config of the first profile with `jobs`, and of each of `profiles` with the same jobs.
    func configs(profiles: [String], jobs: [String]) -> [HADiscovery.Config] {
        discovery.configs(root, jobs: jobs)
            + profiles.flatMap { discovery.configs(root.profile($0), availability: root.status, profile: $0, jobs: jobs) }
    }

    @Test func namesThatOnceSharedAnIDNoLongerDo() throws {
        // Profile `a`'s next_price and `a_next`'s price; profile `negative`'s band and the first
        // profile's negative_band switch; job `w`'s next start, duration and deadline and the jobs
        // named after them.
        let all = configs(
            profiles: ["a", "a_next", "negative", "w", "plan", "a-b"],
            jobs: ["w", "w_next_start", "w_duration", "w_next", "next_start", "a-b", "a", "running"])
        var ids: [String: String] = [:]
        for config in all {
            let id = try #require(object(config.payload)?["unique_id"] as? String)
            #expect(ids.updateValue(config.topic, forKey: id) == nil, "\(id): \(config.topic) and \(ids[id] ?? "")")
        }
        #expect(Set(all.map(\.topic)).count == all.count, "every config has a topic of its own")
        #expect(ids.count > 200)
    }

    @Test func theFirstProfilesOwnEntitiesKeepTheirIDs() throws {
        let first = discovery.configs(root)
        let price = try #require(first.first { $0.topic == "homeassistant/sensor/energyclock/price/config" })
        #expect(object(price.payload)?["unique_id"] as? String == "energyclock_price")
        let export = discovery.configs(root.profile("export"), availability: root.status, profile: "export")
        let exportPrice = try #require(export.first { $0.topic == "homeassistant/sensor/energyclock-export/price/config" })
        #expect(object(exportPrice.payload)?["unique_id"] as? String == "energyclock/export/price")
        // The device stays the one it was.
        let device = try #require(object(exportPrice.payload)?["device"] as? [String: Any])
        #expect(device["identifiers"] as? [String] == ["energyclock_energyclock_export"])
        #expect(device["name"] as? String == "energyclock export")
    }
}
