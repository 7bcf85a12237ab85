import FoundationEssentials

/// A change to one job: the fields an update names, each checked; the rest stay as they are
/// (or take the defaults, for a new job). Also the full form of a job, every field set.
public struct JobPatch: Sendable, Hashable {
    /// Minutes the job runs.
    public var duration: Int?
    /// One block or not.
    public var contiguous: Bool?
    /// The shortest block of a non-contiguous job, in minutes.
    public var minBlock: Int?
    /// The earliest start in minutes after midnight: nil leaves it, `.some(nil)` makes the job
    /// run any time in the known prices.
    public var earliest: Int??
    /// The deadline in minutes after midnight: nil leaves it, `.some(nil)` as for ``earliest``.
    public var deadline: Int??
    /// The price limit: nil leaves it, `.some(nil)` removes it.
    public var maxPrice: Double??
    /// Daily or once.
    public var repeats: Job.Repeat?
    /// When a `once` job was set (kept by the store).
    public var since: Date??
    /// Whether it may be planned into the forecast.
    public var useForecast: Bool?
    /// Whether it may run in a forecast slot.
    public var runOnForecast: Bool?
    /// What it minimises: nil leaves it, `.some(nil)` returns to the profile's own values.
    public var minimise: Job.Objective??
    /// The price of a tonne of CO₂: nil leaves it, `.some(nil)` removes it.
    public var co2Price: Double??

    /// The full form of `job`.
    public init(_ job: Job) {
        duration = job.duration
        contiguous = job.contiguous
        minBlock = job.minBlock
        earliest = .some(job.window?.earliest)
        deadline = .some(job.window?.deadline)
        maxPrice = .some(job.maxPrice)
        repeats = job.repeats
        since = .some(job.since)
        // Written only when on: a job that does not use the forecast reads as it always did.
        useForecast = job.useForecast ? true : nil
        runOnForecast = job.runOnForecast ? true : nil
        minimise = job.minimise.map { .some($0) }
        co2Price = job.co2Price.map { .some($0) }
    }

    /// The keys of a job's JSON object.
    static let keys = [
        "duration", "contiguous", "min_block", "earliest", "deadline", "max_price", "repeat", "since", "use_forecast", "run_on_forecast",
        "minimise", "co2_price",
    ]

    /// Reads and checks a job's JSON object; `field` (`jobs.<name>`) names it in errors.
    init(json value: JSONValue, field: String) throws(SettingsError) {
        guard case let .object(members) = value else {
            throw .wrongType(
                field: field, expected: "an object like {\"duration\":120,\"deadline\":\"07:00\"}, or null", found: value.typeName)
        }
        for name in members.keys.sorted() where !Self.keys.contains(name) {
            throw .notAllowed(
                field: field, reason: "unknown key \"\(Quote.clip(name, limit: 40))\"; use \(Self.keys.joined(separator: ", "))")
        }
        if let v = members["duration"] { duration = try Self.minutes(v, field: "\(field).duration", in: 1...Job.maxDuration) }
        if let v = members["min_block"] { minBlock = try Self.minutes(v, field: "\(field).min_block", in: 0...Job.maxDuration) }
        for (key, path) in [("contiguous", \JobPatch.contiguous), ("use_forecast", \.useForecast), ("run_on_forecast", \.runOnForecast)] {
            guard let v = members[key] else { continue }
            guard case let .bool(flag) = v else { throw .wrongType(field: "\(field).\(key)", expected: "true or false", found: v.text) }
            self[keyPath: path] = flag
        }
        for (key, path) in [("earliest", \JobPatch.earliest), ("deadline", \JobPatch.deadline)] {
            switch members[key] {
            case nil: break
            case .null?: self[keyPath: path] = .some(nil)
            case let value?: self[keyPath: path] = .some(try ClockTime.minutes(value, field: "\(field).\(key)", allowEndOfDay: false))
            }
        }
        switch members["max_price"] {
        case nil: break
        case .null?: maxPrice = .some(nil)
        case let .number(n)? where n.isFinite && (-10...10).contains(n): maxPrice = .some(DecimalFormat.rounded(n))
        case let other?: throw .outOfRange(field: "\(field).max_price", value: other.text, allowed: "a number between -10 and 10, or null")
        }
        switch members["minimise"] {
        case nil: break
        case .null?: minimise = .some(nil)
        case let .string(text)? where Job.Objective(rawValue: text) != nil: minimise = .some(Job.Objective(rawValue: text))
        case let other?:
            throw .invalidChoice(field: "\(field).minimise", value: other.text, allowed: Job.Objective.allCases.map(\.rawValue) + ["null"])
        }
        switch members["co2_price"] {
        case nil: break
        case .null?: co2Price = .some(nil)
        case let .number(n)? where n.isFinite && (0...10_000).contains(n): co2Price = .some(DecimalFormat.rounded(n))
        case let other?: throw .outOfRange(field: "\(field).co2_price", value: other.text, allowed: "a number from 0 to 10000, or null")
        }
        if let v = members["repeat"] {
            guard case let .string(text) = v, let rule = Job.Repeat(rawValue: text) else {
                throw .invalidChoice(field: "\(field).repeat", value: v.text, allowed: Job.Repeat.allCases.map(\.rawValue))
            }
            repeats = rule
        }
        switch members["since"] {
        case nil: break
        case .null?: since = .some(nil)
        case let .string(text)?:
            guard let instant = ISO8601.parse(text).flatMap({ Bounded.instant(secondsSince1970: $0.timeIntervalSince1970) }) else {
                throw .wrongType(field: "\(field).since", expected: "an RFC 3339 time, or null", found: Quote.json(text, limit: 40))
            }
            since = .some(instant)
        case let other?: throw .wrongType(field: "\(field).since", expected: "an RFC 3339 time, or null", found: other.text)
        }
    }

    private static func minutes(_ value: JSONValue, field: String, in range: ClosedRange<Int>) throws(SettingsError) -> Int {
        guard case let .number(n) = value, let minutes = Bounded.integer(n, in: range) else {
            throw .outOfRange(
                field: field, value: value.text, allowed: "a whole number of minutes from \(range.lowerBound) to \(range.upperBound)")
        }
        return minutes
    }

    /// `job` with this patch applied; a new job (nil) starts from a daily job of no duration,
    /// which ``Job/problem()`` refuses unless the patch gives one.
    func applied(to job: Job?) -> Job {
        var next = job ?? Job(duration: 0, window: nil)
        if let duration { next.duration = duration }
        if let contiguous { next.contiguous = contiguous }
        if let minBlock { next.minBlock = minBlock }
        // Either end may change alone; null for either means any time. A job without a window
        // that is given only one end has its other end at midnight.
        if earliest == .some(nil) || deadline == .some(nil) {
            next.window = nil
        } else if earliest != nil || deadline != nil {
            next.window = Job.Window(
                earliest: (earliest ?? nil) ?? next.window?.earliest ?? 0, deadline: (deadline ?? nil) ?? next.window?.deadline ?? 0)
        }
        if let maxPrice { next.maxPrice = maxPrice }
        if let repeats { next.repeats = repeats }
        if let useForecast { next.useForecast = useForecast }
        if let runOnForecast { next.runOnForecast = runOnForecast }
        if let minimise { next.minimise = minimise }
        if let co2Price { next.co2Price = co2Price }
        // A changed once job is a new one: it is anchored again when committed.
        if let since { next.since = since } else if next != job { next.since = nil }
        return next
    }

    /// Writes the fields this patch sets, as a JSON object.
    func write(to w: inout JSONWriter) {
        w.beginObject()
        if let duration { w.field("duration", duration) }
        if let contiguous { w.field("contiguous", contiguous) }
        if let minBlock { w.field("min_block", minBlock) }
        if let earliest { w.field("earliest", earliest.map(ClockTime.text)) }
        if let deadline { w.field("deadline", deadline.map(ClockTime.text)) }
        if let maxPrice { w.field("max_price", maxPrice) }
        if let repeats { w.field("repeat", repeats.rawValue) }
        if let since, let instant = since { w.field("since", ISO8601.utc(instant)) }
        if let useForecast { w.field("use_forecast", useForecast) }
        if let runOnForecast { w.field("run_on_forecast", runOnForecast) }
        if let minimise { w.field("minimise", minimise?.rawValue) }
        if let co2Price { w.field("co2_price", co2Price) }
        w.endObject()
    }
}
