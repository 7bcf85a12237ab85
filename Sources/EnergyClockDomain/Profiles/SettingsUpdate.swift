/// One settings request as edits of profiles, applied in order, all of them or none.
///
/// A request to the first profile's `settings/set` may edit others through a `profiles` member
/// (`{"profiles":{"export":{"kind":"export"},"old":null}}`); one to `<profile>/settings/set`
/// edits that profile, and `null` there removes it.
public struct SettingsUpdate: Sendable, Hashable {
    /// What one edit does to its profile.
    public enum Edit: Sendable, Hashable {
        /// Change the profile's fields, creating it as a copy of the first profile when it does not exist.
        case createOrChange(SettingsPatch)
        /// Change the fields of a profile that must exist.
        case change(SettingsPatch)
        /// Remove the profile, with its topics.
        case remove
    }

    /// One edit of one profile.
    public struct Entry: Sendable, Hashable {
        /// The profile's name.
        public var profile: String
        /// What happens to it.
        public var edit: Edit
    }

    /// The edits, in the order they apply.
    public var entries: [Entry]
    /// The profile the request was sent to; its answer describes it.
    public var addressed: String

    /// A change of `patch`'s fields on `profile` (the first by default), which must exist.
    public init(_ patch: SettingsPatch, profile: String = Profiles.firstName) {
        entries = [Entry(profile: profile, edit: .change(patch))]
        addressed = profile
    }

    /// Edits addressed to `addressed`.
    public init(entries: [Entry], addressed: String) {
        self.entries = entries
        self.addressed = addressed
    }

    /// Parses a JSON object for `profile`'s `settings/set`: its fields, and for the first profile a
    /// `profiles` object of other profiles' fields by name (`null` removes one). For another
    /// profile the object creates it when it is new, and `null` removes it.
    public static func parse(object payload: [UInt8], sources: [String], profile: String = Profiles.firstName) throws(SettingsError)
        -> SettingsUpdate
    {
        guard profile != Profiles.firstName else { return try parseFirst(payload, sources: sources) }
        do throws(SettingsError) {
            try SettingsPatch.checkSize(payload)
            let json = try SettingsPatch.json(payload)
            return SettingsUpdate(entries: [try entry(profile, json, sources: sources)], addressed: profile)
        } catch {
            throw .inProfile(profile, error)
        }
    }

    /// Parses a plain value for `settings/<field>/set` of `profile`, which must exist.
    public static func parse(field name: String, plain payload: [UInt8], sources: [String], profile: String = Profiles.firstName)
        throws(SettingsError) -> SettingsUpdate
    {
        do throws(SettingsError) {
            return SettingsUpdate(try SettingsPatch.parse(field: name, plain: payload, sources: sources), profile: profile)
        } catch {
            throw profile == Profiles.firstName ? error : .inProfile(profile, error)
        }
    }

    /// The first profile's object, with the `profiles` member for the others.
    private static func parseFirst(_ payload: [UInt8], sources: [String]) throws(SettingsError) -> SettingsUpdate {
        try SettingsPatch.checkSize(payload)
        let json = try SettingsPatch.json(payload)
        guard case var .object(members) = json else { throw .notAnObject(found: json.typeName) }
        let nested = members.removeValue(forKey: "profiles")
        let patch = try SettingsPatch(members: members, sources: sources)
        var entries: [Entry] = []
        if !patch.values.isEmpty { entries.append(Entry(profile: Profiles.firstName, edit: .change(patch))) }
        if let nested {
            guard case let .object(others) = nested else {
                throw .wrongType(field: "profiles", expected: "an object of profiles by name", found: nested.typeName)
            }
            guard others.count <= Profiles.limit else {
                throw .outOfRange(field: "profiles", value: "\(others.count) profiles", allowed: "at most \(Profiles.limit) profiles")
            }
            for (name, value) in others.sorted(by: { $0.key < $1.key }) {
                do throws(SettingsError) { entries.append(try entry(name, value, sources: sources)) } catch {
                    throw .inProfile(name, error)
                }
            }
        }
        guard !entries.isEmpty else { throw .empty }
        return SettingsUpdate(entries: entries, addressed: Profiles.firstName)
    }

    /// The edit `json` asks of the profile `name`: an object of fields, or `null` for removal.
    private static func entry(_ name: String, _ json: JSONValue, sources: [String]) throws(SettingsError) -> Entry {
        switch json {
        case .null: return Entry(profile: name, edit: .remove)
        case let .object(members): return Entry(profile: name, edit: .createOrChange(try SettingsPatch(members: members, sources: sources)))
        default: throw .notAnObject(found: json.typeName)
        }
    }

    /// Whether some edit sets `custom_url`, which a daemon may refuse to take over MQTT.
    public var setsCustomURL: Bool {
        entries.contains { entry in
            switch entry.edit {
            case let .change(patch), let .createOrChange(patch): patch.values[.customURL] != nil
            case .remove: false
            }
        }
    }
}
