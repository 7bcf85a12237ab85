import Dispatch
import FoundationEssentials
import Glibc

/// SIGTERM, SIGINT and SIGHUP as an async sequence, instead of a process-killing default handler.
///
/// SIGHUP stops the daemon cleanly like SIGTERM: logs go to standard error, so there is nothing
/// to reopen, and a hang-up of the terminal that started it should not leave `online` behind.
enum SignalStream {
    /// A stream that yields each termination signal as it arrives.
    static func termination() -> AsyncStream<Int32> {
        let (stream, continuation) = AsyncStream.makeStream(of: Int32.self)
        let sources = [SIGTERM, SIGINT, SIGHUP].map { number -> any DispatchSourceSignal in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { continuation.yield(number) }
            source.resume()
            return source
        }
        let held = HeldSources(sources: sources)
        continuation.onTermination = { _ in held.cancel() }
        return stream
    }
}

/// Keeps the dispatch sources alive for as long as the stream; dispatch sources are thread-safe.
private final class HeldSources: @unchecked Sendable {
    let sources: [any DispatchSourceSignal]
    init(sources: [any DispatchSourceSignal]) { self.sources = sources }
    func cancel() { sources.forEach { $0.cancel() } }
}
