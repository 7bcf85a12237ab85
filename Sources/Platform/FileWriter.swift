import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Replaces small files on a thread of its own, `files`, so that no write holds up the thread that
/// asked for it: a rename waits on the file system's journal, now and then for tens of
/// milliseconds, and the event loop that asks has a slot boundary to keep.
///
/// Writes to one path coalesce: when a path is written again before its last write was made,
/// only the newest bytes are written. Writes to different paths are made in the order asked.
/// The thread starts with the first write and then sleeps while there is nothing to write.
package final class FileWriter: Sendable {
    /// What waits to be written to one path.
    private struct Pending {
        var bytes: [UInt8]
        var mode: mode_t
        var failed: @Sendable (RegularFile.Failure) -> Void
    }

    private let name: String
    private let loop = Mutex<EventLoop?>(nil)
    private let pending = Mutex<[String: Pending]>([:])

    /// The writer the process shares: one thread for every small file the daemon replaces.
    package static let shared = FileWriter(name: "files")

    /// A writer whose thread, once started, is called `name`.
    package init(name: String) {
        self.name = name
    }

    /// Replaces the file at `path` with `bytes` soon, as ``RegularFile/replace(_:with:mode:)``
    /// does; `failed` hears of a write that did not succeed, on the writer's thread.
    package func replace(
        _ path: String, with bytes: [UInt8], mode: mode_t = 0o600,
        failed: @escaping @Sendable (RegularFile.Failure) -> Void
    ) {
        let queued = pending.withLock { pending in
            defer { pending[path] = Pending(bytes: bytes, mode: mode, failed: failed) }
            return pending[path] != nil
        }
        guard !queued else { return }
        guard let loop = started() else {
            // No thread to give: written here, late rather than never.
            write(path)
            return
        }
        loop.post { self.write(path) }
    }

    /// Returns once every write asked for before the call has been made.
    package func flush() async {
        guard let loop = loop.withLock({ $0 }) else { return }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            loop.post { continuation.resume() }
        }
    }

    /// Whether the writer's thread has started (at the first write).
    package var hasThread: Bool { loop.withLock { $0 != nil } }

    private func write(_ path: String) {
        guard let next = pending.withLock({ $0.removeValue(forKey: path) }) else { return }
        if case let .failure(failure) = RegularFile.replace(path, with: next.bytes, mode: next.mode) { next.failed(failure) }
    }

    /// The writer's loop, started on its thread at the first call; nil when there is no thread.
    private func started() -> EventLoop? {
        loop.withLock { loop in
            if let loop { return loop }
            guard let created = EventLoop(), DetachedThread.start(name: name, { created.run() }) else { return nil }
            loop = created
            return created
        }
    }
}
