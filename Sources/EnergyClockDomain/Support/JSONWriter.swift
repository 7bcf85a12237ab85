import FoundationEssentials

/// Builds compact JSON text with keys in the order written and numbers without float noise.
///
/// It writes UTF-8 bytes into a buffer of its own and makes them a string once, at the end: a
/// forecast of two days of quarter hours is some 200 objects, and appended piece by piece to a
/// `String` each piece cost a check of its contents and often a string of its own. The buffer is
/// not an array: a settings change writes some 400 keys and as many values, and each append to an
/// `[UInt8]` checked its uniqueness and capacity through generic code, 100 instructions and more
/// for a few bytes. A writer is used where it is made and never copied, so it owns its bytes.
package struct JSONWriter: ~Copyable {
    /// The bytes written so far: `count` of them, in a buffer of `capacity`.
    private var bytes: UnsafeMutablePointer<UInt8>
    private var count = 0
    private var capacity: Int
    /// Whether the next value at this level follows another and takes a comma.
    private var needsComma = false
    /// The same for each enclosing object or array, innermost last.
    private var outer: [Bool] = []

    /// An empty writer.
    package init() {
        capacity = 512
        bytes = .allocate(capacity: capacity)
    }

    deinit { bytes.deallocate() }

    /// The JSON written so far.
    package var output: String { String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self) }

    /// Where the next `more` bytes go, the buffer grown to hold them; the caller writes them and
    /// adds to ``count``.
    @inline(__always)
    private mutating func room(for more: Int) -> UnsafeMutablePointer<UInt8> {
        if capacity - count < more { grow(toHold: more) }
        return bytes + count
    }

    /// Doubles the buffer until `more` bytes fit after the last.
    @inline(never)
    private mutating func grow(toHold more: Int) {
        var grown = capacity * 2
        while grown - count < more { grown *= 2 }
        let moved = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
        moved.update(from: bytes, count: count)
        bytes.deallocate()
        bytes = moved
        capacity = grown
    }

    /// Room for `more` bytes after the last, to write into; see ``room(for:)``.
    private mutating func space(_ more: Int) -> UnsafeMutableBufferPointer<UInt8> {
        UnsafeMutableBufferPointer(start: room(for: more), count: more)
    }

    private mutating func append(_ byte: UInt8) {
        room(for: 1).pointee = byte
        count += 1
    }

    private mutating func append(_ run: UnsafeBufferPointer<UInt8>) {
        guard let start = run.baseAddress, !run.isEmpty else { return }
        room(for: run.count).update(from: start, count: run.count)
        count += run.count
    }

    private mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { append($0) }
    }

    /// Appends `text` as it is, without escapes.
    private mutating func append(contentsOf text: String) {
        var text = text
        text.withUTF8 { append($0) }
    }

    private mutating func separate() {
        if needsComma { append(UInt8(ascii: ",")) }
        needsComma = true
    }

    /// Writes `"key":` inside an object.
    package mutating func key(_ name: String) {
        separate()
        appendQuoted(name)
        append(UInt8(ascii: ":"))
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
        append(UInt8(ascii: bracket))
        outer.append(needsComma)
        needsComma = false
    }

    private mutating func close(_ bracket: Unicode.Scalar) {
        needsComma = outer.removeLast()
        append(UInt8(ascii: bracket))
    }

    /// Writes a string value.
    package mutating func string(_ value: String?) {
        separate()
        if let value { appendQuoted(value) } else { append("null") }
    }

    /// Writes an instant as a string in `calendar`'s local time with its offset, as
    /// ``ISO8601/local(_:in:)`` does, straight into the text.
    package mutating func time(_ instant: Date?, in calendar: LocalCalendar) {
        guard let instant else { return string(nil) }
        separate()
        let offset = calendar.offset(at: instant)
        // Written in place, quotes included.
        let buffer = space(ISO8601.longest + 2)
        var end = 1
        guard ISO8601.write(instant, offset: offset, to: buffer, at: &end) else {
            return appendQuoted(ISO8601.format(instant, offset: offset))
        }
        buffer[0] = UInt8(ascii: "\"")
        buffer[end] = UInt8(ascii: "\"")
        count += end + 1
    }

    /// Writes a number rounded to at most six decimals (`null` when absent or not finite).
    package mutating func number(_ value: Double?) {
        separate()
        guard let value, value.isFinite else { return append("null") }
        guard let written = DecimalFormat.write(value, to: space(DecimalFormat.longest)) else {
            return append(contentsOf: String(value))
        }
        count += written
    }

    /// Writes an integer.
    package mutating func integer(_ value: Int?) {
        separate()
        append(contentsOf: value.map(String.init) ?? "null")
    }

    /// Writes already-encoded JSON as the next value.
    package mutating func raw(_ json: String) {
        separate()
        append(contentsOf: json)
    }

    /// Writes `true` or `false`.
    package mutating func bool(_ value: Bool) {
        separate()
        append(value ? "true" : "false")
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
        var w = JSONWriter()
        w.appendQuoted(value)
        return w.output
    }

    /// Appends `value` as a JSON string literal.
    private mutating func appendQuoted(_ value: String) {
        append(UInt8(ascii: "\""))
        // Native and small strings, every one the daemon writes, lend their bytes in place; any
        // other is made native first.
        if value.utf8.withContiguousStorageIfAvailable({ appendEscaped($0) }) == nil {
            var value = value
            value.withUTF8 { appendEscaped($0) }
        }
        append(UInt8(ascii: "\""))
    }

    /// Appends `bytes` with JSON's escapes: each run of bytes that needs none is copied whole, most
    /// strings (every key, most values) in one copy.
    private mutating func appendEscaped(_ bytes: UnsafeBufferPointer<UInt8>) {
        var start = 0
        var index = Self.firstEscaped(in: bytes, from: 0)
        while index < bytes.count {
            append(UnsafeBufferPointer(rebasing: bytes[start..<index]))
            let byte = bytes[index]
            append(UInt8(ascii: "\\"))
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): append(byte)
            case UInt8(ascii: "\n"): append(UInt8(ascii: "n"))
            case UInt8(ascii: "\r"): append(UInt8(ascii: "r"))
            case UInt8(ascii: "\t"): append(UInt8(ascii: "t"))
            default:
                append("u00")
                append((byte >> 4).hexDigit(uppercase: false))
                append(byte.hexDigit(uppercase: false))
            }
            start = index + 1
            index = Self.firstEscaped(in: bytes, from: start)
        }
        append(UnsafeBufferPointer(rebasing: bytes[start...]))
    }

    /// The index of the first byte of `bytes` from `start` on that JSON must escape (a control
    /// character, a quote or a backslash), or `bytes.count`.
    ///
    /// Eight bytes at a time: a settings change escapes some ninety strings on its way to the
    /// colour, and a byte at a time the search took ten instructions a byte. In each word, a byte
    /// below 0x20, and a quote or a backslash once XORed to zero, set their high bit in a mask
    /// (the classic "has a zero byte" test: subtracting one from each byte borrows through a
    /// zero). A borrow can only mark bytes above a true match, so the lowest marked byte, the
    /// first in memory (the word is read as little-endian), is always one to escape. Bytes of
    /// 0x80 and above, UTF-8's, are never marked.
    private static func firstEscaped(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        guard let base = bytes.baseAddress else { return 0 }
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        var index = start
        while index < bytes.count {
            let rest = bytes.count - index
            var word = ones &* UInt64(UInt8(ascii: "a"))
            if rest >= 8 {
                word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
            } else {
                // The last bytes, after plain ones that are never marked: never a read past the end.
                withUnsafeMutableBytes(of: &word) { $0.copyMemory(from: UnsafeRawBufferPointer(start: base + index, count: rest)) }
            }
            word = UInt64(littleEndian: word)
            let quote = word ^ (ones &* UInt64(UInt8(ascii: "\"")))
            let backslash = word ^ (ones &* UInt64(UInt8(ascii: "\\")))
            let marked =
                ((word &- ones &* 0x20) & ~word | (quote &- ones) & ~quote | (backslash &- ones) & ~backslash) & highs
            if marked != 0 { return index + marked.trailingZeroBitCount / 8 }
            index += 8
        }
        return bytes.count
    }
}
