/// Why a settings update was refused; the text is what the user reads on `settings/result`.
@nonexhaustive
public enum SettingsError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The payload is not valid JSON.
    case badJSON
    /// An object in the payload names this key (with the keys around it) twice.
    case duplicateKey(String)
    /// The payload is larger than allowed.
    case tooLarge(bytes: Int, limit: Int)
    /// `settings/set` wants an object.
    case notAnObject(found: String)
    /// A field name that does not exist.
    case unknownField(String)
    /// The update names no field at all.
    case empty
    /// A value of the wrong JSON type.
    case wrongType(field: String, expected: String, found: String)
    /// A number that is NaN or infinite.
    case nonFinite(field: String)
    /// A value outside its allowed range.
    case outOfRange(field: String, value: String, allowed: String)
    /// A word that is not one of the choices.
    case invalidChoice(field: String, value: String, allowed: [String])
    /// After merging, green < yellow < orange does not hold.
    case thresholdsNotIncreasing(green: Double, yellow: Double, orange: Double, prefix: String = "")
    /// A field that may not be changed remotely.
    case notAllowed(field: String, reason: String)
    /// The store could not save the settings; nothing changed.
    case persistFailed(String)
    /// A profile cannot be created, found or removed as asked.
    case profile(String, reason: String)
    /// A refusal within the settings of the named profile.
    indirect case inProfile(String, SettingsError)

    /// The name of the case, e.g. `badJSON`: refusals of one kind are logged together.
    public var kind: String {
        switch self {
        case .badJSON: "badJSON"
        case .duplicateKey: "duplicateKey"
        case .tooLarge: "tooLarge"
        case .notAnObject: "notAnObject"
        case .unknownField: "unknownField"
        case .empty: "empty"
        case .wrongType: "wrongType"
        case .nonFinite: "nonFinite"
        case .outOfRange: "outOfRange"
        case .invalidChoice: "invalidChoice"
        case .thresholdsNotIncreasing: "thresholdsNotIncreasing"
        case .notAllowed: "notAllowed"
        case .persistFailed: "persistFailed"
        case .profile: "profile"
        case let .inProfile(_, error): error.kind
        }
    }

    /// A clear, actionable reason.
    public var description: String {
        switch self {
        case .badJSON: "payload is not valid JSON"
        case let .duplicateKey(path):
            "the key \"\(Quote.clip(path))\" is given twice; which one was meant is unclear, so nothing was changed (give each key once)"
        case let .tooLarge(bytes, limit): "payload of \(bytes) bytes is larger than the limit of \(limit) bytes"
        case let .notAnObject(found): "settings/set takes a JSON object, got \(found)"
        case let .unknownField(name):
            "unknown field \"\(Quote.clip(name))\"; known fields: \(SettingsField.allCases.map(\.rawValue).joined(separator: ", "))"
        case .empty: "the update names no field"
        case let .wrongType(field, expected, found): "\(Quote.clip(field)) must be \(expected), got \(Quote.clip(found))"
        case let .nonFinite(field): "\(Quote.clip(field)) must be a finite number"
        case let .outOfRange(field, value, allowed): "\(Quote.clip(field)) must be \(allowed), got \(Quote.clip(value))"
        case let .invalidChoice(field, value, allowed):
            "\(Quote.clip(field)) must be one of \(allowed.joined(separator: ", ")), got \"\(Quote.clip(value))\""
        case let .thresholdsNotIncreasing(g, y, o, p):
            "thresholds must increase strictly: \(p)green_max \(DecimalFormat.string(g)) < \(p)yellow_max \(DecimalFormat.string(y)) < \(p)orange_max \(DecimalFormat.string(o)) does not hold"
        case let .notAllowed(field, reason): "\(Quote.clip(field)) refused: \(reason)"
        case let .persistFailed(reason): "settings could not be saved, nothing changed: \(reason)"
        case let .profile(name, reason): "profile \"\(Quote.clip(name))\" refused: \(reason)"
        case let .inProfile(name, error): "profile \"\(Quote.clip(name))\": \(error.description)"
        }
    }
}
