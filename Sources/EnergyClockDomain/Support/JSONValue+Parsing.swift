extension JSONValue {
    /// Deepest nesting accepted, so a payload of brackets cannot exhaust the stack.
    static let maxDepth = 256
    /// Most values in one document: an 8 MB answer of `[0,0,0,…]` would otherwise become four
    /// million values and some hundred megabytes. A day-ahead answer holds a few thousand.
    static let maxValues = 1_000_000

    /// Parses `bytes` as exactly one JSON value (RFC 8259); nil when they are not valid JSON, or
    /// nest deeper than ``maxDepth`` or hold more than ``maxValues`` values.
    ///
    /// An object that names a key twice is not valid either: which of the two was meant is
    /// anybody's guess (see ``duplicateKey(in:)`` for which key it was).
    public static func parse(_ bytes: some Collection<UInt8>) -> JSONValue? { read(bytes).value }

    /// The first key an object in `bytes` names twice, with the keys of the objects around it
    /// (`jobs.dishwasher`); nil when there is none, or the bytes are no JSON for another reason.
    public static func duplicateKey(in bytes: some Collection<UInt8>) -> String? { read(bytes).duplicate }

    private static func read(_ bytes: some Collection<UInt8>) -> (value: JSONValue?, duplicate: String?) {
        let buffer = Array(bytes)
        return buffer.withUnsafeBufferPointer { pointer in
            var reader = JSONReader(bytes: pointer)
            guard let value = reader.value(depth: 0) else { return (nil, reader.duplicate) }
            reader.skipSpace()
            return (reader.index == pointer.count ? value : nil, nil)
        }
    }
}

/// A strict recursive-descent JSON reader over UTF-8 bytes.
private struct JSONReader {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0
    var values = 0
    /// The first key named twice, with the keys around it: set where it is found, and each
    /// object the failure passes back through puts its own key in front.
    var duplicate: String?

    init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    mutating func skipSpace() {
        while let c = current, c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 { index += 1 }
    }

    mutating func value(depth: Int) -> JSONValue? {
        values += 1
        guard depth < JSONValue.maxDepth, values <= JSONValue.maxValues else { return nil }
        skipSpace()
        switch current {
        case UInt8(ascii: "{"): return object(depth: depth)
        case UInt8(ascii: "["): return array(depth: depth)
        case UInt8(ascii: "\""): return string().map(JSONValue.string)
        case UInt8(ascii: "t"): return literal("true", .bool(true))
        case UInt8(ascii: "f"): return literal("false", .bool(false))
        case UInt8(ascii: "n"): return literal("null", .null)
        case let c? where c == UInt8(ascii: "-") || (c >= 0x30 && c <= 0x39): return number()
        default: return nil
        }
    }

    private mutating func literal(_ word: StaticString, _ result: JSONValue) -> JSONValue? {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count else { return nil }
        for i in 0..<count where bytes[index + i] != word.utf8Start[i] { return nil }
        index += count
        return result
    }

    private mutating func object(depth: Int) -> JSONValue? {
        index += 1
        var members: [String: JSONValue] = [:]
        skipSpace()
        if current == UInt8(ascii: "}") {
            index += 1
            return .object(members)
        }
        while true {
            skipSpace()
            guard current == UInt8(ascii: "\""), let key = string() else { return nil }
            skipSpace()
            guard current == UInt8(ascii: ":") else { return nil }
            index += 1
            guard let member = value(depth: depth + 1) else {
                if let inner = duplicate { duplicate = key + "." + inner }
                return nil
            }
            // One hash of the key both stores the member and says whether it was there before.
            guard members.updateValue(member, forKey: key) == nil else {
                duplicate = key
                return nil
            }
            skipSpace()
            switch current {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"):
                index += 1
                return .object(members)
            default: return nil
            }
        }
    }

    private mutating func array(depth: Int) -> JSONValue? {
        index += 1
        var items: [JSONValue] = []
        skipSpace()
        if current == UInt8(ascii: "]") {
            index += 1
            return .array(items)
        }
        while true {
            guard let item = value(depth: depth + 1) else { return nil }
            items.append(item)
            skipSpace()
            switch current {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"):
                index += 1
                return .array(items)
            default: return nil
            }
        }
    }

    private mutating func string() -> String? {
        index += 1
        let start = index
        // Fast path: no escapes.
        while let c = current, c != UInt8(ascii: "\""), c != UInt8(ascii: "\\") {
            guard c >= 0x20 else { return nil }
            index += 1
        }
        guard let stop = current else { return nil }
        var scalars = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        if stop == UInt8(ascii: "\"") {
            index += 1
            return scalars
        }
        while let c = current {
            switch c {
            case UInt8(ascii: "\""):
                index += 1
                return scalars
            case UInt8(ascii: "\\"):
                index += 1
                guard let escaped = current else { return nil }
                index += 1
                switch escaped {
                case UInt8(ascii: "\""): scalars.append("\"")
                case UInt8(ascii: "\\"): scalars.append("\\")
                case UInt8(ascii: "/"): scalars.append("/")
                case UInt8(ascii: "b"): scalars.append("\u{8}")
                case UInt8(ascii: "f"): scalars.append("\u{C}")
                case UInt8(ascii: "n"): scalars.append("\n")
                case UInt8(ascii: "r"): scalars.append("\r")
                case UInt8(ascii: "t"): scalars.append("\t")
                case UInt8(ascii: "u"):
                    guard var code = hex4() else { return nil }
                    if (0xD800..<0xDC00).contains(code) {
                        // A high surrogate must be followed by an escaped low one.
                        guard current == UInt8(ascii: "\\"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "u") else {
                            return nil
                        }
                        index += 2
                        guard let low = hex4(), (0xDC00..<0xE000).contains(low) else { return nil }
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let scalar = Unicode.Scalar(code) else { return nil }
                    scalars.unicodeScalars.append(scalar)
                default: return nil
                }
            default:
                guard c >= 0x20 else { return nil }
                let runStart = index
                while let d = current, d != UInt8(ascii: "\""), d != UInt8(ascii: "\\"), d >= 0x20 { index += 1 }
                scalars += String(decoding: UnsafeBufferPointer(rebasing: bytes[runStart..<index]), as: UTF8.self)
            }
        }
        return nil
    }

    private mutating func hex4() -> UInt32? {
        guard index + 4 <= bytes.count else { return nil }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let c = bytes[index]
            let digit: UInt8
            switch c {
            case 0x30...0x39: digit = c - 0x30
            case 0x41...0x46: digit = c - 0x41 + 10
            case 0x61...0x66: digit = c - 0x61 + 10
            default: return nil
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    private mutating func number() -> JSONValue? {
        let start = index
        func digits() -> Int {
            let from = index
            while let c = current, c >= 0x30, c <= 0x39 { index += 1 }
            return index - from
        }
        if current == UInt8(ascii: "-") { index += 1 }
        if current == UInt8(ascii: "0") {
            index += 1
        } else if digits() == 0 {
            return nil
        }
        if current == UInt8(ascii: ".") {
            index += 1
            guard digits() > 0 else { return nil }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            index += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
            guard digits() > 0 else { return nil }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        return Double(text).map(JSONValue.number)
    }
}
