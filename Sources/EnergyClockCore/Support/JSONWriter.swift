import FoundationEssentials

/// Builds compact JSON text with keys in the order written and numbers without float noise.
///
/// It writes UTF-8 bytes and makes them a string once, at the end: a forecast of two days of
/// quarter hours is some 200 objects, and appended piece by piece to a `String` each piece cost
/// a check of its contents and often a string of its own.
package struct JSONWriter: Sendable {
    private var text: [UInt8] = []
    /// Whether the next value at this level follows another and takes a comma.
    private var needsComma = false
    /// The same for each enclosing object or array, innermost last.
    private var outer: [Bool] = []

    /// An empty writer.
    package init() {}

    /// The JSON written so far.
    package var output: String { String(decoding: text, as: UTF8.self) }

    private mutating func separate() {
        if needsComma { text.append(UInt8(ascii: ",")) }
        needsComma = true
    }

    /// Writes `"key":` inside an object.
    package mutating func key(_ name: String) {
        separate()
        Self.appendQuoted(name, to: &text)
        text.append(UInt8(ascii: ":"))
        needsComma = false
    }

    /// Opens an object; close it with ``endObject()``.
    package mutating func beginObject() { open("{") }
    /// Closes the innermost object.
    package mutating func endObject() { close("}") }
    /// Opens an array; close it with ``endArray()``.
    package mutating func beginArray() { open("[") }
    /// Closes the innermost array.
    package mutating func endArray() { close("]") }

    private mutating func open(_ bracket: Unicode.Scalar) {
        separate()
        text.append(UInt8(ascii: bracket))
        outer.append(needsComma)
        needsComma = false
    }

    private mutating func close(_ bracket: Unicode.Scalar) {
        needsComma = outer.removeLast()
        text.append(UInt8(ascii: bracket))
    }

    /// Writes a string value.
    package mutating func string(_ value: String?) {
        separate()
        if let value { Self.appendQuoted(value, to: &text) } else { text.append(contentsOf: "null".utf8) }
    }

    /// Writes an instant as a string in `calendar`'s local time with its offset, as
    /// ``ISO8601/local(_:in:)`` does, straight into the text.
    package mutating func time(_ instant: Date?, in calendar: LocalCalendar) {
        guard let instant else { return string(nil) }
        separate()
        let offset = calendar.offset(at: instant)
        // Written on the stack and appended in one copy, quotes included.
        let written = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: ISO8601.longest + 2) { buffer in
            var end = 1
            guard ISO8601.write(instant, offset: offset, to: buffer, at: &end) else { return false }
            buffer[0] = UInt8(ascii: "\"")
            buffer[end] = UInt8(ascii: "\"")
            text.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[...end]))
            return true
        }
        if !written { Self.appendQuoted(ISO8601.format(instant, offset: offset), to: &text) }
    }

    /// Writes a number rounded to at most six decimals (`null` when absent or not finite).
    package mutating func number(_ value: Double?) {
        separate()
        guard let value, value.isFinite else { return text.append(contentsOf: "null".utf8) }
        DecimalFormat.append(value, to: &text)
    }

    /// Writes an integer.
    package mutating func integer(_ value: Int?) {
        separate()
        text.append(contentsOf: (value.map(String.init) ?? "null").utf8)
    }

    /// Writes already-encoded JSON as the next value.
    package mutating func raw(_ json: String) {
        separate()
        text.append(contentsOf: json.utf8)
    }

    /// Writes `true` or `false`.
    package mutating func bool(_ value: Bool) {
        separate()
        text.append(contentsOf: (value ? "true" : "false").utf8)
    }

    /// Writes `key: value` for a string.
    package mutating func field(_ name: String, _ value: String?) {
        key(name)
        string(value)
    }
    /// Writes `key: value` for an instant in local time (see ``time(_:in:)``).
    package mutating func field(_ name: String, _ value: Date?, in calendar: LocalCalendar) {
        key(name)
        time(value, in: calendar)
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
        var out: [UInt8] = []
        appendQuoted(value, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends `value` as a JSON string literal to `out`.
    private static func appendQuoted(_ value: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        // Native and small strings, every one the daemon writes, lend their bytes in place; any
        // other is made native first.
        if value.utf8.withContiguousStorageIfAvailable({ appendEscaped($0, to: &out) }) == nil {
            var value = value
            value.withUTF8 { appendEscaped($0, to: &out) }
        }
        out.append(UInt8(ascii: "\""))
    }

    /// Appends `bytes` with JSON's escapes: each run of bytes that needs none is copied whole, most
    /// strings (every key, most values) in one copy.
    private static func appendEscaped(_ bytes: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        func plain(_ byte: UInt8) -> Bool { byte >= 0x20 && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\") }
        var start = 0
        for index in bytes.indices where !plain(bytes[index]) {
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<index]))
            let byte = bytes[index]
            out.append(UInt8(ascii: "\\"))
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): out.append(byte)
            case UInt8(ascii: "\n"): out.append(UInt8(ascii: "n"))
            case UInt8(ascii: "\r"): out.append(UInt8(ascii: "r"))
            case UInt8(ascii: "\t"): out.append(UInt8(ascii: "t"))
            default:
                out.append(contentsOf: "u00".utf8)
                out.append((byte >> 4).hexDigit(uppercase: false))
                out.append(byte.hexDigit(uppercase: false))
            }
            start = index + 1
        }
        out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start...]))
    }
}
