import EnergyClockDomain
import EnergyClockPublisher
import EnergyClockRuntime
import EnergyClockSources
import EnergyClockStore
import EnergyClockSupport
import FoundationEssentials
import MQTTClient

/// What `energyclock run` is given by its options and the environment: the shared part, the
/// broker, the topics and every output, and how the daemon polls.
struct RunConfiguration {
    var common: CommonConfiguration
    var mqtt: MQTTOptions
    var topics: TopicTree
    /// Where MQTT 5 answers may go; empty for the default.
    var replyPrefixes: [String]
    var discoveryMode: HADiscovery.Mode
    var discoveryPrefix: String
    var leds: [LEDTarget]
    /// Lights that show another profile than the first, by its name (`--led TYPE:TOPIC@PROFILE`).
    var profileLEDs: [String: [LEDTarget]] = [:]
    var z2mBaseTopic: String
    var cheapestHours: [Int]
    var influx: InfluxWriter.Target?
    var allowRemoteURL: Bool
    var policy: RefreshSchedule.Policy
    /// Publish the clock as PNG and SVG.
    var clockImage: Bool

    /// The options of `energyclock run`.
    static let specs = BrokerOptions.specs + OutputOptions.specs + DaemonOptions.specs + CommonConfiguration.specs

    /// Reads and checks every option of `run`.
    init(_ options: ParsedOptions, environment: [String: String]) throws(UsageError) {
        common = try CommonConfiguration(options, environment: environment)
        let modeText = try options.value(OutputOptions.haDiscovery)
        guard let mode = HADiscovery.Mode(rawValue: modeText.lowercased()) else {
            throw UsageError("\(options.origin(OutputOptions.haDiscovery)) must be true, false or remove, got \"\(modeText)\"")
        }
        discoveryMode = mode
        discoveryPrefix = try Self.topic(options, OutputOptions.haDiscoveryPrefix)
        leds = []
        for text in try options.value(OutputOptions.led) {
            let (light, profile) = Self.followedProfile(text)
            do {
                let target = try LEDTarget.parse(light)
                if profile == Profiles.firstName { leds.append(target) } else { profileLEDs[profile, default: []].append(target) }
            } catch {
                throw UsageError("\(options.origin(OutputOptions.led)): \"\(text)\": \(error)")
            }
        }
        z2mBaseTopic = try Self.topic(options, OutputOptions.z2mBaseTopic)
        let hours = try options.value(OutputOptions.cheapestHours).split(separator: ",").map { $0.trimmed }
        cheapestHours = try hours.map { text throws(UsageError) in
            guard let n = Int(text), (1...24).contains(n) else {
                throw UsageError("\(options.origin(OutputOptions.cheapestHours)) must list whole hours from 1 to 24, got \"\(text)\"")
            }
            return n
        }
        influx = try Self.influx(options, environment: environment)
        allowRemoteURL = try options.value(DaemonOptions.allowRemoteURL)
        policy = RefreshSchedule.Policy()
        // Not given, each source polls from its own hour (Octopus from 16:00 UK time).
        policy.tomorrowHour = options.isGiven(DaemonOptions.tomorrowHour) ? try options.value(DaemonOptions.tomorrowHour) : nil
        policy.pollInterval = Double(try options.value(DaemonOptions.pollInterval))
        clockImage = try options.value(OutputOptions.clockImage)

        topics = TopicTree(prefix: try Self.topic(options, OutputOptions.topicPrefix))
        let replies = try options.value(OutputOptions.replyTopicPrefix).flatMap { $0.split(separator: ",").map { String($0.trimmed) } }
        replyPrefixes = try replies.map { prefix throws(UsageError) in
            TopicTree(prefix: try Self.topic(options, OutputOptions.replyTopicPrefix.spec.name, prefix)).prefix
        }
        mqtt = try Self.mqtt(options, environment: environment, stateDirectory: common.stateDirectory, will: topics.status)
        // The options' fields first, then --settings (which may hold other profiles), so that it wins.
        if let json = try options.value(DaemonOptions.settings) {
            do {
                let object = try SettingsUpdate.parse(object: Array(json.utf8), sources: common.catalog.ids)
                common.overrides = SettingsUpdate(
                    entries: (common.overrides?.entries ?? []) + object.entries, addressed: Profiles.firstName)
            } catch {
                throw UsageError("\(options.origin(DaemonOptions.settings)): \(error)")
            }
        }
    }

    /// The broker connection: every broker, the client id, the login, the version and TLS.
    private static func mqtt(_ options: ParsedOptions, environment: [String: String], stateDirectory: URL, will: String)
        throws(UsageError) -> MQTTOptions
    {
        let versionText = try options.value(BrokerOptions.version)
        let version: MQTTVersion
        switch versionText {
        case "5", "5.0": version = .v5
        case "3.1.1", "311", "4": version = .v311
        default: throw UsageError("\(options.origin(BrokerOptions.version)) must be 5 or 3.1.1, got \"\(versionText)\"")
        }
        let port = try options.value(BrokerOptions.port)
        let brokers = try Self.brokers(options, defaultPort: port)
        let clientID = try options.value(BrokerOptions.clientID) ?? Self.defaultClientID(stateDirectory: stateDirectory)
        guard !clientID.isEmpty, clientID.utf8.count <= 65535 else {
            throw UsageError("\(options.origin(BrokerOptions.clientID)) must be 1 to 65535 bytes")
        }
        var mqtt = MQTTOptions(
            host: brokers[0].host,
            port: brokers[0].port,
            clientID: clientID,
            username: try options.value(BrokerOptions.username),
            password: try CommonConfiguration.secret(
                options, file: BrokerOptions.passwordFile, variable: "ENERGYCLOCK_MQTT_PASSWORD", environment: environment),
            version: version,
            keepalive: try options.value(BrokerOptions.keepalive),
            will: MQTTWill(topic: will, payload: Array("offline".utf8)),
            tls: try Self.tls(options, port: brokers[0].port, environment: environment)
        )
        mqtt.standbys = Array(brokers.dropFirst())
        return mqtt
    }

    /// Where InfluxDB points go, with the login, or nil without `--influx-url`.
    private static func influx(_ options: ParsedOptions, environment: [String: String]) throws(UsageError) -> InfluxWriter.Target? {
        guard let url = try options.value(OutputOptions.influxURL) else { return nil }
        var authorization: String?
        var secrets: [String] = []
        if let token = try CommonConfiguration.secret(
            options, file: OutputOptions.influxTokenFile, variable: "ENERGYCLOCK_INFLUX_TOKEN", environment: environment)
        {
            authorization = "Token \(token)"
        } else if let user = try options.value(OutputOptions.influxUsername) {
            let password = environment["ENERGYCLOCK_INFLUX_PASSWORD"] ?? ""
            authorization = "Basic " + Data("\(user):\(password)".utf8).base64EncodedString()
            secrets.append(password)
        }
        return InfluxWriter.Target(url: url, authorization: authorization, secrets: secrets)
    }

    /// Everything the daemon's service is built from, with the store in `directory`.
    func serviceParts(directory: StateDirectory) -> EnergyClockService.Parts {
        let catalog = common.catalog
        var parts = EnergyClockService.Parts(
            mqtt: mqtt, topics: topics, catalog: catalog, manager: .init(calendar: common.calendar, policy: policy),
            stateDirectory: directory, clock: SystemClock(),
            publisher: PublisherOptions(
                cheapestHours: cheapestHours,
                discovery: HADiscovery(prefix: discoveryPrefix, mode: discoveryMode, sources: catalog.ids, clockImage: clockImage),
                leds: leds, z2mBaseTopic: z2mBaseTopic,
                influx: influx.map { InfluxWriter(target: $0, logger: common.logger("influx")) }, clockImage: clockImage
            ), logger: common.logger("energyclock")
        )
        parts.publisher.replyPrefixes = replyPrefixes
        parts.publisher.profileLEDs = profileLEDs
        parts.allowRemoteURL = allowRemoteURL
        parts.overrides = common.overrides
        return parts
    }
}
