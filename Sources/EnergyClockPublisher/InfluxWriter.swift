import EnergyClockDomain
import EnergyClockSources
import FoundationEssentials
import Platform

/// Sends line-protocol points to an InfluxDB `/write` (1.x) or `/api/v2/write` (2.x, 3.x) endpoint.
///
/// Points wait in a bounded buffer; a failed write is retried with backoff, and when the buffer
/// is full the oldest points are dropped. Nothing here ever waits on, or delays, MQTT.
package actor InfluxWriter {
    /// Where and how to write.
    package struct Target: Sendable {
        /// The full write URL, e.g. `http://localhost:8086/write?db=energy` or
        /// `http://localhost:8086/api/v2/write?org=home&bucket=energy&precision=ns`.
        package var url: URL
        /// `Authorization` header value: `Token …` or `Basic …`; never logged.
        package var authorization: String?
        /// The secrets inside ``authorization`` and the URL, taken out of anything the server answers.
        package var secrets: [String]

        /// A target at `url`; `secrets` are redacted from what the server answers.
        package init(url: URL, authorization: String?, secrets: [String] = []) {
            self.url = url
            self.authorization = authorization
            self.secrets = secrets + (authorization.map { [String($0.drop { $0 != " " }.dropFirst())] } ?? [])
        }
    }

    let target: Target
    let http: HTTPClient
    let capacity: Int
    let logger: Logger
    private var buffer: [String] = []
    private var dropped = 0
    /// Rung by ``enqueue(_:)`` for ``run()``, which waits on it while nothing is queued.
    private let wake = Doorbell()

    /// A writer holding at most `capacity` unsent points.
    package init(
        target: Target, http: HTTPClient = HTTPClient(timeout: 10), capacity: Int = 10_000, logger: Logger
    ) {
        self.target = target
        self.http = http
        self.capacity = capacity
        self.logger = logger
    }

    /// Points waiting to be written.
    package var pending: Int { buffer.count }

    /// Queues points; returns at once.
    package func enqueue(_ lines: [String]) {
        buffer.append(contentsOf: lines)
        if buffer.count > capacity {
            dropped += buffer.count - capacity
            buffer.removeFirst(buffer.count - capacity)
        }
        wake.ring()
    }

    /// Writes queued points until cancelled, backing off from 1 s to 60 s while the server fails.
    package func run() async {
        var delay = 1.0
        while !Task.isCancelled {
            if buffer.isEmpty {
                await wake.wait()
                continue
            }
            let batch = Array(buffer.prefix(5000))
            if await write(batch) {
                buffer.removeFirst(min(batch.count, buffer.count))
                if dropped > 0 {
                    logger.warning("dropped \(dropped) points while InfluxDB was unreachable")
                    dropped = 0
                }
                delay = 1
            } else {
                await MonotonicSleep.pause(seconds: delay)
                delay = min(delay * 2, 60)
            }
        }
    }

    private func write(_ lines: [String]) async -> Bool {
        var headers = ["Content-Type: text/plain; charset=utf-8"]
        if let authorization = target.authorization { headers.append("Authorization: \(authorization)") }
        do {
            let response = try await http.post(target.url, body: Array(lines.joined(separator: "\n").utf8), headers: headers)
            guard (200..<300).contains(response.status) else {
                // Redacted before it is cut, so that a cut never splits a credential out of sight.
                let detail = Quote.clip(
                    Quote.redacting(target.secrets, in: String(decoding: response.body.prefix(64 << 10), as: UTF8.self)))
                logger.warning("InfluxDB answered HTTP \(response.status): \(detail)")
                // A 4xx other than 429 will not heal by retrying the same points.
                if (400..<500).contains(response.status), response.status != 429 { return true }
                return false
            }
            return true
        } catch {
            logger.warning("InfluxDB: \(error)")
            return false
        }
    }
}
