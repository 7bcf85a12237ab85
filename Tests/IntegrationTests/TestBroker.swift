import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
    import EnergyClockTesting
#endif

/// A real mosquitto broker on a free loopback port, stopped when released.
final class TestBroker: Sendable {
    let port: Int
    private let process: ChildProcess
    let directory: URL

    static var executable: String? {
        let paths =
            (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init) + ["/usr/sbin", "/usr/local/sbin"]
        return paths.map { "\($0)/mosquitto" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Starts a broker and waits (without blocking a thread) until it listens.
    static func start(port fixedPort: Int? = nil, extraConfig: String = "") async throws -> TestBroker {
        guard let executable else { throw BrokerError("mosquitto is not installed (apt-get install mosquitto)") }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("energyclock-broker-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for _ in 0..<10 {
            let port = try fixedPort ?? freePort()
            let config = directory.appendingPathComponent("mosquitto.conf")
            try "listener \(port) 127.0.0.1\nallow_anonymous true\npersistence false\n\(extraConfig)\n"
                .write(to: config, atomically: true, encoding: .utf8)
            let process = try ChildProcess(executable, ["-c", config.path])
            if await waitUntilListening(port: port, process: process) {
                return TestBroker(port: port, process: process, directory: directory)
            }
            process.kill()
        }
        throw BrokerError("mosquitto did not start")
    }

    private init(port: Int, process: ChildProcess, directory: URL) {
        self.port = port
        self.process = process
        self.directory = directory
    }

    deinit { stop() }

    /// What the broker logged so far.
    var log: String { process.log }

    /// Kills the broker at once; a test broker has nothing to save.
    func stop() {
        process.kill()
    }

    /// Ports are handed out in sequence from a random start, so parallel tests never race for one.
    ///
    /// They stay below Linux's ephemeral range (32768 and up): a client retrying a port in that
    /// range while no broker listens can be handed that very port as its own and connect to itself,
    /// and the broker started there later cannot bind it.
    private static let nextPort = Mutex(Int.random(in: 10_000...25_000))

    /// The next port in the sequence that nothing listens on.
    static func freePort() throws -> Int {
        for _ in 0..<200 {
            let port = nextPort.withLock { p in
                p = p >= 32_000 ? 10_000 : p + 1
                return p
            }
            if withLoopbackSocket(port: port, bind) { return port }
        }
        throw BrokerError("no free port")
    }

    static func waitUntilListening(port: Int, process: ChildProcess) async -> Bool {
        // A generous deadline: on a loaded machine mosquitto can take seconds to listen.
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            guard process.isRunning else { return false }
            let connected = withLoopbackSocket(port: port, connect)
            // Make sure it is our broker that answers, not one that already held the port.
            if connected {
                try? await Task.sleep(for: .milliseconds(20))
                return process.isRunning
            }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return false
    }
}

struct BrokerError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Opens a TCP socket, applies `operation` (bind or connect) to 127.0.0.1:`port`, closes it,
/// and says whether the operation succeeded.
func withLoopbackSocket(port: Int, _ operation: (Int32, UnsafePointer<sockaddr>, socklen_t) -> Int32) -> Bool {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = UInt16(port).bigEndian
    return withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { operation(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
    }
}
