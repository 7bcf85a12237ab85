import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
    import EnergyClockTesting
#endif

/// A tiny HTTP/1.1 server on a free loopback port that answers each request from a handler
/// the test can swap at any time (to break and heal a price API).
final class TestHTTPServer: Sendable {
    struct Response: Sendable {
        var status: Int = 200
        var contentType: String = "application/json"
        var body: [UInt8] = []
        /// Seconds to wait before answering.
        var delay: Double = 0
        /// Seconds between body bytes, to drip an answer slowly (a slow-loris body).
        var drip: Double = 0
        /// A `Location` header, for a redirect.
        var location: String?

        static func json(_ body: [UInt8], status: Int = 200) -> Response { Response(status: status, body: body) }
    }

    let port: Int
    private let listener: Int32
    private let handler: Mutex<@Sendable (String) -> Response>
    private let log = Mutex<[String]>([])
    private let headLog = Mutex<[String]>([])

    init(handler: @escaping @Sendable (String) -> Response) throws {
        self.handler = Mutex(handler)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EIO) }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 16) == 0 else {
            close(fd)
            throw POSIXError(.EADDRINUSE)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        listener = fd
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    deinit { stop() }

    var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// Every request target (path and query) received so far.
    var requests: [String] { log.withLock { $0 } }

    /// Every request's head (request line and headers) received so far.
    var heads: [String] { headLog.withLock { $0 } }

    /// Replaces the handler.
    func respond(_ handler: @escaping @Sendable (String) -> Response) { self.handler.withLock { $0 = handler } }

    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    private func acceptLoop() {
        while true {
            let client = accept(listener, nil, nil)
            if client < 0 {
                if errno == EINTR { continue }
                return
            }
            Thread { [self] in serve(client) }.start()
        }
    }

    private func serve(_ client: Int32) {
        defer { close(client) }
        var request: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !request.containsHeaderEnd {
            let n = read(client, &buffer, buffer.count)
            if n <= 0 { return }
            request += buffer[0..<n]
        }
        let line = String(decoding: request.prefix { $0 != 13 }, as: UTF8.self)
        let target = line.split(separator: " ").dropFirst().first.map(String.init) ?? "/"
        log.withLock { $0.append(target) }
        headLog.withLock { $0.append(String(decoding: request, as: UTF8.self)) }
        let response = handler.withLock { $0 }(target)
        if response.delay > 0 { usleep(UInt32(response.delay * 1_000_000)) }
        let location = response.location.map { "Location: \($0)\r\n" } ?? ""
        let head =
            "HTTP/1.1 \(response.status) X\r\nContent-Type: \(response.contentType)\r\nContent-Length: \(response.body.count)\r\n\(location)Connection: close\r\n\r\n"
        guard send(client, Array(head.utf8)) else { return }
        if response.drip > 0 {
            for byte in response.body {
                guard send(client, [byte]) else { return }
                usleep(UInt32(response.drip * 1_000_000))
            }
        } else {
            _ = send(client, response.body)
        }
    }

    /// Writes all of `bytes`; false once the peer has gone (without raising SIGPIPE).
    private func send(_ client: Int32, _ bytes: [UInt8]) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Glibc.send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { return false }
            sent += n
        }
        return true
    }
}

extension [UInt8] {
    fileprivate var containsHeaderEnd: Bool {
        guard count >= 4 else { return false }
        for i in 0...(count - 4) where self[i] == 13 && self[i + 1] == 10 && self[i + 2] == 13 && self[i + 3] == 10 {
            return true
        }
        return false
    }
}
