/// A parsed JSON document that keeps booleans, numbers and strings apart.
public enum JSONValue: Sendable, Hashable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// Any number, read as a `Double`.
    case number(Double)
    /// A string, escapes resolved.
    case string(String)
    /// An array, in order.
    case array([JSONValue])
    /// An object; a key named twice makes a document invalid (see ``parse(_:)``).
    case object([String: JSONValue])

    /// A short text form for error messages: the value of a scalar, else its type.
    public var text: String {
        switch self {
        case let .string(s): Quote.json(s, limit: 60)
        case let .number(n): Quote.number(n)
        case let .bool(b): b ? "true" : "false"
        default: typeName
        }
    }

    /// The value as compact JSON, object keys sorted.
    package var json: String {
        var w = JSONWriter()
        write(to: &w)
        return w.output
    }

    private func write(to w: inout JSONWriter) {
        switch self {
        case .null: w.raw("null")
        case let .bool(b): w.bool(b)
        case let .number(n): w.number(n)
        case let .string(s): w.string(s)
        case let .array(items):
            w.beginArray()
            for item in items { item.write(to: &w) }
            w.endArray()
        case let .object(members):
            w.beginObject()
            for (key, value) in members.sorted(by: { $0.key < $1.key }) {
                w.key(key)
                value.write(to: &w)
            }
            w.endObject()
        }
    }

    /// The JSON type's name, for error messages.
    /// The member `key` of an object; nil for a missing member or a value that is not an object.
    public subscript(key: String) -> JSONValue? {
        if case let .object(members) = self { members[key] } else { nil }
    }

    /// The text of a string; nil for any other value.
    public var string: String? {
        if case let .string(text) = self { text } else { nil }
    }

    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
