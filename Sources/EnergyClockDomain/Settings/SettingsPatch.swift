import FoundationEssentials

/// A validated change to some settings fields, ready to fold onto the current settings.
public struct SettingsPatch: Sendable, Hashable {
    /// The new value of each field the update names.
    public var values: [SettingsField: SettingValue]

    /// A patch of the given values.
    public init(_ values: [SettingsField: SettingValue] = [:]) {
        self.values = values
    }

    /// Largest payload accepted on a settings topic, in bytes.
    public static let maxPayloadBytes = 64 * 1024

    /// Parses a `settings/set` payload: a JSON object holding any subset of the fields.
    public static func parse(object payload: [UInt8], sources: [String]) throws(SettingsError) -> SettingsPatch {
        try checkSize(payload)
        let json = try json(payload)
        guard case let .object(members) = json else { throw .notAnObject(found: json.typeName) }
        let patch = try SettingsPatch(members: members, sources: sources)
        guard !patch.values.isEmpty else { throw .empty }
        return patch
    }

    /// The fields of a parsed JSON object, each checked; an empty object is an empty patch.
    init(members: [String: JSONValue], sources: [String]) throws(SettingsError) {
        values = [:]
        // Sorted so that the first error named is the same on every run.
        for (name, value) in members.sorted(by: { $0.key < $1.key }) {
            guard let field = SettingsField(rawValue: name) else { throw .unknownField(name) }
            values[field] = try field.validate(value, sources: sources, plain: false)
        }
    }

    /// Parses a `settings/<field>/set` payload: a plain value such as `relative`, `"relative"`, `0.12` or `7`.
    public static func parse(field name: String, plain payload: [UInt8], sources: [String]) throws(SettingsError) -> SettingsPatch {
        try checkSize(payload)
        guard let field = SettingsField(rawValue: name) else { throw .unknownField(name) }
        let value: JSONValue
        if let json = JSONValue.parse(payload) {
            value = json
        } else if let key = JSONValue.duplicateKey(in: payload) {
            throw .duplicateKey(key)
        } else {
            let text = String(decoding: payload, as: UTF8.self).trimmed
            value = .string(text)
        }
        return SettingsPatch([field: try field.validate(value, sources: sources, plain: true)])
    }

    /// `payload` as JSON, or why it is not: a key named twice is named.
    static func json(_ payload: [UInt8]) throws(SettingsError) -> JSONValue {
        if let json = JSONValue.parse(payload) { return json }
        throw JSONValue.duplicateKey(in: payload).map(SettingsError.duplicateKey) ?? .badJSON
    }

    static func checkSize(_ payload: [UInt8]) throws(SettingsError) {
        guard payload.count <= maxPayloadBytes else { throw .tooLarge(bytes: payload.count, limit: maxPayloadBytes) }
    }
}

extension Settings {
    /// These settings with `patch` applied, or the reason it cannot apply to them.
    ///
    /// Each field was checked on its own when the patch was parsed; here the rules that
    /// span fields are checked against the merged result.
    public func merged(_ patch: SettingsPatch) throws(SettingsError) -> Settings {
        var next = self
        for (field, value) in patch.values { next[field] = value }
        if let problem = next.crossFieldProblem() { throw problem }
        // Thresholds in the old currency would read as the new one: 0.10 EUR is not 0.10 SEK.
        if next.currency != currency, next.colorMode == .absolute,
            ![SettingsField.greenMax, .yellowMax, .orangeMax].allSatisfy({ patch.values[$0] != nil })
        {
            throw .notAllowed(
                field: SettingsField.currency.rawValue,
                reason:
                    "the thresholds are absolute and in \(currency); set green_max, yellow_max and orange_max in \(next.currency) "
                    + "in the same update, or switch color_mode to relative first")
        }
        return next
    }

    /// The first rule spanning several fields that these settings break, if any.
    func crossFieldProblem() -> SettingsError? {
        if let problem = thresholds.increasingProblem(prefix: "") ?? co2Thresholds.increasingProblem(prefix: "co2_") { return problem }
        if signal != .price, carbonSourceName.isEmpty {
            let what = signal == .co2 ? "the intensity" : "the traffic light"
            return .notAllowed(
                field: SettingsField.signal.rawValue,
                reason: "a \(signal.rawValue) profile shows \(what) of a carbon_source; set one in the same update")
        }
        guard !fallbackSources.contains(source) else {
            return .notAllowed(
                field: SettingsField.fallbackSources.rawValue,
                reason: "\(source) is the chosen source and cannot be its own fallback; remove it from fallback_sources first")
        }
        guard [15, 30, 60].contains(forecastStep) else {
            return .notAllowed(field: SettingsField.forecastStep.rawValue, reason: "the step is 15, 30 or 60 minutes, got \(forecastStep)")
        }
        return jobsProblem()
    }

    /// Why `job` cannot run as set on this profile, or nil: its own fields, then what it minimises.
    func problem(of job: Job) -> String? { job.problem() ?? objectiveProblem(of: job) }

    /// Why `job` cannot minimise what it names on this profile, or nil.
    func objectiveProblem(of job: Job) -> String? {
        switch (job.minimise, signal) {
        case (.price?, .co2), (.co2Price?, .co2):
            "a co2 profile shows no price: its jobs minimise the intensity (minimise co2, or leave it out)"
        case (_?, .grid):
            "a grid profile shows a traffic light: its jobs choose the lowest steps (leave minimise out)"
        case (.co2?, .price) where carbonSourceName.isEmpty, (.co2Price?, .price) where carbonSourceName.isEmpty:
            "minimise \(job.minimise!.rawValue) needs the profile's carbon_source (and carbon_area) to know each slot's intensity"
        default: nil
        }
    }

    /// The first job that cannot run as set, or too many jobs.
    func jobsProblem() -> SettingsError? {
        guard jobs.count <= Job.maxCount else {
            return .outOfRange(field: SettingsField.jobs.rawValue, value: "\(jobs.count) jobs", allowed: "at most \(Job.maxCount)")
        }
        for (name, job) in jobs.sorted(by: { $0.key < $1.key }) {
            if let problem = problem(of: job) { return .notAllowed(field: "jobs.\(name)", reason: problem) }
        }
        return nil
    }
}
