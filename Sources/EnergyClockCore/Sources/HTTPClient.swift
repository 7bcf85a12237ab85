import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A received HTTP answer.
public struct HTTPResponse: Sendable {
    /// Status code.
    public var status: Int
    /// The `Content-Type` header, lower case, without parameters.
    public var contentType: String
    /// The body.
    public var body: [UInt8]
}

/// GET requests with a time-out and a body size limit, for the price sources.
public struct HTTPClient: Sendable {
    /// Longest a request may take from start to last byte, in seconds.
    public var timeout: Double
    /// Largest body accepted, in bytes.
    public var maxBodyBytes: Int
    private let session: URLSession

    /// A client with the given limits.
    public init(timeout: Double = 20, maxBodyBytes: Int = 8 << 20) {
        self.timeout = timeout
        self.maxBodyBytes = maxBodyBytes
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.timeoutIntervalForResource = timeout
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.httpAdditionalHeaders = ["User-Agent": "energyclock/\(EnergyClockVersion.string)"]
        session = URLSession(configuration: configuration)
    }

    /// Fetches `url`; errors name `source` and never include the query string, which may hold a token.
    public func get(_ url: URL, source: String) async throws(SourceError) -> HTTPResponse {
        var request = URLRequest(url: url)
        request.setValue("application/json, application/xml;q=0.9, */*;q=0.5", forHTTPHeaderField: "Accept")
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await session.data(for: request)
        } catch let error as URLError where error.code == .timedOut {
            throw SourceError(source: source, problem: .timeout(seconds: timeout))
        } catch let error as URLError {
            throw SourceError(source: source, problem: .transport(Self.describe(error)))
        } catch {
            throw SourceError(source: source, problem: .transport("\(type(of: error))"))
        }
        guard data.count <= maxBodyBytes else { throw SourceError(source: source, problem: .tooLarge(limit: maxBodyBytes)) }
        let http = response as? HTTPURLResponse
        let type = (http?.value(forHTTPHeaderField: "Content-Type") ?? "")
            .split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        return HTTPResponse(status: http?.statusCode ?? 0, contentType: type, body: [UInt8](data))
    }

    private static func describe(_ error: URLError) -> String {
        switch error.code {
        case .cannotConnectToHost: "connection refused"
        case .cannotFindHost, .dnsLookupFailed: "host not found"
        case .networkConnectionLost: "connection lost"
        case .notConnectedToInternet: "no network"
        case .secureConnectionFailed, .serverCertificateUntrusted: "TLS failed"
        default: "URL error \(error.code.rawValue)"
        }
    }
}

/// The version of this build.
public enum EnergyClockVersion {
    /// Semantic version.
    public static let string = "0.1.0"
}
