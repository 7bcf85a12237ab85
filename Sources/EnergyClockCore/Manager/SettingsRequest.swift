/// One settings change as received: already parsed, or the reason it could not be.
public struct SettingsRequest: Sendable {
    /// The parsed patch, or the parse error.
    public var patch: Result<SettingsPatch, SettingsError>
    /// Where to answer, if the requester asked for a direct answer.
    public var reply: ReplyRoute?

    /// A request from a parse result.
    public init(patch: Result<SettingsPatch, SettingsError>, reply: ReplyRoute? = nil) {
        self.patch = patch
        self.reply = reply
    }
}
