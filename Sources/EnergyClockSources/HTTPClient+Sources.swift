import FoundationEssentials

extension HTTPClient {
    /// Fetches `url` for the price source `source`; a failure is that source's failed fetch.
    func get(_ url: URL, for source: String) async throws(SourceError) -> HTTPResponse {
        try await request(for: source) { () async throws(HTTPError) in try await get(url) }
    }

    /// Fetches `url` with extra `headers` for the source or provider `source`.
    func get(_ url: URL, headers: [String], for source: String) async throws(SourceError) -> HTTPResponse {
        try await request(for: source) { () async throws(HTTPError) in try await get(url, headers: headers) }
    }

    /// Posts `body` to `url` for the price source `source`; a failure is that source's failed fetch.
    func post(_ url: URL, body: [UInt8], headers: [String], for source: String) async throws(SourceError) -> HTTPResponse {
        try await request(for: source) { () async throws(HTTPError) in try await post(url, body: body, headers: headers) }
    }

    private func request(
        for source: String, _ send: () async throws(HTTPError) -> HTTPResponse
    ) async throws(SourceError) -> HTTPResponse {
        do {
            return try await send()
        } catch {
            let problem: SourceError.Problem =
                switch error {
                case let .timeout(seconds): .timeout(seconds: seconds)
                case let .transport(reason): .transport(reason)
                case let .tooLarge(limit): .tooLarge(limit: limit)
                case .cancelled: .transport("cancelled")
                }
            throw SourceError(source: source, problem: problem)
        }
    }
}

extension HTTPResponse {
    /// The body when the server named no media type or one that `accepts` takes.
    func body(ifTypeIs accepts: (String) -> Bool, source: String) throws(SourceError) -> [UInt8] {
        guard contentType.isEmpty || accepts(contentType) else { throw SourceError(source: source, problem: .contentType(contentType)) }
        return body
    }

    /// The body when it is JSON (or its media type is not named).
    func jsonBody(source: String) throws(SourceError) -> [UInt8] {
        try body(ifTypeIs: { $0.hasSuffix("json") }, source: source)
    }
}
