/// Addresses shown without their secrets: wherever a URL appears in a topic, an answer, a log
/// line or `--help`, it goes through ``redacted(_:)``.
///
/// A `custom_url` such as `https://user:password@host/prices?api_key=…` is the user's to give, but
/// the settings as the daemon shows them are read by everyone who may read its outputs.
package enum URLRedaction {
    /// What stands in for a secret.
    package static let mask = "[redacted]"

    /// Words that make a query parameter's name look like it carries a secret, compared with the
    /// name lower-cased and with `-` and `_` taken out (`api_key`, `X-Api-Key`, `securityToken`).
    static let secretWords = ["token", "key", "secret", "pass", "pwd", "auth", "sig", "credential", "session", "code"]

    /// `url` with its user information (`user:password@`) and the values of secret-looking query
    /// parameters replaced by `[redacted]`. Names are compared after percent-decoding, so an
    /// encoded `api%5Fkey` is caught too. Text that is no URL comes back unchanged.
    package static func redacted(_ url: String) -> String {
        // Without an `@` or a `?` there is nothing to redact: the usual address, shown with the
        // settings three times a change, is not taken apart.
        guard url.utf8.contains(where: { $0 == UInt8(ascii: "@") || $0 == UInt8(ascii: "?") }) else { return url }
        guard let schemeEnd = url.firstRange(of: "://") else { return url }
        var head = String(url[..<schemeEnd.upperBound])
        var rest = Substring(url[schemeEnd.upperBound...])
        // The authority ends at the first `/`, `?` or `#`; user information before its last `@`.
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
        if let at = rest[..<authorityEnd].lastIndex(of: "@") {
            head += mask + "@"
            rest = rest[rest.index(after: at)...]
        }
        guard let query = rest.firstIndex(of: "?") else { return head + rest }
        let fragmentStart = rest[query...].firstIndex(of: "#") ?? rest.endIndex
        let pairs = rest[rest.index(after: query)..<fragmentStart].split(separator: "&", omittingEmptySubsequences: false)
        let cleaned = pairs.map { pair -> String in
            guard let equals = pair.firstIndex(of: "=") else { return String(pair) }
            let name = pair[..<equals]
            return isSecret(name) ? name + "=" + mask : String(pair)
        }
        return head + rest[...query] + cleaned.joined(separator: "&") + rest[fragmentStart...]
    }

    /// Whether a query parameter called `name` (as written in the URL) looks like a secret.
    static func isSecret(_ name: Substring) -> Bool {
        let plain = percentDecoded(name).lowercased().filter { $0 != "_" && $0 != "-" && $0 != "." }
        return secretWords.contains { plain.contains($0) }
    }

    /// `text` with `%XX` escapes decoded and `+` as a space; malformed escapes are kept as written.
    package static func percentDecoded(_ text: some StringProtocol) -> String {
        var bytes: [UInt8] = []
        var iterator = Array(text.utf8)[...]
        while let byte = iterator.popFirst() {
            if byte == UInt8(ascii: "%"), iterator.count >= 2, let high = SecretRedaction.hexDigit(iterator[iterator.startIndex]),
                let low = SecretRedaction.hexDigit(iterator[iterator.startIndex + 1])
            {
                bytes.append(high << 4 | low)
                iterator = iterator.dropFirst(2)
            } else {
                bytes.append(byte == UInt8(ascii: "+") ? 0x20 : byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
