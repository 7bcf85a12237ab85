/// The id of a source or a forecast provider as a plain value of 24 bytes: what a slot's
/// ``Provenance`` names, and the settings' other short names (a carbon source and its area).
///
/// Tuning: a `String` in every slot made each copy of a slot retain and release it, and the
/// settings change's path to `color` copies thousands of slots (213,000 → 257,000 instructions,
/// bench/instructions.sh); these bytes are copied as they are. Ids are ASCII and at most
/// ``capacity`` bytes long (every source's is, `RegistryTests` holds them to it); a longer text is
/// cut there.
public struct SourceName: Sendable, Hashable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The most bytes a name holds.
    public static let capacity = 24
    private var words: (UInt64, UInt64, UInt64) = (0, 0, 0)

    /// The name `text`, cut at ``capacity`` bytes.
    public init(_ text: String) {
        withUnsafeMutableBytes(of: &words) { raw in
            for (index, byte) in text.utf8.prefix(Self.capacity).enumerated() { raw[index] = byte }
        }
    }

    /// The name written in the source code.
    public init(stringLiteral text: String) { self.init(text) }

    /// The name as text.
    public var description: String {
        withUnsafeBytes(of: words) { raw in String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self) }
    }

    /// Whether the name is empty.
    public var isEmpty: Bool { words.0 == 0 }

    /// Equal when every byte is.
    public static func == (lhs: SourceName, rhs: SourceName) -> Bool {
        lhs.words.0 == rhs.words.0 && lhs.words.1 == rhs.words.1 && lhs.words.2 == rhs.words.2
    }

    /// Hashes every byte.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(words.0)
        hasher.combine(words.1)
        hasher.combine(words.2)
    }
}
