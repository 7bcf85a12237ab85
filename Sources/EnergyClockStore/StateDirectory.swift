import EnergyClockDomain
import FoundationEssentials
import Glibc

#if canImport(Glibc)
    import Glibc
#endif

/// The directory that holds the store: made when missing, and checked to be a usable directory
/// before anything is opened in it, so a mistake is reported as what it is.
public struct StateDirectory: Sendable {
    /// The directory's path.
    public let path: String

    /// Makes `path` (and its parents) when missing, and checks that it is a directory this
    /// process can read and write.
    public init(path: String) throws(StoreError) {
        self.path = path
        try Self.ensure(path)
        guard access(path, R_OK | W_OK | X_OK) == 0 else {
            throw StoreError(
                action: "use state directory \(path)", message: "\(Self.lastError()); it must be readable and writable by this user")
        }
    }

    /// The full path of `name` inside the directory.
    public func file(_ name: String) -> String { path.hasSuffix("/") || path.isEmpty ? path + name : path + "/" + name }

    private static func ensure(_ path: String) throws(StoreError) {
        var info = stat()
        if stat(path, &info) == 0 {
            guard info.st_mode & S_IFMT == S_IFDIR else {
                throw StoreError(action: "use state directory \(path)", message: "it is a file, not a directory")
            }
            return
        }
        let failure = errno
        if failure == ENOTDIR {
            var ancestor = parent(of: path)
            while !ancestor.isEmpty, ancestor != "/", stat(ancestor, &info) != 0 || info.st_mode & S_IFMT == S_IFDIR {
                ancestor = parent(of: ancestor)
            }
            throw StoreError(action: "use state directory \(path)", message: "\(ancestor) is a file, not a directory")
        }
        guard failure == ENOENT else {
            throw StoreError(action: "use state directory \(path)", message: String(cString: strerror(failure)))
        }
        let parent = parent(of: path)
        if !parent.isEmpty, parent != path {
            do {
                try ensure(parent)
            } catch {
                throw StoreError(action: "create state directory \(path)", message: "\(error.message) (at \(parent))")
            }
        }
        guard mkdir(path, 0o700) == 0 || errno == EEXIST else {
            throw StoreError(action: "create state directory \(path)", message: lastError())
        }
    }

    /// The directory that holds `path`: "" for a bare name, "/" at the top.
    static func parent(of path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed.removeLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return "" }
        return slash == trimmed.startIndex ? "/" : String(trimmed[..<slash])
    }

    static func lastError() -> String { String(cString: strerror(errno)) }
}

/// An exclusive claim on a state directory for as long as this process lives.
///
/// It is a `flock` on `energyclock.lock`, which the kernel drops when the process ends, however it
/// ends: a SIGKILL never leaves a directory locked.
public final class StateLock: Sendable {
    private let descriptor: Int32
    /// The lock file's path.
    public let path: String

    /// The lock file's name inside the state directory.
    public static let fileName = "energyclock.lock"

    /// Takes the lock on `directory`, or says which process holds it.
    public init(_ directory: StateDirectory) throws(StoreError) {
        path = directory.file(Self.fileName)
        let fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw StoreError(action: "open the lock file \(path)", message: StateDirectory.lastError())
        }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            let failure = errno
            var buffer = [UInt8](repeating: 0, count: 32)
            let count = pread(fd, &buffer, buffer.count, 0)
            close(fd)
            let holder = count > 0 ? String(decoding: buffer[..<count], as: UTF8.self).trimmed : ""
            guard failure == EWOULDBLOCK else {
                throw StoreError(action: "lock \(path)", message: String(cString: strerror(failure)))
            }
            throw StoreError(
                action: "lock state directory \(directory.path)",
                message:
                    "another energyclock\(holder.isEmpty ? "" : " (pid \(holder))") is running with it; stop that one, or give this one its own --state-dir"
            )
        }
        let pid = Array("\(getpid())\n".utf8)
        _ = ftruncate(fd, 0)
        _ = pwrite(fd, pid, pid.count, 0)
        descriptor = fd
    }

    deinit { close(descriptor) }
}
