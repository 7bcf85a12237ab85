/// A URL's query, each name and value percent-encoded strictly (RFC 3986): every byte but the
/// unreserved `A-Z a-z 0-9 - . _ ~` is written `%XX`.
///
/// Foundation's `URLComponents.queryItems` leaves `+`, `/`, `:`, `@` and more as they are. A
/// server reads a `+` in a query as a space, so an ENTSO-E token `Tk+…` arrived as another token.
package enum QueryString {
    /// `items` as `name=value&…`, in order.
    package static func encoded(_ items: [(name: String, value: String)]) -> String {
        items.map { component($0.name) + "=" + component($0.value) }.joined(separator: "&")
    }

    /// `text` with every byte outside the unreserved set percent-encoded, in upper-case hex.
    package static func component(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            if isUnreserved(byte) {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                out += "%" + String(byte >> 4, radix: 16, uppercase: true) + String(byte & 0xF, radix: 16, uppercase: true)
            }
        }
        return out
    }

    /// Whether `byte` may stand in a query as itself.
    package static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
        case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"): true
        default: false
        }
    }
}
