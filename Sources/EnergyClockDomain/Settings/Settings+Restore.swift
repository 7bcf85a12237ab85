extension Settings {
    /// Settings read back from the store, with what could not be taken over.
    public struct Restored: Sendable {
        /// The settings to run with.
        public var settings: Settings
        /// Stored fields this version does not know (written by a newer one); they are ignored.
        public var unknownFields: [String]
        /// Stored values that no longer pass the checks, and what was used instead.
        public var repairs: [String]
    }

    /// Reads stored settings leniently: every field that checks out is kept, an unknown field is
    /// ignored and an invalid value falls back to its default, each reported.
    ///
    /// A restart must never refuse what the daemon itself once accepted, nor what a newer version
    /// wrote; MQTT updates, in contrast, are refused whole for any of these (``SettingsPatch``).
    /// The stored form has no size limit of its own: the field limits keep it small.
    public static func restore(json: String, sources: [String]) -> Restored {
        var restored = Restored(settings: .defaults, unknownFields: [], repairs: [])
        guard case let .object(members)? = JSONValue.parse(Array(json.utf8)) else {
            restored.repairs.append("the stored settings are not a JSON object; using the defaults")
            return restored
        }
        for (name, value) in members.sorted(by: { $0.key < $1.key }) {
            guard let field = SettingsField(rawValue: name) else {
                restored.unknownFields.append(name)
                continue
            }
            do {
                restored.settings[field] = try field.validate(value, sources: sources, plain: false)
            } catch {
                restored.repairs.append("\(error); using the default \(Settings.defaults.describe(field))")
            }
        }
        var settings = restored.settings
        for (name, job) in settings.jobs.sorted(by: { $0.key < $1.key }) {
            if let problem = settings.problem(of: job) {
                settings.jobs[name] = nil
                restored.repairs.append("job \(name): \(problem); left it out")
            }
        }
        // Each repair removes one problem; the few kinds there are bound the loop.
        for _ in 0..<8 {
            guard let problem = settings.crossFieldProblem() else { break }
            switch problem {
            case .thresholdsNotIncreasing(_, _, _, "co2_"):
                settings.co2Thresholds = Settings.defaults.co2Thresholds
                restored.repairs.append("\(problem); using the default thresholds")
            case .thresholdsNotIncreasing:
                settings.thresholds = Settings.defaults.thresholds
                restored.repairs.append("\(problem); using the default thresholds")
            case .notAllowed(field: SettingsField.signal.rawValue, _):
                settings.signal = .price
                restored.repairs.append("\(problem); showing prices")
            case .notAllowed(field: SettingsField.forecastStep.rawValue, _):
                settings.forecastStep = Settings.defaults.forecastStep
                restored.repairs.append("\(problem); using the default \(Settings.defaults.forecastStep)")
            case .notAllowed(field: SettingsField.fallbackSources.rawValue, _):
                settings.fallbackSources.removeAll { $0 == settings.source }
                restored.repairs.append("\(problem); left \(settings.source) out of fallback_sources")
            default:
                settings.jobs = [:]
                restored.repairs.append("\(problem); left the jobs out")
            }
        }
        restored.settings = settings
        return restored
    }

    /// One field's value as JSON text, for messages.
    func describe(_ field: SettingsField) -> String {
        var w = JSONWriter()
        w.beginObject()
        write(field, to: &w)
        w.endObject()
        return w.output
    }
}
