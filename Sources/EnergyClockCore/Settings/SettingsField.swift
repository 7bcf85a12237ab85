/// One user-changeable setting, named as on the wire.
public enum SettingsField: String, Sendable, CaseIterable {
    /// Price source id.
    case source
    /// `absolute` or `relative`.
    case colorMode = "color_mode"
    /// Green upper bound.
    case greenMax = "green_max"
    /// Yellow upper bound.
    case yellowMax = "yellow_max"
    /// Orange upper bound.
    case orangeMax = "orange_max"
    /// Days of history for relative mode.
    case historyDays = "history_days"
    /// VAT percentage.
    case vatPercent = "vat_percent"
    /// Surcharge per kWh.
    case surcharge
    /// Supplier markup in percent of the market price.
    case markupPercent = "markup_percent"
    /// Time-of-use grid fee schedule.
    case gridFee = "grid_fee"
    /// VAT on negative prices or not.
    case vatOnNegative = "vat_on_negative"
    /// The currency of prices, thresholds and fees.
    case currency
    /// `hour` or `native`.
    case resolution
    /// Bidding zone code.
    case zone
    /// Ordered list of fallback source ids.
    case fallbackSources = "fallback_sources"
    /// URL of the custom source.
    case customURL = "custom_url"
    /// Unit of the custom source.
    case customUnit = "custom_unit"
    /// Colour per band.
    case palette
    /// LED brightness per band.
    case brightness

    /// The kind of value the field takes and its allowed range.
    public var kind: Kind {
        switch self {
        case .source: .choice([])
        case .colorMode: .choice(ColorMode.allCases.map(\.rawValue))
        case .resolution: .choice(Resolution.allCases.map(\.rawValue))
        case .greenMax, .yellowMax, .orangeMax: .number(-10...10)
        case .vatPercent: .number(0...100)
        case .surcharge: .number(-1...5)
        case .markupPercent: .number(-100...100)
        case .gridFee: .gridFee
        case .vatOnNegative: .flag
        case .currency: .choice(["EUR"] + ExchangeRates.ecbCurrencies)
        case .historyDays: .integer(1...60)
        case .zone: .choice(BiddingZone.all.map(\.code))
        case .fallbackSources: .sourceList
        case .customURL: .url
        case .customUnit: .choice(["EUR/kWh", "EUR/MWh"])
        case .palette: .palette
        case .brightness: .brightness
        }
    }

    /// The shape of a field's value.
    public enum Kind: Sendable, Equatable {
        /// One of the given words; empty means "a known source id".
        case choice([String])
        /// A finite number within the range.
        case number(ClosedRange<Double>)
        /// A whole number within the range.
        case integer(ClosedRange<Int>)
        /// A list of distinct known source ids.
        case sourceList
        /// Empty, or an `http://`, `https://` or `file://` URL.
        case url
        /// Colours by band: `{"green":"#00FF00"}` or `green=#00FF00,red=#FF0000`; unnamed bands keep theirs.
        case palette
        /// Brightness 0…255 by band, `null` to stop setting it: `{"green":64}` or `green=64,red=255`.
        case brightness
        /// `true` or `false` (also `on`/`off` on a field's own topic).
        case flag
        /// A ``GridFee`` schedule as a JSON object.
        case gridFee
    }
}

/// A validated value of one field.
public enum SettingValue: Sendable, Hashable {
    /// A word such as `relative`.
    case text(String)
    /// A finite number.
    case number(Double)
    /// A whole number.
    case integer(Int)
    /// A list of words.
    case list([String])
    /// Colours by band; merged over the current palette.
    case colors([Band: RGBColor])
    /// Brightness by band, nil to remove; merged over the current levels.
    case levels([Band: Int?])
    /// A switch.
    case flag(Bool)
    /// A grid fee schedule; replaces the current one whole.
    case gridFee(GridFee)
}

extension Settings {
    /// Reads or writes one field; the setter expects a value of the field's kind.
    public subscript(field: SettingsField) -> SettingValue {
        get {
            switch field {
            case .source: .text(source)
            case .colorMode: .text(colorMode.rawValue)
            case .resolution: .text(resolution.rawValue)
            case .greenMax: .number(thresholds.greenMax)
            case .yellowMax: .number(thresholds.yellowMax)
            case .orangeMax: .number(thresholds.orangeMax)
            case .historyDays: .integer(historyDays)
            case .vatPercent: .number(vatPercent)
            case .surcharge: .number(surcharge)
            case .markupPercent: .number(markupPercent)
            case .gridFee: .gridFee(gridFee)
            case .vatOnNegative: .flag(vatOnNegative)
            case .currency: .text(currency)
            case .zone: .text(zone)
            case .fallbackSources: .list(fallbackSources)
            case .customURL: .text(customURL)
            case .customUnit: .text(customUnit)
            case .palette: .colors(palette)
            case .brightness: .levels(brightness.mapValues { $0 })
            }
        }
        set {
            switch (field, newValue) {
            case let (.source, .text(v)): source = v
            case let (.colorMode, .text(v)): colorMode = ColorMode(rawValue: v) ?? colorMode
            case let (.resolution, .text(v)): resolution = Resolution(rawValue: v) ?? resolution
            case let (.greenMax, .number(v)): thresholds.greenMax = v
            case let (.yellowMax, .number(v)): thresholds.yellowMax = v
            case let (.orangeMax, .number(v)): thresholds.orangeMax = v
            case let (.historyDays, .integer(v)): historyDays = v
            case let (.vatPercent, .number(v)): vatPercent = v
            case let (.surcharge, .number(v)): surcharge = v
            case let (.markupPercent, .number(v)): markupPercent = v
            case let (.gridFee, .gridFee(v)): gridFee = v
            case let (.vatOnNegative, .flag(v)): vatOnNegative = v
            case let (.currency, .text(v)): currency = v
            case let (.zone, .text(v)): zone = v
            case let (.fallbackSources, .list(v)): fallbackSources = v
            case let (.customURL, .text(v)): customURL = v
            case let (.customUnit, .text(v)): customUnit = v
            case let (.palette, .colors(v)): palette.merge(v) { $1 }
            case let (.brightness, .levels(v)):
                for (band, level) in v { brightness[band] = level }
            default: assertionFailure("\(newValue) does not fit \(field.rawValue)")
            }
        }
    }
}
