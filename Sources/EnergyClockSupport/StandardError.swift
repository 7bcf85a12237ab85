import Platform

/// Unbuffered writes to standard error, for log lines and the command line's messages.
package enum StandardError {
    /// Writes `text` whole; gives up quietly when stderr is gone.
    package static func write(_ text: String) {
        FileDescriptor.writeAll(2, text.utf8)
    }
}
