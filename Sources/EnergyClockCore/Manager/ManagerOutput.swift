/// Where to send the answer to one settings request, besides the common result topic.
public struct ReplyRoute: Sendable, Hashable {
    /// The requester's own reply address.
    public var address: String
    /// Opaque data the requester wants echoed.
    public var correlation: [UInt8]?

    /// A route to `address`, echoing `correlation`.
    public init(address: String, correlation: [UInt8]?) {
        self.address = address
        self.correlation = correlation
    }
}

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

/// The answer to one settings request.
public struct SettingsOutcome: Sendable {
    /// The effective settings after the change, or why the request was refused.
    public var result: Result<Settings, SettingsError>
    /// Where the requester wants the answer.
    public var reply: ReplyRoute?

    /// The outcome as `{"ok":true,"settings":{…}}` or `{"ok":false,"error":"…"}`.
    public var json: String {
        var w = JSONWriter()
        w.beginObject()
        switch result {
        case let .success(settings):
            w.field("ok", true)
            w.key("settings")
            settings.write(to: &w)
        case let .failure(error):
            w.field("ok", false)
            w.field("error", error.description)
        }
        w.endObject()
        return w.output
    }
}

/// The manager's view of the outside world: it hands over state and answers, and knows nothing of MQTT.
public protocol ManagerOutput: Sendable {
    /// Shows `snapshot`; called after every change and at every slot boundary.
    func publish(_ snapshot: Snapshot) async
    /// Answers one settings request.
    func report(_ outcome: SettingsOutcome) async
}
