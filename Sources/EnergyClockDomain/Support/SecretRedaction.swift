/// Finds a secret in text however a server wrote it back, and masks it.
///
/// A server that quotes a request may quote it as it was sent (percent-encoded strictly, see
/// ``QueryString``), decoded, form-encoded (`+` for a space), encoded again (`%252B`), escaped for
/// JSON (`\/`, `\u002B`) or for HTML (`&amp;`, `&#43;`, `&#x2B;`), or any mix of these. Each byte of
/// the secret is matched in any of those forms, so no list of encodings can miss a mixed one; and
/// a secret cut short where the text ends, or where it was cut (`…`), is masked from where it
/// begins.
package enum SecretRedaction {
    /// Secrets shorter than this are not looked for: they would match ordinary words.
    package static let shortest = 4

    /// How much of a secret must be there where a text ends for the rest to be taken as cut off.
    static let shortestCut = 6

    /// `text` with every occurrence of each of `secrets` replaced by ``URLRedaction/mask``.
    package static func redacting(_ secrets: [String?], in text: String) -> String {
        var bytes = Array(text.utf8)
        var changed = false
        for case let secret? in secrets where secret.utf8.count >= shortest {
            let pattern = Array(secret.utf8)
            guard let masked = masking(pattern, in: bytes) else { continue }
            bytes = masked
            changed = true
        }
        return changed ? String(decoding: bytes, as: UTF8.self) : text
    }

    /// `text` with `secret` masked wherever it is found; nil where it is not.
    static func masking(_ secret: [UInt8], in text: [UInt8]) -> [UInt8]? {
        var out: [UInt8] = []
        var found = false
        var i = 0
        let mask = Array(URLRedaction.mask.utf8)
        while i < text.count {
            if let end = match(secret, in: text, at: i) {
                out += mask
                i = end
                found = true
            } else {
                out.append(text[i])
                i += 1
            }
        }
        return found ? out : nil
    }

    /// Where an encoding of `secret` that starts at `start` ends (the longest), or nil. Every form
    /// each byte may take is followed at once, as a small automaton: no backtracking, however a
    /// text is made.
    static func match(_ secret: [UInt8], in text: [UInt8], at start: Int) -> Int? {
        var positions = [start]
        for (index, byte) in secret.enumerated() {
            var next: [Int] = []
            for position in positions {
                for end in forms(of: byte, in: text, at: position) where !next.contains(end) { next.append(end) }
            }
            if next.isEmpty {
                // The text was cut inside the secret (`…`, as ``Quote/clip(_:limit:)`` cuts): what
                // came of it is masked. Where the text just ends, only a longer beginning is: a
                // word that ends a text may share a letter or two with a secret.
                guard index > 0 else { return nil }
                if let cut = positions.filter({ text[$0...].starts(with: "…".utf8) }).max() { return cut }
                guard index >= min(shortestCut, secret.count) else { return nil }
                return positions.contains(text.count) ? text.count : nil
            }
            positions = next
        }
        return positions.max()
    }

    /// The ends of every form `byte` takes in `text` at `position`.
    static func forms(of byte: UInt8, in text: [UInt8], at position: Int) -> [Int] {
        guard position < text.count else { return [] }
        var ends: [Int] = []
        let head = text[position]
        if head == byte { ends.append(position + 1) }
        if byte == UInt8(ascii: " "), head == UInt8(ascii: "+") { ends.append(position + 1) }
        switch head {
        case UInt8(ascii: "%"):
            // %XX, and %25XX for a text encoded twice.
            if hexByte(text, position + 1) == byte { ends.append(position + 3) }
            if hexByte(text, position + 1) == UInt8(ascii: "%"), hexByte(text, position + 3) == byte { ends.append(position + 5) }
        case UInt8(ascii: "\\"):
            guard position + 1 < text.count else { break }
            let escaped = text[position + 1]
            if escaped == byte, byte == UInt8(ascii: "/") || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                ends.append(position + 2)
            }
            if escaped == UInt8(ascii: "u"), hexByte(text, position + 2) == 0, hexByte(text, position + 4) == byte {
                ends.append(position + 6)
            }
        case UInt8(ascii: "&"):
            if let end = htmlEntity(text, position, byte) { ends.append(end) }
        default: break
        }
        return ends
    }

    /// The byte written as two hex digits at `position`, either case.
    static func hexByte(_ text: [UInt8], _ position: Int) -> UInt8? {
        guard position + 1 < text.count, let high = hexDigit(text[position]), let low = hexDigit(text[position + 1]) else { return nil }
        return high << 4 | low
    }

    static func hexDigit(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: byte - 0x30
        case 0x41...0x46: byte - 0x41 + 10
        case 0x61...0x66: byte - 0x61 + 10
        default: nil
        }
    }

    /// The end of an HTML character reference for `byte` at `position` (`&amp;`, `&#43;`, `&#x2B;`).
    static func htmlEntity(_ text: [UInt8], _ position: Int, _ byte: UInt8) -> Int? {
        guard let semicolon = text[position...].prefix(10).firstIndex(of: UInt8(ascii: ";")) else { return nil }
        let name = String(decoding: text[(position + 1)..<semicolon], as: UTF8.self)
        let named = [
            "amp": UInt8(ascii: "&"), "lt": UInt8(ascii: "<"), "gt": UInt8(ascii: ">"), "quot": UInt8(ascii: "\""),
            "apos": UInt8(ascii: "'"),
        ]
        if named[name] == byte { return semicolon + 1 }
        guard name.hasPrefix("#") else { return nil }
        let digits = name.dropFirst()
        let value = digits.first == "x" || digits.first == "X" ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits, radix: 10)
        return value == UInt32(byte) && byte < 0x80 ? semicolon + 1 : nil
    }
}
