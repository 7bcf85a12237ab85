import EnergyClockCore
import EnergyClockPublisher
import FoundationEssentials
import MQTTClient
import Platform

/// Everything the daemon and the `prices` command need, read from flags and environment.
struct Configuration {
    var mqtt: MQTTOptions
    var topics: TopicTree
    var stateDirectory: URL
    var calendar: LocalCalendar
    /// The address each source's `--<id>-url` option gave; a source not here uses its default.
    var sourceURLs: [String: URL]
    var entsoeToken: String?
    var tibberToken: String?
    var ecbURL: URL
    var allowRemoteURL: Bool
    var date: LocalDay?
    var source: String?
    /// The profile a one-shot command shows (`--profile`); nil for the first.
    var profile: String?
    /// Lights that show another profile than the first, by its name (`--led TYPE:TOPIC@PROFILE`).
    var profileLEDs: [String: [LEDTarget]] = [:]
    var discoveryMode: HADiscovery.Mode
    var discoveryPrefix: String
    /// `run`: where MQTT 5 answers may go; empty for the default.
    var replyPrefixes: [String]
    var leds: [LEDTarget]
    var z2mBaseTopic: String
    var cheapestHours: [Int]
    var influx: InfluxWriter.Target?
    /// Settings the command line sets (`--custom-url`, `--palette`, `--brightness`), checked here.
    var overrides: SettingsUpdate?
    var fetchTimeout: Double
    var maxBodyBytes: Int
    var policy: RefreshSchedule.Policy
    var logLevel: LogLevel
    var json: Bool
    /// `run`: settings applied at start, a JSON object as on `settings/set`.
    var initialSettings: String?
    /// `health`: how long the broker may be gone before the daemon counts as unhealthy.
    var maxOffline: Double
    /// `run`: publish the clock as PNG and SVG.
    var clockImage: Bool
    /// `clock` and `render`: draw tomorrow instead of today.
    var tomorrow: Bool
    /// `render`: where the SVG and the PNG go, `-` for standard output.
    var svgPath: String?
    var pngPath: String?

    /// Reads and checks every option.
    ///
    /// `quiet` commands (`prices`, `clock`, `render`) log warnings and errors only unless
    /// `--log-level` says otherwise, so that what they print stands alone.
    init(_ options: ParsedOptions, environment: [String: String], quiet: Bool = false) throws(UsageError) {
        let zoneName = try options.value(CommonOptions.timezone)
        guard let calendar = LocalCalendar(identifier: zoneName) else {
            throw UsageError(
                "\(options.origin(CommonOptions.timezone)): unknown time zone \"\(zoneName)\"; use an IANA name such as Europe/Amsterdam")
        }
        self.calendar = calendar
        let level = try options.value(CommonOptions.logLevel) ?? (quiet ? "warning" : "info")
        guard let logLevel = LogLevel(rawValue: level.lowercased()) else {
            throw UsageError("\(options.origin(CommonOptions.logLevel)) must be debug, info, warning or error, got \"\(level)\"")
        }
        self.logLevel = logLevel
        stateDirectory = try Self.stateDirectory(options, environment: environment)
        var sourceURLs: [String: URL] = [:]
        for (id, option) in SourceOptions.sourceURLs {
            if let url = try options.value(option) { sourceURLs[id] = url }
        }
        self.sourceURLs = sourceURLs
        ecbURL = try options.value(SourceOptions.ecbURL)
        entsoeToken = try Self.secret(
            options, file: SourceOptions.entsoeTokenFile, variable: "ENERGYCLOCK_ENTSOE_TOKEN", environment: environment)
        tibberToken = try Self.secret(
            options, file: SourceOptions.tibberTokenFile, variable: "ENERGYCLOCK_TIBBER_TOKEN", environment: environment)
        var given: [(SettingsField, String)] = []
        for (field, option) in [(SettingsField.palette, SettingOptions.palette), (.brightness, SettingOptions.brightness)] {
            if let text = try options.value(option) { given.append((field, text)) }
        }
        if let url = try options.value(SettingOptions.customURL) { given.append((.customURL, JSONWriter.quoted(url))) }
        initialSettings = try options.value(DaemonOptions.settings)
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
        if let url = try options.value(OutputOptions.influxURL) {
            var authorization: String?
            var secrets: [String] = []
            if let token = try Self.secret(
                options, file: OutputOptions.influxTokenFile, variable: "ENERGYCLOCK_INFLUX_TOKEN", environment: environment)
            {
                authorization = "Token \(token)"
            } else if let user = try options.value(OutputOptions.influxUsername) {
                let password = environment["ENERGYCLOCK_INFLUX_PASSWORD"] ?? ""
                authorization = "Basic " + Data("\(user):\(password)".utf8).base64EncodedString()
                secrets.append(password)
            }
            influx = InfluxWriter.Target(url: url, authorization: authorization, secrets: secrets)
        } else {
            influx = nil
        }
        allowRemoteURL = try options.value(DaemonOptions.allowRemoteURL)
        source = try options.value(DayOptions.source)
        profile = try options.value(DayOptions.profile)
        if let text = try options.value(DayOptions.date) {
            guard let day = LocalDay(parsing: text) else {
                throw UsageError("\(options.origin(DayOptions.date)) must be a date as YYYY-MM-DD, got \"\(text)\"")
            }
            date = day
        }
        fetchTimeout = try options.value(SourceOptions.fetchTimeout)
        maxBodyBytes = try options.value(SourceOptions.maxBodyBytes)
        policy = RefreshSchedule.Policy()
        // Not given, each source polls from its own hour (Octopus from 16:00 UK time).
        policy.tomorrowHour = options.isGiven(DaemonOptions.tomorrowHour) ? try options.value(DaemonOptions.tomorrowHour) : nil
        policy.pollInterval = Double(try options.value(DaemonOptions.pollInterval))
        json = try options.value(DayOptions.json)
        tomorrow = try options.value(DayOptions.tomorrow)
        maxOffline = Double(try options.value(HealthOptions.maxOffline))
        clockImage = try options.value(OutputOptions.clockImage)
        svgPath = try options.value(DayOptions.svg)
        pngPath = try options.value(DayOptions.png)
        if svgPath == "-" && pngPath == "-" { throw UsageError("--svg and --png cannot both go to standard output") }

        topics = TopicTree(prefix: try Self.topic(options, OutputOptions.topicPrefix))
        let replies = try options.value(OutputOptions.replyTopicPrefix).flatMap { $0.split(separator: ",").map { String($0.trimmed) } }
        replyPrefixes = try replies.map { prefix throws(UsageError) in
            TopicTree(prefix: try Self.topic(options, OutputOptions.replyTopicPrefix.spec.name, prefix)).prefix
        }

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
        mqtt = MQTTOptions(
            host: brokers[0].host,
            port: brokers[0].port,
            clientID: clientID,
            username: try options.value(BrokerOptions.username),
            password: try Self.secret(
                options, file: BrokerOptions.passwordFile, variable: "ENERGYCLOCK_MQTT_PASSWORD", environment: environment),
            version: version,
            keepalive: try options.value(BrokerOptions.keepalive),
            will: MQTTWill(topic: topics.status, payload: Array("offline".utf8)),
            tls: try Self.tls(options, port: brokers[0].port, environment: environment)
        )
        mqtt.standbys = Array(brokers.dropFirst())
        // The options' fields first, then --settings (which may hold other profiles), so that it wins.
        var update = try Self.patch(given, sources: catalog.ids).map { SettingsUpdate($0) }
        if let json = initialSettings {
            do {
                let object = try SettingsUpdate.parse(object: Array(json.utf8), sources: catalog.ids)
                update = SettingsUpdate(entries: (update?.entries ?? []) + object.entries, addressed: Profiles.firstName)
            } catch {
                throw UsageError("\(options.origin(DaemonOptions.settings)): \(error)")
            }
        }
        overrides = update
    }

    /// A light's text without its `@PROFILE` ending, and that profile (the first when there is
    /// none): the ending counts when it could name a profile, so `json:home@work` follows `work`
    /// and a topic that really ends in `@x` is written with `@default` after it.
    static func followedProfile(_ text: String) -> (light: String, profile: String) {
        guard let at = text.lastIndex(of: "@") else { return (text, Profiles.firstName) }
        let name = String(text[text.index(after: at)...])
        guard name == Profiles.firstName || ProfileName.problem(with: name, reserved: []) == nil else { return (text, Profiles.firstName) }
        return (String(text[..<at]), name)
    }

    /// `energyclock-<host>-<8 hex digits of the state directory's path>`: two daemons on one host
    /// with their own state directories never take each other's session.
    static func defaultClientID(stateDirectory: URL) -> String {
        var hash: UInt32 = 0x811C_9DC5  // FNV-1a
        for byte in stateDirectory.standardizedFileURL.path.utf8 {
            hash = (hash ^ UInt32(byte)) &* 0x0100_0193
        }
        let hex = String(hash, radix: 16)
        return "energyclock-\(ProcessInfo.processInfo.hostName)-\(String(repeating: "0", count: 8 - hex.count))\(hex)"
    }

    private static func stateDirectory(_ options: ParsedOptions, environment: [String: String]) throws(UsageError) -> URL {
        if let dir = try options.value(CommonOptions.stateDir) {
            guard !dir.isEmpty else { throw UsageError("\(options.origin(CommonOptions.stateDir)) must not be empty") }
            return URL(fileURLWithPath: dir)
        }
        if let systemd = environment["STATE_DIRECTORY"], !systemd.isEmpty {
            return URL(fileURLWithPath: String(systemd.split(separator: ":").first ?? ""))
        }
        if let xdg = environment["XDG_STATE_HOME"], xdg.hasPrefix("/") {
            return URL(fileURLWithPath: xdg).appendingPathComponent("energyclock")
        }
        guard let home = environment["HOME"], !home.isEmpty else {
            throw UsageError("no state directory: set --state-dir, XDG_STATE_HOME or HOME")
        }
        return URL(fileURLWithPath: home).appendingPathComponent(".local/state/energyclock")
    }

    /// The value of `option` when it can root a topic tree.
    private static func topic(_ options: ParsedOptions, _ option: Option<String>) throws(UsageError) -> String {
        try topic(options, option.spec.name, try options.value(option))
    }

    /// `value` of the option `name` when it can root a topic tree (see ``TopicTree/problem(withPrefix:)``).
    private static func topic(_ options: ParsedOptions, _ name: String, _ value: String) throws(UsageError) -> String {
        if let problem = TopicTree.problem(withPrefix: value) {
            throw UsageError("\(options.origin(name)) cannot be \(Quote.json(value)): \(problem)")
        }
        return value
    }

    /// A secret from the file named by option `file` (trailing newlines dropped), else from `variable`.
    static func secret(_ options: ParsedOptions, file: Option<String?>, variable: String, environment: [String: String])
        throws(UsageError) -> String?
    {
        if let path = try options.value(file) {
            let data: [UInt8]
            switch RegularFile.read(path, limit: 64 << 10, timeout: 2) {
            case let .success(bytes): data = bytes
            case let .failure(failure): throw UsageError("\(options.origin(file)): \(failure)")
            }
            var text = String(decoding: data, as: UTF8.self)
            while text.hasSuffix("\n") || text.hasSuffix("\r") { text.removeLast() }
            return text
        }
        return environment[variable]
    }

    /// The program's logger for `label`: the one place that makes loggers, writing to standard error.
    func logger(_ label: String) -> Logger { Logger(label: label, level: logLevel) }

    /// The sources this build knows, configured from the options.
    var catalog: SourceCatalog {
        SourceRegistry.catalog(
            baseURLs: sourceURLs, tokens: SourceTokens(entsoe: entsoeToken, tibber: tibberToken),
            http: HTTPClient(timeout: fetchTimeout, maxBodyBytes: maxBodyBytes),
            ratesURL: ecbURL)
    }

    /// The settings given on the command line as one checked patch, or nil when none were.
    private static func patch(_ given: [(SettingsField, String)], sources: [String]) throws(UsageError) -> SettingsPatch? {
        guard !given.isEmpty else { return nil }
        var patch = SettingsPatch()
        for (field, text) in given {
            do {
                let one = try SettingsPatch.parse(field: field.rawValue, plain: Array(text.utf8), sources: sources)
                patch.values.merge(one.values) { $1 }
            } catch {
                throw UsageError("--\(field.rawValue.replacing("_", with: "-")): \(error)")
            }
        }
        return patch
    }

    /// A manager over the store in `directory`, with the command line's settings applied.
    func makeManager(directory: StateDirectory, output: any ManagerOutput, logger: Logger) throws -> PriceManager {
        try PriceManager(
            configuration: .init(calendar: calendar, policy: policy, reservedProfileNames: TopicTree.leaves),
            store: try PriceStore(directory: directory), catalog: catalog, clock: SystemClock(), output: output,
            logger: logger, overrides: overrides
        )
    }

    /// Everything the daemon's service is built from, with the store in `directory`.
    func serviceParts(directory: StateDirectory) -> EnergyClockService.Parts {
        let catalog = catalog
        var parts = EnergyClockService.Parts(
            mqtt: mqtt, topics: topics, catalog: catalog, manager: .init(calendar: calendar, policy: policy),
            stateDirectory: directory, clock: SystemClock(),
            publisher: PublisherOptions(
                cheapestHours: cheapestHours,
                discovery: HADiscovery(prefix: discoveryPrefix, mode: discoveryMode, sources: catalog.ids, clockImage: clockImage),
                leds: leds, z2mBaseTopic: z2mBaseTopic,
                influx: influx.map { InfluxWriter(target: $0, logger: logger("influx")) }, clockImage: clockImage
            ), logger: logger("energyclock")
        )
        parts.publisher.replyPrefixes = replyPrefixes
        parts.publisher.profileLEDs = profileLEDs
        parts.allowRemoteURL = allowRemoteURL
        parts.overrides = overrides
        return parts
    }
}
