extension SettingDescriptor {
    /// Every setting, in the order of ``SettingsField/allCases`` (the order of the settings JSON).
    public static let all: [SettingDescriptor] = [
        .choice(.source, \.source, [], entity: select("Price source"), addOn: true),
        .cases(.colorMode, \.colorMode, entity: select("Colour mode")),
        .number(.greenMax, \.thresholds.greenMax, in: -10...10, entity: box("Green up to", step: 0.001, unit: .pricePerKWh)),
        .number(.yellowMax, \.thresholds.yellowMax, in: -10...10, entity: box("Yellow up to", step: 0.001, unit: .pricePerKWh)),
        .number(.orangeMax, \.thresholds.orangeMax, in: -10...10, entity: box("Orange up to", step: 0.001, unit: .pricePerKWh)),
        .integer(.historyDays, \.historyDays, in: 1...60, entity: box("Days of history", step: 1, unit: .days)),
        .number(.vatPercent, \.vatPercent, in: 0...100, entity: box("VAT", step: 0.1, unit: .percent), addOn: true),
        .number(.surcharge, \.surcharge, in: -1...5, entity: box("Surcharge", step: 0.001, unit: .pricePerKWh)),
        .number(.markupPercent, \.markupPercent, in: -100...100, entity: box("Supplier markup", step: 0.1, unit: .percent)),
        SettingDescriptor(
            field: .gridFee, kind: .gridFee, entity: nil, inAddOnOptions: false, get: { .gridFee($0.gridFee) },
            set: { settings, value in if case let .gridFee(v) = value { settings.gridFee = v } }),
        SettingDescriptor(
            field: .vatOnNegative, kind: .flag,
            entity: Entity(component: .switch, name: "VAT on negative prices", step: nil, unit: .none), inAddOnOptions: false,
            get: { .flag($0.vatOnNegative) }, set: { settings, value in if case let .flag(v) = value { settings.vatOnNegative = v } }),
        .choice(.currency, \.currency, ["EUR"] + ExchangeRates.ecbCurrencies, entity: select("Currency"), addOn: true),
        .cases(.resolution, \.resolution, entity: select("Resolution")),
        .choice(.zone, \.zone, BiddingZone.all.map(\.code), entity: select("Bidding zone"), addOn: true),
        SettingDescriptor(
            field: .fallbackSources, kind: .sourceList, entity: nil, inAddOnOptions: true, get: { .list($0.fallbackSources) },
            set: { settings, value in if case let .list(v) = value { settings.fallbackSources = v } }),
        SettingDescriptor(
            field: .customURL, kind: .url, entity: nil, inAddOnOptions: false, get: { .text($0.customURL) },
            set: { settings, value in if case let .text(v) = value { settings.customURL = v } }),
        .choice(.customUnit, \.customUnit, ["EUR/kWh", "EUR/MWh"]),
        SettingDescriptor(
            field: .palette, kind: .palette, entity: nil, inAddOnOptions: false, get: { .colors($0.palette) },
            set: { settings, value in if case let .colors(v) = value { settings.palette.merge(v) { $1 } } }),
        SettingDescriptor(
            field: .brightness, kind: .brightness, entity: nil, inAddOnOptions: false, get: { .levels($0.brightness.mapValues { $0 }) },
            set: { settings, value in
                if case let .levels(v) = value { for (band, level) in v { settings.brightness[band] = level } }
            }),
        .integer(.priceDecimals, \.priceDecimals, in: 1...6, entity: box("Price decimals", step: 1, unit: .none)),
    ]

    /// The descriptors by field.
    static let byField: [SettingsField: SettingDescriptor] = Dictionary(uniqueKeysWithValues: all.map { ($0.field, $0) })
}

extension SettingsField {
    /// The one declaration of this setting.
    public var descriptor: SettingDescriptor { SettingDescriptor.byField[self]! }

    /// The kind of value the field takes and its allowed range.
    public var kind: Kind { descriptor.kind }
}

extension Settings {
    /// Reads or writes one field through its descriptor; the setter expects a value of the field's kind.
    public subscript(field: SettingsField) -> SettingValue {
        get { field.descriptor.get(self) }
        set { field.descriptor.set(&self, newValue) }
    }
}
