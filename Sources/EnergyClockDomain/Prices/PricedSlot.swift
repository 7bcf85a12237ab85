import FoundationEssentials

/// A slot as shown to users: consumer price and band at the chosen resolution.
public struct PricedSlot: Sendable, Hashable {
    /// The slot with its market price.
    public var slot: SeriesSlot
    /// What a household pays per kWh, in the settings' currency.
    public var price: Double
    /// The parts that make up ``price``.
    public var components: PriceComponents
    /// The colour band; nil only in relative mode before any price is known.
    public var band: Band?
    /// What a plan minimises in this slot: its ``price``, unless a job weighs something else
    /// (``Job/weighed(_:intensity:)``).
    public var cost: Double

    /// A slot shown with its price parts, in `band`.
    public init(slot: SeriesSlot, components: PriceComponents, band: Band?) {
        self.slot = slot
        self.price = components.total
        self.components = components
        self.band = band
        self.cost = price
    }
}

extension Collection where Element == PricedSlot {
    /// These forecast slots from where `official` ends on: what a plan or a forecast payload may
    /// add after the official prices, never among them.
    public func continuing(_ official: [PricedSlot]) -> SubSequence {
        let end = official.last?.slot.end ?? .distantPast
        return drop { $0.slot.start < end }
    }
}
