import EnergyClockDomain
import EnergyClockSupport
import FoundationEssentials
import Platform

/// A received HTTP answer.
public struct HTTPResponse: Sendable {
    /// The HTTP status code, e.g. 200 or 404.
    public var status: Int
    /// The `Content-Type` header, lower case, without parameters.
    public var contentType: String
    /// The body as received, at most the client's size limit.
    public var body: [UInt8]
}

/// HTTP requests with a total time-out and a body size limit, for the price sources and InfluxDB.
///
/// Each transfer runs in `energyclock-fetch`, a small C program around libcurl started for it,
/// so that the daemon never maps libcurl and the TLS, Kerberos, LDAP and SSH libraries it brings
/// (some 4 MB resident, for a few transfers an hour), and a fault in any of them ends the helper,
/// not the daemon. The helper is held to the time-out and the size limit by libcurl and again by
/// its leash (``Subprocess``); a cancelled task kills it at once.
public struct HTTPClient: Sendable {
    /// Longest a request may take from start to last byte, in seconds; this also bounds a slow drip.
    public var timeout: Double
    /// Largest body accepted, in bytes.
    public var maxBodyBytes: Int
    /// The `energyclock-fetch` program that makes the transfers.
    public var helper: String

    /// A client with the given limits, whose helper is `energyclock-fetch` beside the running program.
    public init(timeout: Double = 20, maxBodyBytes: Int = 8 << 20, helper: String = HTTPClient.helperBesideThisProgram) {
        self.timeout = timeout
        self.maxBodyBytes = maxBodyBytes
        self.helper = helper
    }

    /// `energyclock-fetch` in the running program's directory, where the build and the image put it.
    public static var helperBesideThisProgram: String { Subprocess.besideThisProgram("energyclock-fetch") }

    /// Fetches `url`; errors never include the URL, whose query may hold a token.
    package func get(_ url: URL) async throws(HTTPError) -> HTTPResponse {
        try await send(url, body: nil, headers: ["Accept: application/json, application/xml;q=0.9, */*;q=0.5"])
    }

    /// Fetches `url` with extra `headers` (`Name: value`).
    package func get(_ url: URL, headers: [String]) async throws(HTTPError) -> HTTPResponse {
        try await send(url, body: nil, headers: headers)
    }

    /// POSTs `body` to `url` with extra `headers` (`Name: value`).
    package func post(_ url: URL, body: [UInt8], headers: [String]) async throws(HTTPError) -> HTTPResponse {
        try await send(url, body: body, headers: headers)
    }

    private func send(_ url: URL, body: [UInt8]?, headers: [String]) async throws(HTTPError) -> HTTPResponse {
        let limit = min(max(maxBodyBytes, 0), Self.largestBody)
        let seconds = timeout.isFinite ? min(max(timeout, 0.001), 3600) : 20
        let request = try Self.request(
            url: url.absoluteString, seconds: seconds, maxBodyBytes: limit,
            headers: headers + ["User-Agent: energyclock/\(EnergyClockVersion.string)"], body: body)
        // The helper's own time-out ends it first; the leash is for a helper that hangs regardless.
        let leash = Subprocess.Limits(seconds: seconds + 2, outputBytes: limit + Self.largestHead)
        let outcome = await Subprocess.run(helper, [], input: request, limits: leash, thread: "http")
        switch outcome.ending {
        case .exited(0): return try Self.response(fromHelperOutput: outcome.output, maxBodyBytes: limit, seconds: seconds)
        case .timedOut: throw .timeout(seconds: seconds)
        case .outputTooLarge: throw .tooLarge(limit: limit)
        case .cancelled: throw .cancelled
        case let .notStarted(reason): throw .transport("cannot run \(helper): \(reason)")
        case let .exited(status): throw .transport("\(helper) ended with status \(status)\(outcome.words)")
        case let .signalled(signal): throw .transport("\(helper) was ended by signal \(signal)")
        }
    }
}
