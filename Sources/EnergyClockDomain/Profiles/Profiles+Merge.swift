extension Profiles {
    /// These profiles with `update` applied, or the first reason one of its edits cannot apply:
    /// then nothing of it applies.
    ///
    /// A new profile starts as a copy of the first profile as it stands at that edit, so that an
    /// export view of the same zone needs only `{"kind":"export"}`. Its name is checked against
    /// ``ProfileName`` and `reserved`; every changed profile is checked against `catalog`.
    public func merged(_ update: SettingsUpdate, reserved: Set<String>, catalog: some SourceRules) throws(SettingsError) -> Profiles {
        var next = self
        for entry in update.entries {
            let name = entry.profile
            let patch: SettingsPatch
            switch entry.edit {
            case .remove:
                guard name != Self.firstName else { throw .profile(name, reason: "the first profile cannot be removed") }
                guard next.contains(name) else { throw .profile(name, reason: "there is no such profile") }
                next.remove(name)
                continue
            case let .change(fields):
                guard next.contains(name) else {
                    throw .profile(name, reason: "there is no such profile; create it with a JSON object on its settings/set topic")
                }
                patch = fields
            case let .createOrChange(fields):
                patch = fields
                if !next.contains(name) {
                    if let problem = ProfileName.problem(with: name, reserved: reserved) { throw .profile(name, reason: problem) }
                    guard next.all.count < Self.limit else { throw .profile(name, reason: "a daemon keeps at most \(Self.limit) profiles") }
                    next.set(name, next.first)
                }
            }
            do throws(SettingsError) {
                let settings = try (next[name] ?? next.first).merged(patch)
                try catalog.check(settings)
                next.set(name, settings)
            } catch {
                throw name == Self.firstName ? error : .inProfile(name, error)
            }
        }
        return next
    }
}
