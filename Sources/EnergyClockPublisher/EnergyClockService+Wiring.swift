import EnergyClockDomain
import EnergyClockRuntime
import EnergyClockSources
import EnergyClockStore
import EnergyClockSupport
import FoundationEssentials
import MQTTClient

extension EnergyClockService {
    /// Everything a service is built from; the daemon fills it from its options, tests from their
    /// loopback servers and test clock.
    package struct Parts: Sendable {
        /// How to reach the broker.
        package var mqtt: MQTTOptions
        /// The topic tree.
        package var topics: TopicTree
        /// The price sources.
        package var catalog: SourceCatalog
        /// The zone that defines today, and the fetch timing.
        package var manager: PriceManager.Configuration
        /// Where the store lives.
        package var stateDirectory: StateDirectory
        /// Time; the system clock, or a test clock.
        package var clock: any WallClock
        /// The publisher's time, for its throttles, pauses and `health.json`: real time even when
        /// the manager runs on a test clock, unless a test sets one.
        package var publisherClock: any WallClock = SystemClock()
        /// Discovery, lights, windows and InfluxDB.
        package var publisher: PublisherOptions
        /// Whether `custom_url` may be changed over MQTT.
        package var allowRemoteURL = false
        /// Settings from the command line (profiles too), applied over the saved ones at start.
        package var overrides: SettingsUpdate?
        /// The program's logger; each part logs through it under its own label.
        package var logger: Logger
        /// The spread of every fetch delay, from −1 to 1.
        package var jitter: @Sendable () -> Double = { Double.random(in: -1...1) }

        /// Parts with the defaults for the rest.
        package init(
            mqtt: MQTTOptions, topics: TopicTree, catalog: SourceCatalog, manager: PriceManager.Configuration,
            stateDirectory: StateDirectory, clock: any WallClock, publisher: PublisherOptions, logger: Logger
        ) {
            self.logger = logger
            self.mqtt = mqtt
            self.topics = topics
            self.catalog = catalog
            self.manager = manager
            self.stateDirectory = stateDirectory
            self.clock = clock
            self.publisher = publisher
        }
    }

    /// A service wired from `parts`: the manager's output goes to the publisher, the broker's
    /// messages to the manager through the command router.
    package convenience init(_ parts: Parts) throws {
        func logger(_ label: String) -> Logger { parts.logger.labelled(label) }
        let client = try MQTTClient(options: parts.mqtt)
        let publisher = MQTTPublisher(
            sink: client, topics: parts.topics, options: parts.publisher, logger: logger("publisher"), health: parts.stateDirectory,
            clock: parts.publisherClock)
        var configuration = parts.manager
        configuration.reservedProfileNames.formUnion(TopicTree.leaves)
        let manager = try PriceManager(
            configuration: configuration, store: try PriceStore(directory: parts.stateDirectory), catalog: parts.catalog,
            clock: parts.clock, output: publisher, logger: logger("manager"), overrides: parts.overrides, jitter: parts.jitter
        )
        let router = CommandRouter(
            topics: parts.topics, sources: parts.catalog.ids, allowRemoteURL: parts.allowRemoteURL,
            homeAssistantStatus: parts.publisher.homeAssistantStatus,
            replies: ReplyPolicy(topics: parts.topics, options: parts.publisher))
        self.init(
            manager: manager, client: client, publisher: publisher, router: router, influx: parts.publisher.influx,
            logger: logger("service"))
    }
}
