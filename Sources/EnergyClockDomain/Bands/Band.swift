/// The colour band of a price: green is cheap, red is dear, and with `negative_band` on, a price
/// below zero has a band of its own: the grid pays for the kWh.
public enum Band: String, Sendable, CaseIterable, Codable {
    /// Below zero, with `negative_band` on; the cheapest of all, first in every list.
    case negative
    /// At or below `green_max`.
    case green
    /// Above `green_max`, at or below `yellow_max`.
    case yellow
    /// Above `yellow_max`, at or below `orange_max`.
    case orange
    /// Above `orange_max`.
    case red

    /// Hashes the band by its case. A raw-valued enum hashes its raw value, the name, otherwise:
    /// the bands key the colours and levels that every slot of a day looks up.
    public func hash(into hasher: inout Hasher) {
        let ordinal: UInt8 =
            switch self {
            case .negative: 0
            case .green: 1
            case .yellow: 2
            case .orange: 3
            case .red: 4
            }
        hasher.combine(ordinal)
    }

    /// The band of `price` under `thresholds`; a price equal to a threshold takes the cheaper band.
    ///
    /// `reversed` reads the bands as for selling: at or above `orange_max` is green, at or above
    /// `yellow_max` yellow, at or above `green_max` orange, below it red; a price equal to a
    /// threshold again takes the better band.
    ///
    /// With `negative`, a price below zero is ``negative`` whichever way the bands point: being
    /// paid to use a kWh (or paying to feed one in) is news of its own.
    public static func of(_ price: Double, under thresholds: Thresholds, reversed: Bool = false, negative: Bool = false) -> Band {
        if negative, price < 0 { return .negative }
        if reversed {
            if price >= thresholds.orangeMax { return .green }
            if price >= thresholds.yellowMax { return .yellow }
            if price >= thresholds.greenMax { return .orange }
            return .red
        }
        if price <= thresholds.greenMax { return .green }
        if price <= thresholds.yellowMax { return .yellow }
        if price <= thresholds.orangeMax { return .orange }
        return .red
    }

    /// The band of each rating a source gives a slot (``PriceLevel``): the declared table of
    /// `color_mode: levels`, the two lowest green.
    public static let byLevel: [PriceLevel: Band] = [
        .veryCheap: .green, .cheap: .green, .normal: .yellow, .expensive: .orange, .veryExpensive: .red,
    ]

    /// The band of a slot the source rates `level`, by ``byLevel``; `reversed` reads the ratings
    /// the other way round (for selling, a very expensive slot is green).
    public static func of(level: PriceLevel, reversed: Bool = false) -> Band {
        let read = reversed ? PriceLevel(rawValue: PriceLevel.veryExpensive.rawValue - level.rawValue) ?? level : level
        return byLevel[read] ?? .yellow
    }

    /// The default colour of this band.
    public var defaultColor: RGBColor {
        switch self {
        case .negative: RGBColor(red: 0x0A, green: 0x84, blue: 0xFF)
        case .green: RGBColor(red: 0x34, green: 0xC7, blue: 0x59)
        case .yellow: RGBColor(red: 0xFF, green: 0xCC, blue: 0x00)
        case .orange: RGBColor(red: 0xFF, green: 0x95, blue: 0x00)
        case .red: RGBColor(red: 0xFF, green: 0x3B, blue: 0x30)
        }
    }
}
