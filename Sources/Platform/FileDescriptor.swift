#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Whole reads and writes on a file descriptor, through short counts and interruptions.
package enum FileDescriptor {
    /// Writes all of `bytes` to `fd`; false when the rest cannot be written (a closed pipe, a full disk).
    @discardableResult
    package static func writeAll(_ fd: Int32, _ bytes: some Collection<UInt8>) -> Bool {
        var rest = Array(bytes)[...]
        while !rest.isEmpty {
            let count = rest.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return false }
            rest = rest.dropFirst(count)
        }
        return true
    }

    /// Reads `fd` until its end or until `limit` bytes have come, whichever is first; nil when reading fails.
    ///
    /// Ask for one byte more than you accept to tell "too large" from "exactly the limit".
    package static func readAll(_ fd: Int32, limit: Int = .max) -> [UInt8]? {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while bytes.count < limit {
            let count = read(fd, &chunk, min(chunk.count, limit - bytes.count))
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { return nil }
            if count == 0 { break }
            bytes += chunk[..<count]
        }
        return bytes
    }
}
