import EnergyClockDomain
import EnergyClockStore

/// Why a manager could not start.
@nonexhaustive
public enum ManagerError: Error, Sendable, CustomStringConvertible {
    /// The store failed.
    case store(StoreError)
    /// A setting given on the command line fails validation.
    case invalidOverride(SettingsError)

    /// What happened and what to do.
    public var description: String {
        switch self {
        case let .store(error): "\(error)"
        case let .invalidOverride(error): "invalid setting on the command line: \(error)"
        }
    }
}
