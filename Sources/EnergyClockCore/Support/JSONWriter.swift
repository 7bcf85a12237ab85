/// Builds compact JSON text with keys in the order written and numbers without float noise.
package struct JSONWriter: Sendable {
    private var text = ""
    private var needsComma: [Bool] = [false]

    /// An empty writer.
    package init() {}

    /// The JSON written so far.
    package var output: String { text }

    private mutating func separate() {
        if needsComma[needsComma.count - 1] { text.append(",") }
        needsComma[needsComma.count - 1] = true
    }

    /// Writes `"key":` inside an object.
    package mutating func key(_ name: String) {
        separate()
        text.append(Self.quoted(name))
        text.append(":")
        needsComma[needsComma.count - 1] = false
    }

    /// Opens an object; close it with ``endObject()``.
    package mutating func beginObject() { open("{") }
    /// Closes the innermost object.
    package mutating func endObject() { close("}") }
    /// Opens an array; close it with ``endArray()``.
    package mutating func beginArray() { open("[") }
    /// Closes the innermost array.
    package mutating func endArray() { close("]") }

    private mutating func open(_ bracket: String) {
        separate()
        text.append(bracket)
        needsComma.append(false)
    }

    private mutating func close(_ bracket: String) {
        needsComma.removeLast()
        text.append(bracket)
    }

    /// Writes a string value.
    package mutating func string(_ value: String?) {
        separate()
        text.append(value.map(Self.quoted) ?? "null")
    }

    /// Writes a number rounded to at most six decimals (`null` when absent or not finite).
    package mutating func number(_ value: Double?) {
        separate()
        text.append(value.flatMap { $0.isFinite ? DecimalFormat.string($0) : nil } ?? "null")
    }

    /// Writes an integer.
    package mutating func integer(_ value: Int?) {
        separate()
        text.append(value.map(String.init) ?? "null")
    }

    /// Writes already-encoded JSON as the next value.
    package mutating func raw(_ json: String) {
        separate()
        text.append(json)
    }

    /// Writes `true` or `false`.
    package mutating func bool(_ value: Bool) {
        separate()
        text.append(value ? "true" : "false")
    }

    /// Writes `key: value` for a string.
    package mutating func field(_ name: String, _ value: String?) {
        key(name)
        string(value)
    }
    /// Writes `key: value` for a number.
    package mutating func field(_ name: String, _ value: Double?) {
        key(name)
        number(value)
    }
    /// Writes `key: value` for an integer.
    package mutating func field(_ name: String, _ value: Int?) {
        key(name)
        integer(value)
    }
    /// Writes `key: value` for a boolean.
    package mutating func field(_ name: String, _ value: Bool) {
        key(name)
        bool(value)
    }

    /// `value` as a JSON string literal.
    package static func quoted(_ value: String) -> String {
        // Most strings (keys, ISO 8601 times, band names) need no escape: copy them whole.
        if !value.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            return "\"" + value + "\""
        }
        var out = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out.append("\\\"")
            case "\\": out.append("\\\\")
            case "\n": out.append("\\n")
            case "\r": out.append("\\r")
            case "\t": out.append("\\t")
            case _ where scalar.value < 0x20:
                out.append("\\u00")
                out.append(pad16(scalar.value))
            default: out.unicodeScalars.append(scalar)
            }
        }
        out.append("\"")
        return out
    }

    private static func pad16(_ v: UInt32) -> String {
        let digits = Array("0123456789abcdef")
        return String([digits[Int(v >> 4)], digits[Int(v & 0xF)]])
    }
}
