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
    /// Decimals of every published price.
    case priceDecimals = "price_decimals"
    /// `import` or `export`.
    case kind
    /// Share of the market price an export pays.
    case exportFactor = "export_factor"
    /// Fee added to an export price.
    case exportFee = "export_fee"
    /// VAT on an export price or not.
    case exportVAT = "export_vat"
    /// `pay` or `zero` while the market price is negative.
    case exportNegative = "export_negative"
    /// `auto`, `import` or `export`: which way the bands point.
    case direction
    /// A band of its own below zero, or not.
    case negativeBand = "negative_band"
    /// Minutes per value of the `forecast/emhass` arrays: 15, 30 or 60.
    case forecastStep = "forecast_step"
    /// Named jobs to plan into the cheapest slots.
    case jobs
    /// The Octopus product code of the `octopus` source.
    case octopusProduct = "octopus_product"
    /// The Great Britain region letter of the `octopus` source.
    case octopusRegion = "octopus_region"
    /// The provider of price forecasts beyond the auction, or empty for none.
    case forecastProvider = "forecast_provider"
    /// Forecast providers tried in order when `forecast_provider` fails.
    case forecastFallbacks = "forecast_fallbacks"
    /// Whether `forecast/evcc` and `forecast/emhass` carry the forecast beyond the official prices.
    case forecastTail = "forecast_tail"
    /// What the profile shows: `price` or `co2`.
    case signal
    /// The source of the grid's carbon intensity, or empty for none.
    case carbonSource = "carbon_source"
    /// The place the carbon source is asked for.
    case carbonArea = "carbon_area"
    /// Upper bound of the green band of a `co2` profile, in gCO₂/kWh.
    case co2GreenMax = "co2_green_max"
    /// Upper bound of the yellow band of a `co2` profile, in gCO₂/kWh.
    case co2YellowMax = "co2_yellow_max"
    /// Upper bound of the orange band of a `co2` profile, in gCO₂/kWh.
    case co2OrangeMax = "co2_orange_max"

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
        /// A provider's id, or empty: 1 to 24 lower-case letters, digits and hyphens, whose provider
        /// the daemon's catalog then looks up (``SourceRules``).
        case provider
        /// A list of distinct provider ids, each as ``provider`` takes it.
        case providerList
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
        /// Jobs by name, each an object of the fields to set, or `null` to delete it.
        case jobs
        /// A product code: 1 to 40 capital letters, digits and hyphens.
        case productCode
        /// A place a source is asked for, or empty: at most 16 ASCII letters and digits; whether
        /// the source knows it, the daemon's catalog says (``SourceRules``).
        case area
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
    /// Changes by job name, nil to delete; merged over the current jobs field by field.
    case jobs([String: JobPatch?])
}
