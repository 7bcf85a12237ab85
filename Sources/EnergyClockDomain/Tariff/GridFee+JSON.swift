extension GridFee {
    /// The fee range accepted, per kWh in the user's currency.
    public static let feeRange: ClosedRange<Double> = -1...100
    /// The most periods a schedule may hold.
    public static let maxPeriods = 48
    static let dayNames = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]

    /// Reads and checks a schedule from its JSON form; `field` names it in errors.
    public init(json value: JSONValue, field: String = "grid_fee") throws(SettingsError) {
        guard case let .object(members) = value else {
            throw .wrongType(field: field, expected: "an object like {\"default\":0.05,\"periods\":[…]}", found: value.typeName)
        }
        for name in members.keys.sorted() where name != "default" && name != "periods" {
            throw .notAllowed(field: field, reason: "unknown key \"\(Quote.clip(name, limit: 40))\"; use default and periods")
        }
        let defaultFee = try Self.fee(members["default"] ?? .number(0), field: "\(field).default")
        var periods: [Period] = []
        switch members["periods"] {
        case nil, .null?: break
        case let .array(items)?:
            guard items.count <= Self.maxPeriods else {
                throw .outOfRange(field: "\(field).periods", value: "\(items.count) periods", allowed: "at most \(Self.maxPeriods)")
            }
            for (index, item) in items.enumerated() {
                periods.append(try Self.period(item, field: "\(field).periods[\(index)]"))
            }
        case let other?:
            throw .wrongType(field: "\(field).periods", expected: "an array", found: other.typeName)
        }
        self.init(defaultFee: defaultFee, periods: periods)
    }

    private static func period(_ value: JSONValue, field: String) throws(SettingsError) -> Period {
        guard case let .object(members) = value else { throw .wrongType(field: field, expected: "an object", found: value.typeName) }
        for name in members.keys.sorted() where !["from", "to", "fee", "days", "months"].contains(name) {
            throw .notAllowed(field: field, reason: "unknown key \"\(Quote.clip(name, limit: 40))\"; use from, to, fee, days and months")
        }
        guard let fromValue = members["from"], let toValue = members["to"], let feeValue = members["fee"] else {
            throw .notAllowed(field: field, reason: "a period needs from, to and fee")
        }
        let from = try ClockTime.minutes(fromValue, field: "\(field).from", allowEndOfDay: false)
        let to = try ClockTime.minutes(toValue, field: "\(field).to", allowEndOfDay: true)
        guard from != to % 1440 || (from == 0 && to == 1440) else {
            throw .notAllowed(field: field, reason: "from and to are the same time; use 00:00 to 24:00 for the whole day")
        }
        let days = try filter(members["days"], field: "\(field).days", expected: "a non-empty array of mon…sun") {
            item throws(SettingsError) in
            guard case let .string(name) = item else {
                throw SettingsError.wrongType(field: "\(field).days", expected: "day names (mon…sun)", found: item.typeName)
            }
            guard let day = dayNames.firstIndex(of: name.lowercased()) else {
                throw SettingsError.invalidChoice(field: "\(field).days", value: name, allowed: dayNames)
            }
            return day
        }
        let months = try filter(members["months"], field: "\(field).months", expected: "a non-empty array of 1…12") {
            item throws(SettingsError) in
            guard case let .number(n) = item, n == n.rounded(), (1...12).contains(n) else {
                throw SettingsError.outOfRange(field: "\(field).months", value: item.text, allowed: "whole numbers from 1 to 12")
            }
            return Int(n)
        }
        return Period(from: from, to: to, fee: try fee(feeValue, field: "\(field).fee"), days: days, months: months)
    }

    /// A period's `days` or `months`: nil when absent, else a non-empty list of checked entries.
    private static func filter(
        _ value: JSONValue?, field: String, expected: String, entry: (JSONValue) throws(SettingsError) -> Int
    ) throws(SettingsError) -> Set<Int>? {
        guard let value, value != .null else { return nil }
        guard case let .array(items) = value, !items.isEmpty else {
            throw .wrongType(field: field, expected: expected, found: value.typeName)
        }
        var set = Set<Int>()
        for item in items { set.insert(try entry(item)) }
        return set
    }

    private static func fee(_ value: JSONValue, field: String) throws(SettingsError) -> Double {
        guard case let .number(n) = value else { throw .wrongType(field: field, expected: "a number", found: value.typeName) }
        guard n.isFinite else { throw .nonFinite(field: field) }
        let rounded = DecimalFormat.rounded(n)
        guard feeRange.contains(rounded) else {
            throw .outOfRange(
                field: field, value: Quote.number(n),
                allowed: "between \(DecimalFormat.string(feeRange.lowerBound)) and \(DecimalFormat.string(feeRange.upperBound))")
        }
        return rounded
    }

    /// `HH:MM` as minutes after midnight; `24:00` only where a period ends.
    /// Writes the schedule in the form it is read in.
    package func write(to w: inout JSONWriter) {
        w.beginObject()
        w.field("default", defaultFee)
        w.key("periods")
        w.beginArray()
        for period in periods {
            w.beginObject()
            w.field("from", ClockTime.text(period.from))
            w.field("to", ClockTime.text(period.to))
            w.field("fee", period.fee)
            if let days = period.days {
                w.key("days")
                w.beginArray()
                for day in days.sorted() { w.string(Self.dayNames[day]) }
                w.endArray()
            }
            if let months = period.months {
                w.key("months")
                w.beginArray()
                for month in months.sorted() { w.integer(month) }
                w.endArray()
            }
            w.endObject()
        }
        w.endArray()
        w.endObject()
    }

    /// The schedule as compact JSON.
    public var json: String {
        var w = JSONWriter()
        write(to: &w)
        return w.output
    }
}
