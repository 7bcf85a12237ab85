import FoundationEssentials

/// Where one value of a series came from: the source, and whether it is the market's own figure
/// or a forecast of it, issued when.
///
/// An official value always wins: a forecast never replaces one, and an official value replaces a
/// forecast the moment it arrives (``Swift/Array/replacing(with:)``).
public struct Provenance: Sendable, Hashable {
    /// Official or a forecast.
    public enum Kind: Sendable, Hashable {
        /// The market's (or the tariff's) own figure.
        case official
        /// A forecast of the figure, issued at this instant.
        case forecast(issued: Date)
    }

    /// The id of the source or provider that gave the value, as the `source` setting names it.
    public var source: SourceName
    /// Official or a forecast.
    public var kind: Kind

    /// A value from `source` of `kind`.
    public init(source: SourceName, kind: Kind) {
        self.source = source
        self.kind = kind
    }

    /// The market's own figure from `source`.
    public static func official(_ source: String) -> Provenance { Provenance(source: SourceName(source), kind: .official) }

    /// A forecast by `provider`, issued at `issued`.
    public static func forecast(_ provider: String, issued: Date) -> Provenance {
        Provenance(source: SourceName(provider), kind: .forecast(issued: issued))
    }

    /// Whether the value is the market's own figure.
    public var isOfficial: Bool { kind == .official }
}
