/// A day-ahead price feed; each source normalises to EUR/kWh market prices without VAT.
public protocol PriceSource: Sendable {
    /// The id users choose with the `source` setting, e.g. `energyzero`.
    var id: String { get }

    /// The slots the source has for `day` (it may return neighbouring days too).
    ///
    /// Returns an empty list when the day is not published yet; throws when the source
    /// fails or answers something that cannot be trusted.
    func fetch(day: LocalDay, calendar: LocalCalendar) async throws(SourceError) -> [PriceSlot]
}

/// The sources a daemon knows, by id.
public struct SourceCatalog: Sendable {
    /// Every source in registration order.
    public let sources: [any PriceSource]

    /// A catalog of `sources`; ids must be unique.
    public init(_ sources: [any PriceSource]) {
        self.sources = sources
    }

    /// The ids users may choose.
    public var ids: [String] { sources.map(\.id) }

    /// The source with `id`.
    public subscript(id: String) -> (any PriceSource)? { sources.first { $0.id == id } }
}
