/// How prices are mapped to bands.
public enum ColorMode: String, Sendable, CaseIterable {
    /// Fixed thresholds in EUR/kWh.
    case absolute
    /// Quartiles of the last `history_days` local days of prices.
    case relative
    /// The source's own rating of each slot (the GB carbon `index`, Tibber's price level), by
    /// ``Band/byLevel``; a slot the source does not rate has no band.
    case levels
}

/// Whether a price is paid for buying or for selling a kWh.
public enum PriceKind: String, Sendable, CaseIterable {
    /// What a household pays: market, markup, surcharge, grid fee and VAT.
    case `import`
    /// What a household is paid for feeding in: market × factor + fee, VAT only when asked for.
    case export
}

/// What an export pays while the market price is negative.
public enum NegativeExportRule: String, Sendable, CaseIterable {
    /// The formula applies as at any other price, so the household may pay to feed in.
    case pay
    /// Nothing is paid (as German feed-in tariffs since 2025): the price is 0.
    case zero
}

/// Which way the bands point.
public enum BandDirection: String, Sendable, CaseIterable {
    /// `export` for an export profile, `import` otherwise.
    case auto
    /// Green is the cheapest price to buy at.
    case `import`
    /// Green is the best price to sell at.
    case export
}

/// Everything a user can change at run time; persisted in the store and published on `settings`.
public struct Settings: Sendable, Hashable {
    /// Id of the price source, e.g. `energyzero`.
    public var source: String
    /// Absolute or relative thresholds.
    public var colorMode: ColorMode
    /// The absolute thresholds in EUR/kWh (used in absolute mode).
    public var thresholds: Thresholds
    /// Local days of history behind relative thresholds, 1…60, today included.
    public var historyDays: Int
    /// VAT added to market price plus surcharge, in percent, 0…100.
    public var vatPercent: Double
    /// Added per kWh to the market price before VAT, −1…5, in ``currency``.
    public var surcharge: Double
    /// The supplier's markup in percent of the market price, −100…100.
    public var markupPercent: Double
    /// The time-of-use grid fee per kWh before VAT, in ``currency``.
    public var gridFee: GridFee
    /// Whether VAT is added when the price before VAT is negative.
    public var vatOnNegative: Bool
    /// The currency every price, threshold and fee is in: `EUR` or one with an ECB reference rate.
    public var currency: String
    /// Hourly means or the source's own slots.
    public var resolution: Resolution
    /// Bidding zone for sources that serve several markets, e.g. `NL` or `DE-LU`.
    public var zone: String
    /// Sources tried in order when `source` fails.
    public var fallbackSources: [String]
    /// Where the `custom` source reads its JSON: an `http(s)://` or `file://` URL, or empty.
    public var customURL: String
    /// Unit of the `custom` source's prices unless its document names one: `EUR/kWh` or `EUR/MWh`.
    public var customUnit: String
    /// The colour of each band, for `color/hex`, `color/rgb` and LEDs.
    public var palette: [Band: RGBColor]
    /// LED brightness per band, 0…255; a band without one leaves the brightness alone.
    public var brightness: [Band: Int]
    /// Decimals of every published price, 1…6: `price`, the payloads' prices and the bands, which
    /// are worked out on the price as published.
    public var priceDecimals = 6
    /// Whether this is a price paid for a kWh bought (`import`) or one paid for a kWh sold (`export`).
    public var kind = PriceKind.import
    /// The share of the market price an export pays, 0…5: `price = market × export_factor + export_fee`.
    public var exportFactor = 1.0
    /// Added per kWh to an export price before any VAT, −1…1 (usually negative: the buyer's fee).
    public var exportFee = 0.0
    /// Whether `vat_percent` is added to an export price; off by default, as most feed-in tariffs are paid without.
    public var exportVAT = false
    /// What an export pays in a slot whose market price is below zero.
    public var exportNegative = NegativeExportRule.pay
    /// Which way the bands point: green is cheapest to buy (`import`) or best to sell (`export`).
    public var direction = BandDirection.auto
    /// Whether a price below zero has the band `negative` (blue by default) instead of green or red.
    public var negativeBand = false
    /// Minutes per value of the EMHASS forecast arrays: 15, 30 (EMHASS's own default) or 60.
    public var forecastStep = 30
    /// The jobs planned into this profile's cheapest slots, by name.
    public var jobs: [String: Job] = [:]
    /// The Octopus product whose unit rates the `octopus` source reads: Agile for buying, Agile
    /// Outgoing for selling.
    public var octopusProduct = "AGILE-24-10-01"
    /// The Great Britain region (the GSP group letter at the end of an Octopus tariff code, `A`…`P`);
    /// empty until set, as each region has its own prices.
    public var octopusRegion = ""
    /// The provider of price forecasts for the hours the auction has not priced yet, or empty for
    /// none: its slots are shown apart (`prices/forecast`) and never replace an official price.
    public var forecastProvider = ""
    /// Providers tried in order while `forecastProvider` fails.
    public var forecastFallbacks: [String] = []
    /// Whether `forecast/evcc` and `forecast/emhass` go on past the official prices with the forecast.
    public var forecastTail = false
    /// What the profile shows: prices from ``source``, or the carbon intensity from ``carbonSource``.
    public var signal = Signal.price
    /// The source of the grid's carbon intensity a `co2` profile shows, e.g. `gb-carbon-intensity`;
    /// empty for none.
    public var carbonSource: String {
        get { carbonSourceName.description }
        set { carbonSourceName = SourceName(newValue) }
    }
    /// The place ``carbonSource`` is asked for: `GB`, a region or an outward postcode for Great
    /// Britain, `DK1` or `DK2` for Denmark.
    public var carbonArea: String {
        get { carbonAreaName.description }
        set { carbonAreaName = SourceName(newValue) }
    }
    /// ``carbonSource`` as it is held: at most 24 bytes, as the setting's check allows.
    ///
    /// Tuning: held as plain bytes, like the other short names below, so that the many copies of
    /// the settings on a change's path retain and release nothing for them (see ``SourceName``).
    package var carbonSourceName = SourceName("")
    /// ``carbonArea`` as it is held: at most 16 bytes, as the setting's check allows.
    package var carbonAreaName = SourceName("")
    /// The absolute thresholds of a `co2` profile, in gCO₂/kWh.
    public var co2Thresholds = Thresholds(greenMax: 100, yellowMax: 200, orangeMax: 300)

    /// The settings of a fresh installation.
    public static let defaults = Settings(
        source: "energyzero",
        colorMode: .absolute,
        thresholds: Thresholds(greenMax: 0.10, yellowMax: 0.20, orangeMax: 0.30),
        historyDays: 7,
        vatPercent: 21,
        surcharge: 0,
        markupPercent: 0,
        gridFee: .none,
        vatOnNegative: true,
        currency: "EUR",
        resolution: .hour,
        zone: "NL",
        fallbackSources: [],
        customURL: "",
        customUnit: "EUR/kWh",
        palette: Dictionary(uniqueKeysWithValues: Band.allCases.map { ($0, $0.defaultColor) }),
        brightness: [:]
    )

    /// Settings from all their parts.
    public init(
        source: String, colorMode: ColorMode, thresholds: Thresholds, historyDays: Int,
        vatPercent: Double, surcharge: Double, markupPercent: Double, gridFee: GridFee, vatOnNegative: Bool, currency: String,
        resolution: Resolution,
        zone: String, fallbackSources: [String], customURL: String, customUnit: String,
        palette: [Band: RGBColor], brightness: [Band: Int]
    ) {
        self.source = source
        self.colorMode = colorMode
        self.thresholds = thresholds
        self.historyDays = historyDays
        self.vatPercent = vatPercent
        self.surcharge = surcharge
        self.markupPercent = markupPercent
        self.gridFee = gridFee
        self.vatOnNegative = vatOnNegative
        self.currency = currency
        self.resolution = resolution
        self.zone = zone
        self.fallbackSources = fallbackSources
        self.customURL = customURL
        self.customUnit = customUnit
        self.palette = palette
        self.brightness = brightness
    }

    /// The colour of `band` under this palette.
    public func color(of band: Band) -> RGBColor { palette[band] ?? band.defaultColor }

    /// Whether the bands are read the other way round: high prices green, as for selling.
    public var bandsReversed: Bool {
        switch direction {
        case .auto: kind == .export
        case .import: false
        case .export: true
        }
    }

    /// Whether `other` prices every slot as these settings do: it differs at most in what decides
    /// a priced slot's band (the absolute thresholds of either signal, the band direction, the
    /// negative band).
    ///
    /// Said the other way round, so that anything else, a setting added later included, counts as
    /// a difference in price.
    package func pricesAlike(_ other: Settings) -> Bool {
        var other = other
        other.thresholds = thresholds
        other.direction = direction
        other.negativeBand = negativeBand
        other.co2Thresholds = co2Thresholds
        return other == self
    }

    /// The unit of every published value: `EUR/kWh`, `SEK/kWh`, …, `gCO2/kWh` for a `co2` profile,
    /// `step` for a `grid` profile.
    public var unit: String {
        switch signal {
        case .price: priceUnit
        case .co2: Quantity.carbonIntensity.unit
        case .grid: Quantity.stepUnit
        }
    }

    /// How slots are banded: `levels` for a `grid` profile, whose bands are the operator's
    /// colours, ``colorMode`` otherwise.
    public var bandMode: ColorMode { signal == .grid ? .levels : colorMode }

    /// The unit of the price settings (thresholds, fees): `EUR/kWh`, `SEK/kWh`, ….
    public var priceUnit: String { currency + "/kWh" }

    /// The absolute thresholds of the profile's signal: ``thresholds`` for prices, ``co2Thresholds``
    /// for the carbon intensity.
    public var signalThresholds: Thresholds { signal == .co2 ? co2Thresholds : thresholds }

    /// The settings as compact JSON, in field order, whole: the form the store keeps.
    public var json: String {
        var w = JSONWriter()
        write(to: &w)
        return w.output
    }

    /// The settings as shown on topics, in answers and in logs: ``json`` with the user information
    /// and secret-looking query parameters of `custom_url` redacted (see ``URLRedaction``).
    public var shownJSON: String {
        var w = JSONWriter()
        write(to: &w, shown: true)
        return w.output
    }

    /// Writes the settings object into `writer`; `shown` redacts what may carry a secret.
    package func write(to w: inout JSONWriter, shown: Bool = false) {
        w.beginObject()
        // The descriptors in field order, each read once: looked up by field, the forty of them
        // cost a dictionary search each time the settings are written (twice a change). One copy
        // for all forty reads, which read it in place (see `SettingDescriptor.get`).
        var settings = self
        for descriptor in SettingDescriptor.all { write(descriptor.field, descriptor.get(&settings), to: &w, shown: shown) }
        w.endObject()
    }

    /// Writes `"field": value` into an open object.
    func write(_ field: SettingsField, to w: inout JSONWriter, shown: Bool = false) {
        write(field, self[field], to: &w, shown: shown)
    }

    /// Writes `"field": value` into an open object, with the field's value read already.
    private func write(_ field: SettingsField, _ value: SettingValue, to w: inout JSONWriter, shown: Bool) {
        w.key(field.rawValue)
        switch value {
        case let .text(value) where shown && field == .customURL: w.string(URLRedaction.redacted(value))
        case let .text(value): w.string(value)
        case let .number(value): w.number(value)
        case let .integer(value): w.integer(value)
        case let .list(values):
            w.beginArray()
            values.forEach { w.string($0) }
            w.endArray()
        case let .colors(colors):
            w.beginObject()
            for band in Band.allCases { if let color = colors[band] { w.field(band.rawValue, color.hex) } }
            w.endObject()
        case let .flag(value): w.bool(value)
        case let .gridFee(schedule): schedule.write(to: &w)
        case let .levels(levels):
            w.beginObject()
            for band in Band.allCases { if let level = levels[band] ?? nil { w.field(band.rawValue, level) } }
            w.endObject()
        case let .jobs(jobs):
            w.beginObject()
            for (name, job) in jobs.sorted(by: { $0.key < $1.key }) {
                w.key(name)
                if let job { job.write(to: &w) } else { w.raw("null") }
            }
            w.endObject()
        }
    }
}
