/// The answer to one settings request.
public struct SettingsOutcome: Sendable {
    /// The effective settings after the change, or why the request was refused.
    public var result: Result<Settings, SettingsError>
    /// Where the requester wants the answer.
    public var reply: ReplyRoute?

    /// The answer `result`, to go to `reply` as well as `settings/result`.
    public init(result: Result<Settings, SettingsError>, reply: ReplyRoute?) {
        self.result = result
        self.reply = reply
    }

    /// The outcome as `{"ok":true,"settings":{…}}` or `{"ok":false,"error":"…"}`.
    public var json: String {
        var w = JSONWriter()
        w.beginObject()
        switch result {
        case let .success(settings):
            w.field("ok", true)
            w.key("settings")
            settings.write(to: &w, shown: true)
        case let .failure(error):
            w.field("ok", false)
            w.field("error", error.description)
        }
        w.endObject()
        return w.output
    }
}
