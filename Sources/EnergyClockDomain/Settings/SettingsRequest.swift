/// One settings change as received: already parsed, or the reason it could not be.
public struct SettingsRequest: Sendable {
    /// The parsed update, or the parse error.
    public var update: Result<SettingsUpdate, SettingsError>
    /// The profile the request was sent to, whose answer it gets (also when it did not parse).
    public var profile: String
    /// Where to answer, if the requester asked for a direct answer.
    public var reply: ReplyRoute?

    /// A request from a parse result, sent to `profile`.
    public init(update: Result<SettingsUpdate, SettingsError>, profile: String? = nil, reply: ReplyRoute? = nil) {
        self.update = update
        self.profile = profile ?? ((try? update.get())?.addressed ?? Profiles.firstName)
        self.reply = reply
    }

    /// A request for the first profile's fields from a parse result.
    public init(patch: Result<SettingsPatch, SettingsError>, reply: ReplyRoute? = nil) {
        self.init(update: patch.map { SettingsUpdate($0) }, profile: Profiles.firstName, reply: reply)
    }
}
