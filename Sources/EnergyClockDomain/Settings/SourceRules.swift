/// The rules that tie a profile's settings to the sources a daemon knows: that the chosen source
/// and every fallback exist, are usable and serve the chosen zone.
///
/// The domain checks every changed profile against them without knowing any source; the daemon's
/// catalog of sources answers.
public protocol SourceRules: Sendable {
    /// Throws the first reason `settings` break the rules.
    func check(_ settings: Settings) throws(SettingsError)
}
