import Glibc

/// Unbuffered writes to standard error, for log lines and the command line's messages.
package enum StandardError {
    /// Writes `text` whole, retrying short writes and interruptions; gives up quietly when stderr is gone.
    package static func write(_ text: String) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Glibc.write(2, $0.baseAddress, $0.count) }
            if written > 0 {
                bytes = bytes.dropFirst(written)
            } else if written < 0, errno == EINTR {
                continue
            } else {
                return
            }
        }
    }
}
