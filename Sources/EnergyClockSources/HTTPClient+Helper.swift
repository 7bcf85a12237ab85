import EnergyClockDomain

/// What the daemon and `energyclock-fetch` say to each other; the C side is described in
/// `Sources/energyclock-fetch/main.c`.
extension HTTPClient {
    /// The largest body any client asks for: 1 GiB, the helper's own bound.
    static let largestBody = 1 << 30
    /// The most the helper writes before the body: its status line and content type line.
    static let largestHead = 512

    /// The request as the helper reads it on standard input: the method and URL, the limits, one
    /// line per header, a blank line, then the body of a POST. Throws for a URL or header that
    /// holds a line break, a carriage return or a NUL, which would change the request's meaning.
    static func request(url: String, seconds: Double, maxBodyBytes: Int, headers: [String], body: [UInt8]?) throws(HTTPError)
        -> [UInt8]
    {
        let milliseconds = Int(min(max(seconds * 1000, 1), 3_600_000).rounded(.up))
        var head = "\(body == nil ? "GET" : "POST") \(url)\ntimeout-ms \(milliseconds)\nmax-body \(maxBodyBytes)\n"
        // Named, never quoted: a URL's query or a header (Authorization) may hold a secret.
        func broken(_ line: String) -> Bool { line.utf8.contains { $0 == 0x0A || $0 == 0x0D || $0 == 0 } }
        if broken(url) { throw .transport("a URL with a line break or a NUL") }
        if let header = headers.first(where: broken) {
            throw .transport("the header \(Quote.clip(String(header.prefix { $0 != ":" }), limit: 40)) has a line break or a NUL")
        }
        for header in headers { head += "header \(header)\n" }
        return Array((head + "\n").utf8) + (body ?? [])
    }

    /// The answer in what the helper wrote: `ok <status>`, the content type and the body, or
    /// `error <kind> <what>`. Anything else, a status that is no three-digit number or a body
    /// over `maxBodyBytes` is refused, since the helper may be broken or replaced. `seconds` is
    /// the time-out the request was given, for the error that reports it.
    public static func response(fromHelperOutput output: [UInt8], maxBodyBytes: Int, seconds: Double) throws(HTTPError)
        -> HTTPResponse
    {
        let head = output.prefix(largestHead)
        guard let firstEnd = head.firstIndex(of: 0x0A) else { throw .transport("the fetch helper wrote no status line") }
        let first = String(decoding: output[..<firstEnd], as: UTF8.self)
        if first.hasPrefix("error ") {
            let rest = first.dropFirst(6)
            let kind = rest.prefix { $0 != " " }
            let what = Quote.clip(String(rest.dropFirst(kind.count).drop { $0 == " " }), limit: 300)
            switch kind {
            case "timeout": throw .timeout(seconds: seconds)
            case "too-large": throw .tooLarge(limit: maxBodyBytes)
            default: throw .transport(what.isEmpty ? "no reason given" : what)
            }
        }
        let digits = first.utf8.dropFirst(3)
        guard first.hasPrefix("ok "), digits.count == 3, digits.allSatisfy({ (0x30...0x39).contains($0) }),
            let status = Int(first.dropFirst(3))
        else { throw .transport("the fetch helper wrote \(Quote.clip(first, limit: 60))") }
        guard let typeEnd = head[(firstEnd + 1)...].firstIndex(of: 0x0A) else { throw .transport("the fetch helper wrote no content type") }
        let type = String(decoding: output[(firstEnd + 1)..<typeEnd], as: UTF8.self)
        let contentType = type.split(separator: ";").first.map { $0.trimmed.lowercased() } ?? ""
        let body = Array(output[(typeEnd + 1)...])
        guard body.count <= maxBodyBytes else { throw .tooLarge(limit: maxBodyBytes) }
        return HTTPResponse(status: status, contentType: contentType, body: body)
    }
}
