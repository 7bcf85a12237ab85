/// Reads the answers out of a VCR cassette (Ruby VCR's YAML): each interaction's
/// `response.body.string`, a YAML single-quoted scalar, unfolded as YAML reads it.
///
/// Only what the recorded cassettes use is understood: `string: '…'` spanning lines, `''` for a
/// quote, a line break between two lines read as a space and an empty line as a newline.
package enum Cassette {
    /// The response bodies of the cassette `text`, in the order recorded.
    package static func responseBodies(_ text: String) -> [[UInt8]] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        var bodies: [[UInt8]] = []
        var inResponse = false
        var index = 0
        while index < lines.count {
            let line = lines[index]
            let trimmed = line.drop { $0 == " " }
            if line.hasPrefix("- request:") { inResponse = false }
            if trimmed.hasPrefix("response:") { inResponse = true }
            if inResponse, trimmed.hasPrefix("string: '") {
                let (value, next) = scalar(lines, from: index, firstLine: trimmed.dropFirst("string: '".count))
                bodies.append(Array(value.utf8))
                inResponse = false
                index = next
                continue
            }
            index += 1
        }
        return bodies
    }

    /// The single-quoted scalar that starts with `firstLine` on line `start`, and the line after it.
    private static func scalar(_ lines: [Substring], from start: Int, firstLine: Substring) -> (String, Int) {
        var pieces: [String] = []
        var index = start
        var current = firstLine
        while true {
            // Find the closing quote: a `'` that is not part of `''`.
            var text = ""
            var closed = false
            var chars = current.makeIterator()
            var pending = chars.next()
            while let char = pending {
                pending = chars.next()
                if char == "'" {
                    if pending == "'" {
                        text.append("'")
                        pending = chars.next()
                    } else {
                        closed = true
                        break
                    }
                } else {
                    text.append(char)
                }
            }
            pieces.append(index == start ? text : String(text.drop { $0 == " " }))
            if closed || index + 1 >= lines.count { break }
            index += 1
            current = lines[index]
        }
        // Fold: a break between two lines is a space; each empty line between them is a newline instead.
        var value = ""
        var breaks = 0
        for (i, piece) in pieces.enumerated() {
            if i > 0 && i < pieces.count - 1 && piece.isEmpty {
                breaks += 1
                continue
            }
            if i > 0 { value += breaks > 0 ? String(repeating: "\n", count: breaks) : " " }
            breaks = 0
            value += piece
        }
        return (value, index + 1)
    }
}
