import EnergyClockStore
import FoundationEssentials

/// `energyclock health`: whether the daemon on a state directory runs, is connected and keeps publishing.
enum HealthCommand {
    /// Prints `healthy: …` and returns 0, or `unhealthy: …` and returns 1.
    static func run(_ config: HealthConfiguration) -> Int32 {
        let verdict = check(config)
        print(verdict.problem.map { "unhealthy: \($0)" } ?? "healthy: \(verdict.detail)")
        return verdict.problem == nil ? 0 : 1
    }

    static func check(_ config: HealthConfiguration) -> (problem: String?, detail: String) {
        guard let directory = try? StateDirectory(path: config.common.stateDirectory.path) else {
            return ("the state directory \(config.common.stateDirectory.path) cannot be used", "")
        }
        guard StateLock.isHeld(directory) else { return ("no energyclock runs on \(directory.path)", "") }
        guard let record = HealthRecord.read(from: directory) else { return ("the daemon has not reported yet", "") }
        let now = Date()
        if let problem = record.problem(at: now, maxOffline: config.maxOffline) { return (problem, "") }
        let state = record.connected ? "connected\(record.broker.map { " to \($0)" } ?? "")" : "reconnecting"
        let published = record.publishedAt.map { ", last published \(Int(now.timeIntervalSince($0))) s ago" } ?? ""
        return (nil, "\(state) for \(Int(now.timeIntervalSince(record.since))) s\(published)")
    }
}
