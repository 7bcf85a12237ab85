import EnergyClockDomain
import FoundationEssentials

/// One command-line option as the parser and the help see it, also readable from
/// `ENERGYCLOCK_<NAME>`; made by an ``Option`` declaration, which also reads its value.
struct OptionSpec: Sendable {
    /// The flag without dashes, e.g. `mqtt-host`.
    let name: String
    /// Placeholder for the value in help, or nil for a boolean switch.
    let value: String?
    /// What it does, and the range of its value.
    let about: String
    /// The default as the help shows it, or nil for none.
    var shownDefault: String?
    /// May be given more than once; the environment variable then holds a comma-separated list.
    var repeatable = false

    /// A spec whose help text says everything, its default included.
    init(name: String, value: String?, help: String, shownDefault: String? = nil, repeatable: Bool = false) {
        self.name = name
        self.value = value
        about = help
        self.shownDefault = shownDefault
        self.repeatable = repeatable
    }

    /// The help line: what it does, then its default.
    var help: String { shownDefault.map { "\(about) (default: \($0))" } ?? about }

    /// `ENERGYCLOCK_` + the name in upper case with `_` for `-`.
    var environmentName: String { "ENERGYCLOCK_" + name.uppercased().replacing("-", with: "_") }
}

/// A command-line mistake; the program prints it and exits with status 2.
struct UsageError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// The options a command accepts, and the values given for them by flag or environment.
struct ParsedOptions {
    private var values: [String: String] = [:]
    private var lists: [String: [String]] = [:]
    private var origins: [String: String] = [:]

    /// Parses `arguments` against `specs`; a flag beats the environment.
    init(arguments: [String], specs: [OptionSpec], environment: [String: String]) throws(UsageError) {
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            guard argument.hasPrefix("--"), argument.count > 2 else {
                throw UsageError("unexpected argument \"\(argument)\"; options start with --")
            }
            let body = argument.dropFirst(2)
            let name = String(body.split(separator: "=", maxSplits: 1).first ?? "")
            if name == "mqtt-password" {
                throw UsageError(
                    "--mqtt-password is not accepted: a password on the command line is visible to every user; use --mqtt-password-file or ENERGYCLOCK_MQTT_PASSWORD"
                )
            }
            guard let spec = specs.first(where: { $0.name == name }) else {
                throw UsageError("unknown option --\(name); see --help")
            }
            if let equals = body.firstIndex(of: "=") {
                // A switch may be spelled out, `--mqtt-tls=false`; ``flag(_:)`` checks the word.
                values[name] = String(body[body.index(after: equals)...])
                lists[name, default: []].append(values[name]!)
            } else if spec.value == nil {
                values[name] = "true"
            } else {
                guard index < arguments.count else { throw UsageError("--\(name) needs a value (\(spec.value!))") }
                values[name] = arguments[index]
                lists[name, default: []].append(arguments[index])
                index += 1
            }
            origins[name] = "--\(name)"
        }
        for spec in specs where values[spec.name] == nil {
            if let value = environment[spec.environmentName] {
                values[spec.name] = value
                origins[spec.name] = spec.environmentName
                if spec.repeatable {
                    // A piece without a colon (`leds=60`, `reverse`) belongs to the entry before it,
                    // so `wled-ring:wled/ring,leds=60,json:home/light` is two lights.
                    var entries: [String] = []
                    for piece in value.split(separator: ",").map({ $0.trimmed }) where !piece.isEmpty {
                        if !piece.contains(":"), !entries.isEmpty {
                            entries[entries.count - 1] += "," + piece
                        } else {
                            entries.append(piece)
                        }
                    }
                    lists[spec.name] = entries
                }
            }
        }
    }

    /// The value of `name`, if given.
    subscript(name: String) -> String? { values[name] }

    /// Every value of a repeatable option, in order.
    func all(_ name: String) -> [String] { lists[name] ?? [] }

    /// Where the value of `name` came from, for error messages.
    func origin(_ name: String) -> String { origins[name] ?? "--\(name)" }

    /// Whether the option `name` has a value from a flag, the environment or the options file.
    func isGiven(_ name: String) -> Bool { values[name] != nil }

    /// A boolean switch: set by the flag, or by `true`/`1`/`yes` in the environment.
    func flag(_ name: String) throws(UsageError) -> Bool {
        guard let value = values[name] else { return false }
        switch value.lowercased() {
        case "true", "1", "yes", "on": return true
        case "false", "0", "no", "off", "": return false
        default: throw UsageError("\(origin(name)) must be true or false, got \"\(value)\"")
        }
    }

    /// A whole number in `range`, or `fallback` when not given.
    func integer(_ name: String, in range: ClosedRange<Int>, default fallback: Int) throws(UsageError) -> Int {
        guard let text = values[name] else { return fallback }
        guard let number = Int(text), range.contains(number) else {
            throw UsageError("\(origin(name)) must be a whole number from \(range.lowerBound) to \(range.upperBound), got \"\(text)\"")
        }
        return number
    }

    /// A number in `range`, or `fallback` when not given.
    func number(_ name: String, in range: ClosedRange<Double>, default fallback: Double) throws(UsageError) -> Double {
        guard let text = values[name] else { return fallback }
        guard let number = Double(text), number.isFinite, range.contains(number) else {
            throw UsageError("\(origin(name)) must be a number from \(range.lowerBound) to \(range.upperBound), got \"\(text)\"")
        }
        return number
    }

    /// An http(s) URL, or `fallback` when not given.
    func url(_ name: String, default fallback: URL) throws(UsageError) -> URL {
        try url(name) ?? fallback
    }

    /// An http(s) URL, or nil when not given.
    func url(_ name: String) throws(UsageError) -> URL? {
        guard let text = values[name] else { return nil }
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            url.host != nil
        else {
            throw UsageError("\(origin(name)) must be an http:// or https:// URL, got \"\(text)\"")
        }
        return url
    }
}
