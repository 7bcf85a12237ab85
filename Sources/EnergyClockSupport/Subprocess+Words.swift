import EnergyClockDomain
import Platform

extension Subprocess.Outcome {
    /// What a helper said on standard error, quoted for an error message: `: ` and one bounded
    /// line of its words (it may have written anything), or nothing when it said nothing.
    package var words: String {
        let said = Quote.clip(String(decoding: errors, as: UTF8.self).trimmed, limit: 300)
        return said.isEmpty ? "" : ": \(said)"
    }
}
