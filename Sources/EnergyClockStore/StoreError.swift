import CSQLite

/// A failure of the on-disk store or its state directory, with the system's or SQLite's own message.
public struct StoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What the store was doing.
    public var action: String
    /// The explanation from SQLite or the system.
    public var message: String
    /// SQLite's primary result code, or 0 when the failure came from the file system.
    public var code: Int32

    /// An error while doing `action`.
    public init(action: String, message: String, code: Int32 = 0) {
        self.action = action
        self.message = message
        self.code = code
    }

    /// The file is damaged or is not a database at all.
    public var isCorruption: Bool {
        let primary = code & 0xFF
        return primary == SQLITE_CORRUPT || primary == SQLITE_NOTADB
    }

    /// `store: could not <action>: <message>`.
    public var description: String { "store: could not \(action): \(message)" }
}
