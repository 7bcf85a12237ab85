import FoundationEssentials

/// A command-line option declared once: its name, placeholder, help, range and default, and how
/// its value is read and checked. The parser, `--help` and the configuration all use this one
/// declaration, so the default in the help is the default in the code.
struct Option<Value>: Sendable {
    /// How the parser and the help see it.
    let spec: OptionSpec
    let read: @Sendable (ParsedOptions) throws(UsageError) -> Value

    /// The flag, `--name`.
    var flag: String { "--\(spec.name)" }
}

extension ParsedOptions {
    /// The checked value of `option`, its default when not given.
    func value<Value>(_ option: Option<Value>) throws(UsageError) -> Value { try option.read(self) }

    /// Whether `option` was given at all, by flag, environment or options file.
    func isGiven<Value>(_ option: Option<Value>) -> Bool { isGiven(option.spec.name) }

    /// Where the value of `option` came from, for error messages.
    func origin<Value>(_ option: Option<Value>) -> String { origin(option.spec.name) }
}

extension Option where Value == Int {
    /// A whole number in `range`, `fallback` when not given.
    static func integer(_ name: String, _ placeholder: String, _ about: String, in range: ClosedRange<Int>, default fallback: Int)
        -> Option
    {
        Option(
            spec: OptionSpec(
                name: name, value: placeholder, help: "\(about), \(range.lowerBound)-\(range.upperBound)", shownDefault: "\(fallback)"),
            read: { options throws(UsageError) in try options.integer(name, in: range, default: fallback) })
    }
}

extension Option where Value == Double {
    /// A number in `range`, `fallback` when not given.
    static func number(_ name: String, _ placeholder: String, _ about: String, in range: ClosedRange<Double>, default fallback: Double)
        -> Option
    {
        func shown(_ x: Double) -> String { x == x.rounded() && abs(x) < 1e15 ? String(Int(x)) : String(x) }
        return Option(
            spec: OptionSpec(
                name: name, value: placeholder, help: "\(about), \(shown(range.lowerBound))-\(shown(range.upperBound))",
                shownDefault: shown(fallback)),
            read: { options throws(UsageError) in try options.number(name, in: range, default: fallback) })
    }
}

extension Option where Value == String {
    /// Text, `fallback` when not given.
    static func text(_ name: String, _ placeholder: String, _ about: String, default fallback: String) -> Option {
        Option(
            spec: OptionSpec(name: name, value: placeholder, help: about, shownDefault: fallback),
            read: { options in options[name] ?? fallback })
    }
}

extension Option where Value == String? {
    /// Text, nil when not given; `shown` says in the help what happens then.
    static func optional(_ name: String, _ placeholder: String, _ about: String, shown: String? = nil) -> Option {
        Option(spec: OptionSpec(name: name, value: placeholder, help: about, shownDefault: shown), read: { options in options[name] })
    }
}

extension Option where Value == Bool {
    /// A switch, `fallback` when not given.
    static func flag(_ name: String, _ about: String, default fallback: Bool = false) -> Option {
        Option(
            spec: OptionSpec(name: name, value: nil, help: about, shownDefault: fallback ? "on" : "off"),
            read: { options throws(UsageError) in options[name] == nil ? fallback : try options.flag(name) })
    }
}

extension Option where Value == Bool? {
    /// A switch whose default depends on other options (`shown` says how); nil when not given.
    static func flag(_ name: String, _ about: String, shown: String) -> Option {
        Option(
            spec: OptionSpec(name: name, value: nil, help: about, shownDefault: shown),
            read: { options throws(UsageError) in options[name] == nil ? nil : try options.flag(name) })
    }
}

extension Option where Value == URL {
    /// An http(s) URL, `fallback` when not given.
    static func url(_ name: String, _ about: String, default fallback: URL) -> Option {
        Option(
            spec: OptionSpec(name: name, value: "URL", help: about, shownDefault: fallback.absoluteString),
            read: { options throws(UsageError) in try options.url(name, default: fallback) })
    }
}

extension Option where Value == URL? {
    /// An http(s) URL, nil when not given.
    static func url(_ name: String, _ about: String) -> Option {
        Option(spec: OptionSpec(name: name, value: "URL", help: about), read: { options throws(UsageError) in try options.url(name) })
    }
}

extension Option where Value == [String] {
    /// Every value of an option that may be given more than once; `shown` says what none means.
    static func list(_ name: String, _ placeholder: String, _ about: String, shown: String? = nil) -> Option {
        Option(
            spec: OptionSpec(name: name, value: placeholder, help: about, shownDefault: shown, repeatable: true),
            read: { options in options.all(name) })
    }
}
