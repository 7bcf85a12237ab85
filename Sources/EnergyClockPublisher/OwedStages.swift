import EnergyClockDomain

/// What a publisher still owes after showing what describes now of a settings change: the
/// remaining ``PublisherState/Stage``s of the newest snapshot of each profile, and the answers that
/// wait for them.
///
/// A newer snapshot of a profile replaces the one owed and starts the stages again, so that
/// changes coming faster than the day goes out render it once, for the newest; only the topics
/// that differ from what the broker holds go out.
struct OwedStages {
    /// The newest snapshot of each profile owed, in the order the profiles first came.
    private(set) var snapshots: [Snapshot] = []
    /// Where in ``PublisherState/Stage/all`` the next stage is.
    private var next = 0
    /// Answers to settings requests, oldest first, that go out once nothing else is owed: an
    /// answer never comes before the `settings` topic shows what it answers.
    private var answers: [SettingsOutcome] = []

    /// How many answers wait.
    var answersHeld: Int { answers.count }

    /// Whether no stage is owed.
    var isEmpty: Bool { snapshots.isEmpty }

    /// The stage to show next, nil when none is owed.
    var stage: PublisherState.Stage? { snapshots.isEmpty ? nil : PublisherState.Stage.all[next] }

    /// Owes every stage of `newer`, each replacing what is owed of its profile.
    mutating func add(_ newer: [Snapshot]) {
        for snapshot in newer {
            if let index = snapshots.firstIndex(where: { $0.profile == snapshot.profile }) {
                snapshots[index] = snapshot
            } else {
                snapshots.append(snapshot)
            }
        }
        if !newer.isEmpty { next = 0 }
    }

    /// Owes nothing more of the profiles in `names`: they were shown whole, or removed.
    mutating func drop(_ names: some Sequence<String>) {
        let names = Set(names)
        snapshots.removeAll { names.contains($0.profile) }
        if snapshots.isEmpty { next = 0 }
    }

    /// The stage ``stage`` names was shown.
    mutating func advance() {
        next += 1
        if next == PublisherState.Stage.all.count {
            snapshots.removeAll()
            next = 0
        }
    }

    /// Keeps `outcome` until nothing is owed; false when nothing is, and it may go now.
    mutating func hold(_ outcome: SettingsOutcome) -> Bool {
        guard !isEmpty else { return false }
        answers.append(outcome)
        return true
    }

    /// The answers kept, once nothing is owed; they are no longer kept.
    mutating func takeAnswers() -> [SettingsOutcome] {
        guard isEmpty, !answers.isEmpty else { return [] }
        defer { answers.removeAll() }
        return answers
    }
}
