import EnergyClockDomain
import EnergyClockPublisher
import MQTTClient
import Testing

/// How a command's topic is told apart: by its bytes, as a broker matches it.
@Suite struct TopicTreeTests {
    @Test(arguments: [
        ("energyclock/settings/set", Profiles.firstName, "energyclock/settings/set"),
        ("energyclock/export/settings/set", "export", "energyclock/settings/set"),
        ("energyclock/export/settings/green_max/set", "export", "energyclock/settings/green_max/set"),
        ("energyclock/zoë/refresh", "zoë", "energyclock/refresh"),
        ("energyclock/color/settings/set", Profiles.firstName, "energyclock/color/settings/set"),
        ("energyclock//settings/set", "", "energyclock/settings/set"),
        ("energyclockx/export/settings/set", Profiles.firstName, "energyclockx/export/settings/set"),
        ("Energyclock/export/settings/set", Profiles.firstName, "Energyclock/export/settings/set"),
        ("energyclock", Profiles.firstName, "energyclock"),
        ("energyclock/", Profiles.firstName, "energyclock/"),
        ("energyclock/export", Profiles.firstName, "energyclock/export"),
        ("", Profiles.firstName, ""),
    ])
    func aCommandIsAddressedToTheProfileOneLevelDown(topic: String, profile: String, asFirst: String) {
        let addressee = TopicTree(prefix: "energyclock").addressee(of: topic)
        #expect(addressee.profile == profile)
        #expect(addressee.topic == asFirst)
    }

    @Test(arguments: [
        ("energyclock/settings/set", TopicTree.SettingsCommand.object),
        ("energyclock/settings/green_max/set", .field("green_max")),
        ("energyclock/settings/zoë/set", .field("zoë")),
        ("energyclock/settings//set", .field("")),
        ("energyclock/settings/a/b/set", nil),
        ("energyclock/settings/set/x", nil),
        ("energyclock/settings/green_max/sets", nil),
        ("energyclock/settingsx/set", nil),
        ("energyclock/settings", nil),
        ("energyclock/settings/", nil),
        ("energyclock/settings/set/", nil),
        ("energyclock/export/settings/set", nil),
        ("energyclockx/settings/set", nil),
        ("energy/settings/set", nil),
        ("settings/set", nil),
        ("", nil),
    ])
    func aSettingsCommandIsAnObjectOrOneField(topic: String, command: TopicTree.SettingsCommand?) {
        #expect(TopicTree(prefix: "energyclock").settingsCommand(topic) == command)
    }

    @Test func aSettingsCommandUnderATakenNameIsAnsweredOnItsOwnResultTopic() throws {
        let topics = TopicTree(prefix: "energyclock")
        for name in ["price", "plan", "reply", "forecast", "events", "status", "profiles", "settings"] {
            let reserved = try #require(topics.reservedProfile(of: "energyclock/\(name)/settings/set"), "\(name)")
            #expect(reserved.profile == name && reserved.topic == "energyclock/settings/set")
            #expect(topics.reservedProfile(of: "energyclock/\(name)/settings/green_max/set")?.topic == "energyclock/settings/green_max/set")
            let router = CommandRouter(topics: topics, sources: ["energyzero"])
            let message = MQTTMessage(topic: "energyclock/\(name)/settings/set", payload: Array(#"{"vat_percent":9}"#.utf8))
            guard case let .settings(request, _)? = router.command(from: message) else {
                Issue.record("\(name): not answered")
                continue
            }
            #expect(request.profile == name)
            guard case let .failure(error) = request.update else {
                Issue.record("\(name): applied")
                continue
            }
            #expect(error.description.contains("\(name) is a topic of the first profile, not a profile"), "\(error)")
        }
        // A profile's own commands, the first profile's and other topics are no such thing.
        for topic in ["energyclock/export/settings/set", "energyclock/settings/set", "energyclock/price", "energyclock/price/refresh"] {
            #expect(topics.reservedProfile(of: topic) == nil, "\(topic)")
        }
    }

    @Test func everyFixedTopicIsSpeltUnderThePrefixAndOneLevelDownForAProfile() {
        for (root, under) in [
            (TopicTree(prefix: "energyclock"), "energyclock"), (TopicTree(prefix: "home/ec").profile("export"), "home/ec/export"),
        ] {
            let spelt: [(String, String)] = [
                (root.profiles, "profiles"), (root.reply, "reply"), (root.status, "status"), (root.price, "price"),
                (root.color, "color"), (root.colorHex, "color/hex"), (root.colorRGB, "color/rgb"), (root.thresholds, "thresholds"),
                (root.current, "current"), (root.next, "next"), (root.pricesToday, "prices/today"),
                (root.pricesTomorrow, "prices/tomorrow"), (root.settings, "settings"), (root.stale, "stale"),
                (root.statsToday, "stats/today"), (root.statsTomorrow, "stats/tomorrow"), (root.forecastEVCC, "forecast/evcc"),
                (root.forecastEMHASS, "forecast/emhass"), (root.events, "events"), (root.clockPNG, "clock/png"),
                (root.clockSVG, "clock/svg"), (root.influx, "influx"), (root.refresh, "refresh"),
                (root.settingsResult, "settings/result"), (root.settingsSet, "settings/set"), (root.settingsFieldFilter, "settings/+/set"),
            ]
            for (topic, leaf) in spelt { #expect(topic == "\(under)/\(leaf)") }
        }
    }

    @Test func aPrefixOfSeveralLevelsIsMatchedWhole() {
        let topics = TopicTree(prefix: "home/energy/")
        #expect(topics.settingsCommand("home/energy/settings/vat/set") == .field("vat"))
        #expect(topics.settingsCommand("home/energy2/settings/vat/set") == nil)
        #expect(topics.settingsCommand("home/settings/vat/set") == nil)
        #expect(topics.addressee(of: "home/energy/export/settings/set") == ("export", "home/energy/settings/set"))
        #expect(topics.addressee(of: "home/energyexport/settings/set") == (Profiles.firstName, "home/energyexport/settings/set"))
    }
}
