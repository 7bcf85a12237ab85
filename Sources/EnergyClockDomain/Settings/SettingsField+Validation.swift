import FoundationEssentials

extension SettingsField {
    /// Checks `value` against this field's kind; `plain` also accepts numbers written as strings.
    func validate(_ value: JSONValue, sources: [String], plain: Bool) throws(SettingsError) -> SettingValue {
        switch kind {
        case let .choice(words):
            let allowed = words.isEmpty ? sources : words
            guard case let .string(text) = value else {
                throw .wrongType(field: rawValue, expected: "a string", found: value.typeName)
            }
            guard allowed.contains(text) else { throw .invalidChoice(field: rawValue, value: text, allowed: allowed) }
            return .text(text)
        case let .number(range):
            // Rounded to the six decimals it is stored and published with, before any check, so
            // what is acknowledged is exactly what a restart restores.
            let given = try numeric(value, plain: plain)
            let number = DecimalFormat.rounded(given)
            guard range.contains(number) else {
                throw .outOfRange(
                    field: rawValue, value: Quote.number(given),
                    allowed: "between \(DecimalFormat.string(range.lowerBound)) and \(DecimalFormat.string(range.upperBound))")
            }
            return .number(number)
        case .provider:
            guard case let .string(text) = value else {
                throw .wrongType(field: rawValue, expected: "a provider's name, or an empty string", found: value.typeName)
            }
            if !text.isEmpty, let problem = Self.providerNameProblem(text) { throw .notAllowed(field: rawValue, reason: problem) }
            return .text(text)
        case .sourceList, .providerList:
            let names: [JSONValue]
            switch value {
            case let .array(items): names = items
            case let .string(text) where plain:
                // `settings/fallback_sources/set` also takes `entsoe,energycharts`; empty clears the list.
                let trimmed = text.trimmed
                names =
                    trimmed.isEmpty
                    ? []
                    : trimmed.split(separator: ",", omittingEmptySubsequences: false).map {
                        .string($0.trimmed)
                    }
            default: throw .wrongType(field: rawValue, expected: "an array of source names", found: value.typeName)
            }
            var list: [String] = []
            for name in names {
                guard case let .string(text) = name else {
                    throw .wrongType(field: rawValue, expected: "an array of source names", found: "an array holding \(name.typeName)")
                }
                guard !text.isEmpty else { throw .notAllowed(field: rawValue, reason: "the list has an empty entry") }
                if kind == .providerList {
                    if let problem = Self.providerNameProblem(text) { throw .notAllowed(field: rawValue, reason: problem) }
                } else {
                    guard sources.contains(text) else { throw .invalidChoice(field: rawValue, value: text, allowed: sources) }
                }
                guard !list.contains(text) else { throw .notAllowed(field: rawValue, reason: "\(text) is listed twice") }
                list.append(text)
            }
            return .list(list)
        case .url:
            guard case let .string(text) = value else {
                throw .wrongType(field: rawValue, expected: "a string", found: value.typeName)
            }
            guard text.utf8.count <= Self.maxURLBytes else {
                throw .outOfRange(
                    field: rawValue, value: Quote.json(URLRedaction.redacted(text), limit: 60),
                    allowed: "at most \(Self.maxURLBytes) bytes long")
            }
            guard text.isEmpty || Self.isSourceURL(text) else {
                throw .outOfRange(
                    field: rawValue, value: Quote.json(URLRedaction.redacted(text)),
                    allowed: "an http://, https:// or file:// URL, or empty")
            }
            return .text(text)
        case .productCode:
            guard case let .string(text) = value else {
                throw .wrongType(field: rawValue, expected: "a string", found: value.typeName)
            }
            let allowed = text.utf8.allSatisfy { (0x41...0x5A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x2D }
            guard (1...40).contains(text.utf8.count), allowed else {
                throw .outOfRange(
                    field: rawValue, value: Quote.json(text, limit: 60),
                    allowed: "1 to 40 capital letters, digits and hyphens, e.g. AGILE-24-10-01")
            }
            return .text(text)
        case .area:
            // A plain `70173` or `13` is an area, not a number: postcodes and region ids are digits.
            var value = value
            if plain, case let .number(number) = value, let whole = Bounded.integer(number, in: 0...999_999_999_999) {
                value = .string(String(whole))
            }
            guard case let .string(text) = value else {
                throw .wrongType(field: rawValue, expected: "a string", found: value.typeName)
            }
            let allowed = text.utf8.allSatisfy { (0x41...0x5A).contains($0 & 0xDF) || (0x30...0x39).contains($0) }
            guard text.utf8.count <= 16, allowed else {
                throw .outOfRange(
                    field: rawValue, value: Quote.json(text, limit: 40),
                    allowed: "at most 16 letters and digits, e.g. GB, 13, RG41, DK1, DE or 70173")
            }
            return .text(text)
        case .palette:
            var colors: [Band: RGBColor] = [:]
            for (band, entry) in try bandMap(value, plain: plain, expected: "an object of band colours like {\"green\":\"#00FF00\"}") {
                guard case let .string(text) = entry, let color = RGBColor(hex: text) else {
                    throw .wrongType(field: "\(rawValue).\(band.rawValue)", expected: "a colour as #RRGGBB", found: entry.text)
                }
                colors[band] = color
            }
            return .colors(colors)
        case .brightness:
            var levels: [Band: Int?] = [:]
            for (band, entry) in try bandMap(value, plain: plain, expected: "an object of band levels like {\"green\":64}") {
                switch entry {
                case .null:
                    levels[band] = .some(nil)
                case let .number(n) where n == n.rounded() && (0...255).contains(n):
                    levels[band] = Int(n)
                case let .string(text) where plain && Int(text).map({ (0...255).contains($0) }) == true:
                    levels[band] = Int(text)
                default:
                    throw .outOfRange(
                        field: "\(rawValue).\(band.rawValue)", value: entry.text, allowed: "a whole number from 0 to 255, or null")
                }
            }
            return .levels(levels)
        case .flag:
            switch value {
            case let .bool(flag): return .flag(flag)
            case let .string(text) where plain && ["true", "on", "1"].contains(text.lowercased()): return .flag(true)
            case let .string(text) where plain && ["false", "off", "0"].contains(text.lowercased()): return .flag(false)
            default: throw .wrongType(field: rawValue, expected: "true or false", found: value.text)
            }
        case .jobs:
            var json = value
            if case let .string(text) = value, plain, let parsed = JSONValue.parse(Array(text.utf8)) { json = parsed }
            guard case let .object(members) = json else {
                throw .wrongType(
                    field: rawValue, expected: "an object of jobs by name, like {\"dishwasher\":{\"duration\":120}}", found: json.typeName)
            }
            guard members.count <= Job.maxCount else {
                throw .outOfRange(field: rawValue, value: "\(members.count) jobs", allowed: "at most \(Job.maxCount)")
            }
            var changes: [String: JobPatch?] = [:]
            for (name, entry) in members.sorted(by: { $0.key < $1.key }) {
                if let problem = JobName.problem(with: name) { throw .notAllowed(field: rawValue, reason: problem) }
                changes[name] = entry == .null ? .some(nil) : try JobPatch(json: entry, field: "\(rawValue).\(name)")
            }
            return .jobs(changes)
        case .gridFee:
            if case let .string(text) = value, plain, let json = JSONValue.parse(Array(text.utf8)) {
                return .gridFee(try GridFee(json: json, field: rawValue))
            }
            return .gridFee(try GridFee(json: value, field: rawValue))
        case let .integer(range):
            let number = try numeric(value, plain: plain)
            guard number == number.rounded() else {
                throw .wrongType(field: rawValue, expected: "a whole number", found: Quote.number(number))
            }
            guard number >= Double(range.lowerBound), number <= Double(range.upperBound) else {
                throw .outOfRange(
                    field: rawValue, value: Quote.number(number),
                    allowed: "a whole number from \(range.lowerBound) to \(range.upperBound)")
            }
            return .integer(Int(number))
        }
    }

    /// A band-keyed object, or in plain form `band=value,band=value`.
    private func bandMap(_ value: JSONValue, plain: Bool, expected: String) throws(SettingsError) -> [(Band, JSONValue)] {
        var members: [String: JSONValue]
        switch value {
        case let .object(object): members = object
        case let .string(text) where plain:
            members = [:]
            for pair in text.split(separator: ",") {
                let parts = pair.split(separator: "=", maxSplits: 1).map { $0.trimmed }
                guard parts.count == 2 else { throw .wrongType(field: rawValue, expected: expected, found: Quote.json(text)) }
                members[parts[0]] = parts[1] == "null" ? .null : .string(parts[1])
            }
        default:
            throw .wrongType(field: rawValue, expected: expected, found: value.typeName)
        }
        return try members.sorted { $0.key < $1.key }.map { (key, entry) throws(SettingsError) in
            guard let band = Band(rawValue: key) else {
                throw .invalidChoice(field: rawValue, value: key, allowed: Band.allCases.map(\.rawValue))
            }
            return (band, entry)
        }
    }

    /// The longest `custom_url` accepted, in bytes; it keeps every accepted state small enough to store and read back.
    public static let maxURLBytes = 2048

    /// Whether `text` is an absolute `http`, `https` or `file` URL.
    static func isSourceURL(_ text: String) -> Bool {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased() else { return false }
        switch scheme {
        case "http", "https": return url.host?.isEmpty == false
        case "file": return url.path.hasPrefix("/")
        default: return false
        }
    }

    private func numeric(_ value: JSONValue, plain: Bool) throws(SettingsError) -> Double {
        let number: Double
        switch value {
        case let .number(n):
            number = n
        case let .string(text) where plain:
            // `nan`, `inf` and `1e400` are numbers that are not finite; `0x1p3` and `1_0` are no number.
            if let n = Double(text), !n.isFinite, !text.lowercased().contains("x") { throw .nonFinite(field: rawValue) }
            guard let n = Bounded.decimal(text) else {
                throw .wrongType(field: rawValue, expected: "a number", found: Quote.json(text))
            }
            number = n
        default:
            throw .wrongType(field: rawValue, expected: "a number", found: value.typeName)
        }
        guard number.isFinite else { throw .nonFinite(field: rawValue) }
        return number
    }

    /// Why `text` cannot name a provider, or nil: 1 to 24 lower-case letters, digits and hyphens,
    /// the most a ``SourceName`` holds. Whether a provider of that name exists the catalog says.
    static func providerNameProblem(_ text: String) -> String? {
        let allowed = text.utf8.allSatisfy { (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x2D }
        guard (1...SourceName.capacity).contains(text.utf8.count), allowed else {
            return
                "\(Quote.json(text, limit: 40)) is no provider's name: 1 to \(SourceName.capacity) lower-case letters, digits and hyphens"
        }
        return nil
    }
}
