/// Makes text that came from outside (payloads, topics, response bodies) safe to quote in a log
/// line or an error: control characters are escaped and long text is cut.
///
/// A value holding a newline must never start a forged log line, and a 60 KiB payload must not
/// be copied into every refusal.
import FoundationEssentials

package enum Quote {
    /// How many bytes of outside text are quoted at most.
    package static let limit = 200

    /// `text` with control characters escaped and, when longer than `limit` bytes, cut there and
    /// followed by `… (N bytes)`.
    ///
    /// The limit holds for the escaped text, so a run of control characters cannot grow past it.
    package static func clip(_ text: String, limit: Int = limit) -> String {
        let escaped = escapingControls(text)
        guard escaped.utf8.count > limit else { return escaped }
        var kept = ""
        var bytes = 0
        for scalar in escaped.unicodeScalars {
            bytes += String(scalar).utf8.count
            guard bytes <= limit else { break }
            kept.unicodeScalars.append(scalar)
        }
        return kept + "… (\(text.utf8.count) bytes)"
    }

    /// `text` with every control character (C0, DEL, C1, line and paragraph separators) written
    /// as an escape such as `\n` or `\u{1B}`.
    package static func escapingControls(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where isControl(scalar): out += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// `text` as a JSON string, control characters escaped and cut like ``clip(_:limit:)``: how a
    /// string from outside is quoted in an error, once.
    package static func json(_ text: String, limit: Int = limit) -> String {
        var w = JSONWriter()
        w.string(text.utf8.count > limit ? String(decoding: text.utf8.prefix(limit), as: UTF8.self) : text)
        return text.utf8.count > limit ? w.output + "… (\(text.utf8.count) bytes)" : w.output
    }

    /// `value` exactly as a user would write it back: `7.0000001` stays `7.0000001` and a whole
    /// number has no fraction; a number too large for a double says so instead of `inf`.
    package static func number(_ value: Double) -> String {
        guard value.isFinite else { return value.isNaN ? "a number that is not a number" : "a number too large to hold" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }

    /// `text` with every occurrence of each secret replaced by `[redacted]`, for text that a server
    /// wrote and may have echoed a token or password into: in any encoding a quoted request may
    /// carry it, the bytes sent included (``SecretRedaction``).
    package static func redacting(_ secrets: [String?], in text: String) -> String {
        SecretRedaction.redacting(secrets, in: text)
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        let v = scalar.value
        return v < 0x20 || (0x7F...0x9F).contains(v) || v == 0x2028 || v == 0x2029
    }
}
