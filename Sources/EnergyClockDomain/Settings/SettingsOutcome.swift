/// The answer to one settings request.
public struct SettingsOutcome: Sendable {
    /// The effective settings of the profile the request was sent to after the change (for a
    /// removed profile, the first profile's), or why the request was refused.
    public var result: Result<Settings, SettingsError>
    /// The profile the request was sent to.
    public var profile: String
    /// The request removed that profile.
    public var removed = false
    /// The other profiles the request edited, in its order, with their settings now (nil: removed).
    public var others: [(name: String, settings: Settings?)] = []
    /// Where the requester wants the answer.
    public var reply: ReplyRoute?

    /// The answer `result` about the first profile, to go to `reply` as well as `settings/result`.
    public init(result: Result<Settings, SettingsError>, reply: ReplyRoute?) {
        self.result = result
        self.reply = reply
        profile = Profiles.firstName
    }

    /// The answer to `request`, whose profiles are `result` after the batch.
    package init(_ result: Result<Profiles, SettingsError>, request: SettingsRequest) {
        profile = request.profile
        reply = request.reply
        switch result {
        case let .failure(error):
            self.result = .failure(error)
        case let .success(profiles):
            let update = try? request.update.get()
            removed = profiles[profile] == nil
            self.result = .success(profiles[profile] ?? profiles.first)
            var seen: Set<String> = [profile]
            for entry in update?.entries ?? [] where seen.insert(entry.profile).inserted {
                others.append((entry.profile, profiles[entry.profile]))
            }
        }
    }

    /// The outcome as `{"ok":true,"settings":{…}}` or `{"ok":false,"error":"…"}`; an answer about
    /// another profile than the first names it (`"profile":"export"`), a removal says
    /// `"removed":true`, and the other profiles an update edited follow under `profiles`.
    public var json: String { json(shown: \.shownJSON) }

    /// ``json``, with each settings object written as `shown` renders it (their ``Settings/shownJSON``):
    /// the publisher passes the one it rendered for the `settings` topic, not to write it twice.
    public func json(shown: (Settings) -> String) -> String {
        var w = JSONWriter()
        w.beginObject()
        switch result {
        case let .success(settings):
            w.field("ok", true)
            if profile != Profiles.firstName { w.field("profile", profile) }
            if removed {
                w.field("removed", true)
            } else {
                w.key("settings")
                w.raw(shown(settings))
            }
            if !others.isEmpty {
                w.key("profiles")
                w.beginObject()
                for (name, settings) in others {
                    w.key(name)
                    w.raw(settings.map(shown) ?? "null")
                }
                w.endObject()
            }
        case let .failure(error):
            w.field("ok", false)
            if profile != Profiles.firstName { w.field("profile", profile) }
            w.field("error", error.description)
        }
        w.endObject()
        return w.output
    }
}
