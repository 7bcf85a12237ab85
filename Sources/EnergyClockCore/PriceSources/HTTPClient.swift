import CCurl
import FoundationEssentials
import Platform
import Synchronization

/// A received HTTP answer.
public struct HTTPResponse: Sendable {
    /// The HTTP status code, e.g. 200 or 404.
    public var status: Int
    /// The `Content-Type` header, lower case, without parameters.
    public var contentType: String
    /// The body as received, at most the client's size limit.
    public var body: [UInt8]

}

/// HTTP requests over libcurl with a total time-out and a body size limit, for the price sources
/// and InfluxDB.
///
/// Each request runs on its own thread, never on a Swift concurrency thread, and a cancelled
/// task aborts its transfer within a second.
public struct HTTPClient: Sendable {
    /// Longest a request may take from start to last byte, in seconds; this also bounds a slow drip.
    public var timeout: Double
    /// Largest body accepted, in bytes.
    public var maxBodyBytes: Int

    private static let globalInit: Void = {
        curl_global_init(Int(CURL_GLOBAL_DEFAULT))
    }()

    /// A client with the given limits.
    public init(timeout: Double = 20, maxBodyBytes: Int = 8 << 20) {
        self.timeout = timeout
        self.maxBodyBytes = maxBodyBytes
    }

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
        _ = Self.globalInit
        let transfer = Transfer(limit: maxBodyBytes, upload: body, headers: headers)
        let result: Result<HTTPResponse, HTTPError> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let started = DetachedThread.start(name: "http") { [self] in
                    continuation.resume(returning: perform(url, transfer))
                }
                if !started { continuation.resume(returning: .failure(.transport("no thread left for a transfer"))) }
            }
        } onCancel: {
            transfer.cancelled.store(true, ordering: .relaxed)
        }
        return try result.get()
    }

    /// The blocking transfer; runs on its own thread.
    private func perform(_ url: URL, _ transfer: Transfer) -> Result<HTTPResponse, HTTPError> {
        guard let curl = curl_easy_init() else { return .failure(.transport("could not start a transfer")) }
        defer { curl_easy_cleanup(curl) }
        var headers: UnsafeMutablePointer<curl_slist>?
        for header in transfer.headers { headers = curl_slist_append(headers, header) }
        defer { curl_slist_free_all(headers) }
        let context = Unmanaged.passUnretained(transfer).toOpaque()
        ec_setopt_string(curl, CURLOPT_URL, url.absoluteString)
        ec_setopt_string(curl, CURLOPT_PROTOCOLS_STR, "http,https")
        ec_setopt_string(curl, CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
        ec_setopt_long(curl, CURLOPT_FOLLOWLOCATION, 1)
        ec_setopt_long(curl, CURLOPT_MAXREDIRS, 3)
        ec_setopt_long(curl, CURLOPT_NOSIGNAL, 1)
        ec_setopt_long(curl, CURLOPT_TIMEOUT_MS, Int(timeout * 1000))
        ec_setopt_long(curl, CURLOPT_CONNECTTIMEOUT_MS, Int(min(timeout, 10) * 1000))
        ec_setopt_string(curl, CURLOPT_ACCEPT_ENCODING, "")
        ec_setopt_string(curl, CURLOPT_USERAGENT, "energyclock/\(EnergyClockVersion.string)")
        ec_setopt_pointer(curl, CURLOPT_HTTPHEADER, headers.map { UnsafeMutableRawPointer($0) })
        if let upload = transfer.upload {
            ec_setopt_long(curl, CURLOPT_POST, 1)
            ec_setopt_long(curl, CURLOPT_POSTFIELDSIZE, upload.count)
            // COPYPOSTFIELDS copies the body, so no Swift buffer has to outlive this call.
            if upload.isEmpty {
                ec_setopt_string(curl, CURLOPT_COPYPOSTFIELDS, "")
            } else {
                upload.withUnsafeBufferPointer { bytes in
                    _ = ec_setopt_pointer(curl, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: bytes.baseAddress!))
                }
            }
        }
        ec_setopt_write(curl) { data, size, count, user in
            let transfer = Unmanaged<Transfer>.fromOpaque(user!).takeUnretainedValue()
            let length = size * count
            guard transfer.body.count + length <= transfer.limit else {
                transfer.tooLarge = true
                return 0  // Aborts the transfer.
            }
            if let data { transfer.body.append(contentsOf: UnsafeRawBufferPointer(start: data, count: length)) }
            return length
        }
        ec_setopt_pointer(curl, CURLOPT_WRITEDATA, context)
        ec_setopt_long(curl, CURLOPT_NOPROGRESS, 0)
        ec_setopt_progress(curl) { user, _, _, _, _ in
            Unmanaged<Transfer>.fromOpaque(user!).takeUnretainedValue().cancelled.load(ordering: .relaxed) ? 1 : 0
        }
        ec_setopt_pointer(curl, CURLOPT_XFERINFODATA, context)

        let code = curl_easy_perform(curl)
        switch code {
        case CURLE_OK:
            var status = 0
            ec_getinfo_long(curl, CURLINFO_RESPONSE_CODE, &status)
            var type: UnsafePointer<CChar>?
            ec_getinfo_string(curl, CURLINFO_CONTENT_TYPE, &type)
            let contentType =
                type.map { String(cString: $0) }?.split(separator: ";").first
                .map { $0.trimmed.lowercased() } ?? ""
            return .success(HTTPResponse(status: status, contentType: contentType, body: transfer.body))
        case CURLE_WRITE_ERROR where transfer.tooLarge, CURLE_FILESIZE_EXCEEDED:
            return .failure(.tooLarge(limit: maxBodyBytes))
        case CURLE_OPERATION_TIMEDOUT:
            return .failure(.timeout(seconds: timeout))
        case CURLE_ABORTED_BY_CALLBACK:
            return .failure(.cancelled)
        case CURLE_COULDNT_CONNECT:
            return .failure(.transport("connection refused"))
        case CURLE_COULDNT_RESOLVE_HOST:
            return .failure(.transport("host not found"))
        default:
            return .failure(.transport(String(cString: curl_easy_strerror(code))))
        }
    }

    /// State shared with libcurl's callbacks for one transfer.
    private final class Transfer: @unchecked Sendable {
        // `body` and `tooLarge` are touched only by the transfer's own thread.
        var body: [UInt8] = []
        var tooLarge = false
        let limit: Int
        let upload: [UInt8]?
        let headers: [String]
        let cancelled = Atomic<Bool>(false)

        init(limit: Int, upload: [UInt8]?, headers: [String]) {
            self.limit = limit
            self.upload = upload
            self.headers = headers
        }
    }
}
