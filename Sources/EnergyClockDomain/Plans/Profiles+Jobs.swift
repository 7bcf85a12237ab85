import FoundationEssentials

extension Profiles {
    /// These profiles with every `once` job that is new or changed since `old` set at `now`, so
    /// that its window is the first to end after that; an unchanged one keeps its time.
    package func anchoringOnceJobs(over old: Profiles, at now: Date) -> Profiles {
        var next = self
        for profile in all where profile.settings.jobs.values.contains(where: { $0.repeats == .once && $0.since == nil }) {
            var settings = profile.settings
            let before = old[profile.name]?.jobs ?? [:]
            for (name, job) in settings.jobs where job.repeats == .once && job.since == nil {
                var earlier = before[name]
                earlier?.since = nil
                settings.jobs[name]!.since = earlier == job ? before[name]!.since ?? now : now
            }
            next.set(profile.name, settings)
        }
        return next
    }
}
