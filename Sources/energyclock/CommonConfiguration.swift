import EnergyClockDomain
import EnergyClockPublisher
import EnergyClockRuntime
import EnergyClockSources
import EnergyClockStore
import EnergyClockSupport
import FoundationEssentials
import Platform

/// What every command that reads prices is given by its options and the environment: where the
/// store lives, which day is today, how much to log, where each source is and its token, and the
/// settings the command line sets.
struct CommonConfiguration {
    var stateDirectory: URL
    var calendar: LocalCalendar
    var logLevel: LogLevel
    /// The address each source's `--<id>-url` option gave; a source not here uses its default.
    var sourceURLs: [String: URL]
    var tokens: SourceTokens
    var ecbURL: URL
    var fetchTimeout: Double
    var maxBodyBytes: Int
    /// Settings the command line sets (`--custom-url`, `--palette`, `--brightness`), checked here.
    var overrides: SettingsUpdate?

    /// The options every command that reads prices takes.
    static let specs = CommonOptions.specs + SourceOptions.specs + SettingOptions.specs

    /// Reads and checks the shared options.
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
        tokens = SourceTokens(
            entsoe: try Self.secret(
                options, file: SourceOptions.entsoeTokenFile, variable: "ENERGYCLOCK_ENTSOE_TOKEN", environment: environment),
            tibber: try Self.secret(
                options, file: SourceOptions.tibberTokenFile, variable: "ENERGYCLOCK_TIBBER_TOKEN", environment: environment),
            energyforecast: try Self.secret(
                options, file: SourceOptions.energyforecastTokenFile, variable: "ENERGYCLOCK_ENERGYFORECAST_TOKEN",
                environment: environment),
            energypriceforecast: try Self.secret(
                options, file: SourceOptions.energypriceforecastKeyFile, variable: "ENERGYCLOCK_ENERGYPRICEFORECAST_KEY",
                environment: environment))
        fetchTimeout = try options.value(SourceOptions.fetchTimeout)
        maxBodyBytes = try options.value(SourceOptions.maxBodyBytes)
        var given: [(SettingsField, String)] = []
        for (field, option) in [(SettingsField.palette, SettingOptions.palette), (.brightness, SettingOptions.brightness)] {
            if let text = try options.value(option) { given.append((field, text)) }
        }
        if let url = try options.value(SettingOptions.customURL) { given.append((.customURL, JSONWriter.quoted(url))) }
        overrides = nil
        overrides = try Self.patch(given, sources: catalog.ids).map { SettingsUpdate($0) }
    }

    /// The program's logger for `label`: the one place that makes loggers, writing to standard error.
    func logger(_ label: String) -> Logger { Logger(label: label, level: logLevel, handler: StandardErrorLogHandler()) }

    /// The sources this build knows, configured from the options.
    var catalog: SourceCatalog {
        SourceRegistry.catalog(
            baseURLs: sourceURLs, tokens: tokens,
            http: HTTPClient(timeout: fetchTimeout, maxBodyBytes: maxBodyBytes),
            ratesURL: ecbURL)
    }

    /// A manager over the store in `directory`, with the command line's settings applied, polling
    /// as `policy` says.
    func makeManager(
        directory: StateDirectory, output: any ManagerOutput, logger: Logger, policy: RefreshSchedule.Policy = .init()
    ) throws -> PriceManager {
        try PriceManager(
            configuration: .init(calendar: calendar, policy: policy, reservedProfileNames: TopicTree.leaves),
            store: try PriceStore(directory: directory), catalog: catalog, clock: SystemClock(), output: output,
            logger: logger, overrides: overrides
        )
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
}
