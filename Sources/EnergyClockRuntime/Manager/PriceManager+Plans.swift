import EnergyClockDomain
import EnergyClockStore
import FoundationEssentials

extension PriceManager {
    /// What `profile`'s jobs may cost when planned now: its own budget, or what the daemon's
    /// leaves after the profiles before it when that is less. Counted from each profile's last
    /// planning, so that a profile's share does not depend on which profiles a change derives.
    func planningAllowance(of profile: String) -> PlanBook.Allowance {
        var before = 0
        for other in profiles.names {
            if other == profile { break }
            before += planBooks[other]?.steps ?? 0
        }
        let left = max(0, PlanBook.daemonBudget - before)
        return left < PlanBook.profileBudget ? PlanBook.Allowance(steps: left, daemon: true) : .profile
    }

    /// Saves the started blocks of every profile whose jobs started one since the last call: after
    /// the snapshots are published, so that the write (with its fsync) never holds up a boundary.
    func savePlans() {
        for name in planBooks.keys where planBooks[name]!.startedChanged {
            planBooks[name]!.startedChanged = false
            do { try store.saveNote(Self.planNote(name), planBooks[name]!.startedLines) } catch { logger.warning("\(error)") }
        }
    }

    /// The store's note that keeps the started blocks of a profile's jobs across a restart.
    static func planNote(_ profile: String) -> String { "plans/\(profile)" }

    /// Logs each job of `snapshot` that becomes unsatisfiable, or whose reason changes, once:
    /// a job refused for its budget at start is named in the log, not only on its plan topic.
    func logPlans(of snapshot: Snapshot) {
        for plan in snapshot.plans {
            let key = "\(snapshot.profile)/\(plan.name)"
            let reason = plan.status == .unsatisfiable ? plan.reason : nil
            guard unsatisfiableLogged[key] != reason else { continue }
            unsatisfiableLogged[key] = reason
            if let reason { logger.warning("\(describe(snapshot.profile))job \(plan.name) cannot be planned: \(reason)") }
        }
    }
}
