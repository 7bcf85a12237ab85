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
        .stored(.gridFee, \.gridFee, .gridFee, wrap: SettingValue.gridFee) { if case let .gridFee(v) = $0 { v } else { nil } },
        .flag(.vatOnNegative, \.vatOnNegative, entity: Entity(component: .switch, name: "VAT on negative prices", step: nil, unit: .none)),
        .choice(.currency, \.currency, ["EUR"] + ExchangeRates.ecbCurrencies, entity: select("Currency"), addOn: true),
        .cases(.resolution, \.resolution, entity: select("Resolution")),
        .choice(.zone, \.zone, BiddingZone.codes, entity: select("Bidding zone"), addOn: true),
        .stored(.fallbackSources, \.fallbackSources, .sourceList, addOn: true, wrap: SettingValue.list) {
            if case let .list(v) = $0 { v } else { nil }
        },
        .text(.customURL, \.customURL, .url),
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
        .cases(.kind, \.kind, entity: select("Kind")),
        .number(.exportFactor, \.exportFactor, in: 0...5, entity: box("Export factor", step: 0.01, unit: .none)),
        .number(.exportFee, \.exportFee, in: -1...1, entity: box("Export fee", step: 0.001, unit: .pricePerKWh)),
        .flag(.exportVAT, \.exportVAT, entity: Entity(component: .switch, name: "VAT on export", step: nil, unit: .none)),
        .cases(.exportNegative, \.exportNegative, entity: select("Export at negative prices")),
        .cases(.direction, \.direction, entity: select("Band direction")),
        .flag(.negativeBand, \.negativeBand, entity: Entity(component: .switch, name: "Band for negative prices", step: nil, unit: .none)),
        .integer(.forecastStep, \.forecastStep, in: 15...60),
        SettingDescriptor(
            field: .jobs, kind: .jobs, entity: nil, inAddOnOptions: false, get: { .jobs($0.jobs.mapValues { JobPatch($0) }) },
            set: { settings, value in
                guard case let .jobs(changes) = value else { return }
                for (name, change) in changes { settings.jobs[name] = change.map { $0.applied(to: settings.jobs[name]) } }
            }),
        .text(.octopusProduct, \.octopusProduct, .productCode),
        .choice(.octopusRegion, \.octopusRegion, [""] + OctopusRegion.letters, addOn: true),
        .text(.forecastProvider, \.forecastProvider, .provider, addOn: true),
        .stored(.forecastFallbacks, \.forecastFallbacks, .providerList, wrap: SettingValue.list) {
            if case let .list(v) = $0 { v } else { nil }
        },
        .flag(
            .forecastTail, \.forecastTail, entity: Entity(component: .switch, name: "Forecast beyond the auction", step: nil, unit: .none)),
        .cases(.signal, \.signal, entity: select("Signal"), addOn: true),
        .name(.carbonSource, \.carbonSourceName, .provider, addOn: true),
        .name(.carbonArea, \.carbonAreaName, .area, addOn: true),
        .number(.co2GreenMax, \.co2Thresholds.greenMax, in: 0...5000, entity: box("CO₂ green up to", step: 1, unit: .co2PerKWh)),
        .number(.co2YellowMax, \.co2Thresholds.yellowMax, in: 0...5000, entity: box("CO₂ yellow up to", step: 1, unit: .co2PerKWh)),
        .number(.co2OrangeMax, \.co2Thresholds.orangeMax, in: 0...5000, entity: box("CO₂ orange up to", step: 1, unit: .co2PerKWh)),
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
        get {
            var settings = self
            return field.descriptor.get(&settings)
        }
        set { field.descriptor.set(&self, newValue) }
    }
}
