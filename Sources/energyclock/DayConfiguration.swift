import EnergyClockDomain
import FoundationEssentials

/// What `energyclock prices`, `clock` and `render` are given by their options and the
/// environment: the shared part, and which day, source and profile to show, and how.
struct DayConfiguration {
    var common: CommonConfiguration
    /// The day asked for with `--date`; nil for today (and tomorrow, for `prices`).
    var date: LocalDay?
    /// The source asked for with `--source` instead of the chosen one.
    var source: String?
    /// The profile to show (`--profile`); nil for the first.
    var profile: String?
    /// `prices`: print JSON instead of a table.
    var json: Bool
    /// `clock` and `render`: draw tomorrow instead of today.
    var tomorrow: Bool
    /// `render`: where the SVG and the PNG go, `-` for standard output.
    var svgPath: String?
    var pngPath: String?

    /// The options of `energyclock prices`.
    static let pricesSpecs =
        [DayOptions.json.spec, DayOptions.date.spec, DayOptions.source.spec, DayOptions.profile.spec] + CommonConfiguration.specs
    /// The options of `energyclock clock`.
    static let clockSpecs = [DayOptions.tomorrow.spec, DayOptions.date.spec, DayOptions.profile.spec] + CommonConfiguration.specs
    /// The options of `energyclock render`.
    static let renderSpecs = [DayOptions.svg.spec, DayOptions.png.spec] + clockSpecs

    /// Reads and checks the options of a one-shot command, which logs only warnings and errors
    /// unless `--log-level` says otherwise, so that what it prints stands alone.
    init(_ options: ParsedOptions, environment: [String: String]) throws(UsageError) {
        common = try CommonConfiguration(options, environment: environment, quiet: true)
        source = try options.value(DayOptions.source)
        profile = try options.value(DayOptions.profile)
        if let text = try options.value(DayOptions.date) {
            guard let day = LocalDay(parsing: text) else {
                throw UsageError("\(options.origin(DayOptions.date)) must be a date as YYYY-MM-DD, got \"\(text)\"")
            }
            date = day
        }
        json = try options.value(DayOptions.json)
        tomorrow = try options.value(DayOptions.tomorrow)
        svgPath = try options.value(DayOptions.svg)
        pngPath = try options.value(DayOptions.png)
        if svgPath == "-" && pngPath == "-" { throw UsageError("--svg and --png cannot both go to standard output") }
    }
}
