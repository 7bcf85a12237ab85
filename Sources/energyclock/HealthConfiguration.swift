import FoundationEssentials

/// What `energyclock health` is given by its options and the environment: the state directory
/// to look at, and how long the broker may be gone.
struct HealthConfiguration {
    var common: CommonConfiguration
    /// How long the broker may be gone before the daemon counts as unhealthy, in seconds.
    var maxOffline: Double

    /// The options of `energyclock health`.
    static let specs = [HealthOptions.maxOffline.spec] + CommonConfiguration.specs

    /// Reads and checks the options of `health`.
    init(_ options: ParsedOptions, environment: [String: String]) throws(UsageError) {
        common = try CommonConfiguration(options, environment: environment)
        maxOffline = Double(try options.value(HealthOptions.maxOffline))
    }
}
