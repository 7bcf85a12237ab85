import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Files read and written as files, never as whatever a path happens to name.
///
/// A FIFO opened for reading blocks until someone writes to it, a device can be endless, and a
/// symbolic link planted in a state directory turns a write into the overwrite of another file.
/// Every file energyclock reads goes through ``read(_:limit:timeout:)``; every file it writes
/// in its state directory goes through ``replace(_:with:mode:)``.
package enum RegularFile {
    /// Why a file could not be read or written; `description` names the path and the reason.
    package enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// `open` failed, with the system's reason.
        case cannotOpen(path: String, reason: String)
        /// The path names a FIFO, a device, a directory or a socket.
        case notRegular(path: String, kind: String)
        /// The file holds more than the limit.
        case tooLarge(path: String, limit: Int)
        /// Reading took longer than the time allowed.
        case timedOut(path: String, seconds: Double)
        /// `read` or `write` failed, with the system's reason.
        case failed(path: String, reason: String)

        /// A line a user can act on.
        package var description: String {
            switch self {
            case let .cannotOpen(path, reason): "cannot open \(path): \(reason)"
            case let .notRegular(path, kind): "\(path) is \(kind), not a regular file"
            case let .tooLarge(path, limit): "\(path) is larger than \(limit) bytes"
            case let .timedOut(path, seconds): "reading \(path) took longer than \(seconds) s"
            case let .failed(path, reason): "cannot read or write \(path): \(reason)"
            }
        }
    }

    /// The whole of the regular file at `path`: at most `limit` bytes, within `timeout` seconds.
    ///
    /// The file is opened without blocking (a FIFO opens at once and is then refused), checked to
    /// be a regular file, and read in chunks against the deadline. Blocks the calling thread for
    /// at most about `timeout`, unless the file system itself hangs inside one `read`; callers
    /// that must stay responsive then run it with ``read(_:limit:timeout:)-async``.
    package static func read(_ path: String, limit: Int, timeout: Double) -> Result<[UInt8], Failure> {
        let deadline = Monotonic.seconds() + timeout
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        guard fd >= 0 else { return .failure(.cannotOpen(path: path, reason: lastError())) }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0 else { return .failure(.failed(path: path, reason: lastError())) }
        guard status.st_mode & S_IFMT == S_IFREG else { return .failure(.notRegular(path: path, kind: kind(status.st_mode))) }
        guard status.st_size <= limit else { return .failure(.tooLarge(path: path, limit: limit)) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Int(status.st_size))
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            guard Monotonic.seconds() < deadline else { return .failure(.timedOut(path: path, seconds: timeout)) }
            let count = Glibc.read(fd, &chunk, chunk.count)
            if count < 0, errno == EINTR || errno == EAGAIN { continue }
            guard count >= 0 else { return .failure(.failed(path: path, reason: lastError())) }
            if count == 0 { return .success(bytes) }
            // The file may have grown since fstat.
            guard bytes.count + count <= limit else { return .failure(.tooLarge(path: path, limit: limit)) }
            bytes += chunk[..<count]
        }
    }

    /// ``read(_:limit:timeout:)`` on a thread of its own: answers within `timeout` even when the
    /// file system hangs or the task is cancelled, and leaves that thread to finish by itself.
    package static func read(_ path: String, limit: Int, timeout: Double) async -> Result<[UInt8], Failure> {
        let race = Race<Result<[UInt8], Failure>>()
        return await withTaskGroup(of: Void.self) { group in
            group.addTask {
                await MonotonicSleep.pause(seconds: timeout)
                if !Task.isCancelled { race.finish(.failure(.timedOut(path: path, seconds: timeout))) }
            }
            defer { group.cancelAll() }
            return await withTaskCancellationHandler {
                await withCheckedContinuation { continuation in
                    race.wait(continuation)
                    let started = DetachedThread.start(name: "file") { race.finish(read(path, limit: limit, timeout: timeout)) }
                    if !started { race.finish(.failure(.failed(path: path, reason: "no thread left to read it"))) }
                }
            } onCancel: {
                race.finish(.failure(.failed(path: path, reason: "cancelled")))
            }
        }
    }

    /// Replaces the file at `path` with `bytes` whole: written to `path.tmp`, created exclusively
    /// and never through a symbolic link, then renamed over `path`, so that a reader never sees
    /// half of it and a link planted at either name is never followed.
    package static func replace(_ path: String, with bytes: [UInt8], mode: mode_t = 0o600) -> Result<Void, Failure> {
        let temporary = path + ".tmp"
        // A leftover from a crash, or something planted: removed, never written through.
        if unlink(temporary) != 0, errno != ENOENT { return .failure(.cannotOpen(path: temporary, reason: lastError())) }
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
        guard fd >= 0 else { return .failure(.cannotOpen(path: temporary, reason: lastError())) }
        let written = FileDescriptor.writeAll(fd, bytes)
        let reason = written ? nil : lastError()
        close(fd)
        guard written else {
            unlink(temporary)
            return .failure(.failed(path: temporary, reason: reason ?? "short write"))
        }
        guard rename(temporary, path) == 0 else {
            let reason = lastError()
            unlink(temporary)
            return .failure(.failed(path: path, reason: reason))
        }
        return .success(())
    }

    private static func kind(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFIFO: "a FIFO"
        case S_IFDIR: "a directory"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFSOCK: "a socket"
        default: "not a regular file"
        }
    }

    private static func lastError() -> String { String(cString: strerror(errno)) }

    /// The first answer resumes the waiting task; later ones are dropped. An answer that comes
    /// before the task waits is kept for it.
    private final class Race<Value: Sendable>: Sendable {
        private let state = Mutex<(continuation: CheckedContinuation<Value, Never>?, early: Value?, done: Bool)>(
            (nil, nil, false))

        func wait(_ continuation: CheckedContinuation<Value, Never>) {
            let early: Value? = state.withLock { state in
                if let value = state.early { return value }
                state.continuation = continuation
                return nil
            }
            if let early { continuation.resume(returning: early) }
        }

        func finish(_ value: Value) {
            let waiting: CheckedContinuation<Value, Never>? = state.withLock { state in
                guard !state.done else { return nil }
                state.done = true
                guard let continuation = state.continuation else {
                    state.early = value
                    return nil
                }
                state.continuation = nil
                return continuation
            }
            waiting?.resume(returning: value)
        }
    }
}
