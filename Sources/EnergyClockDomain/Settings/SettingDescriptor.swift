/// Everything energyclock knows of one setting, declared once: its kind and range, how it is read
/// from and written to ``Settings``, how it shows in Home Assistant, and whether the add-on's
/// options offer it. Validation, JSON in and out, the add-on's options and discovery all follow
/// from ``SettingDescriptor/all``; a test holds the docs to it.
public struct SettingDescriptor: Sendable {
    /// The setting, named as on the wire.
    public let field: SettingsField
    /// The kind of value it takes and its allowed range.
    public let kind: SettingsField.Kind
    /// Its Home Assistant entity, when it has one of its own.
    public let entity: Entity?
    /// Whether the add-on's options (`/data/options.json`) may set it at start.
    public let inAddOnOptions: Bool
    /// Reads the setting. The settings come `inout` so that it reads them in place: a value would
    /// be copied whole, all forty fields with their retains, for every read.
    let get: @Sendable (inout Settings) -> SettingValue
    let set: @Sendable (inout Settings, SettingValue) -> Void

    /// How a setting shows in Home Assistant: a number box, a select or a switch.
    public struct Entity: Sendable {
        /// The entity's kind.
        public enum Component: String, Sendable {
            /// A number box with the range of the setting.
            case number
            /// A select of the setting's choices.
            case select
            /// An on/off switch.
            case `switch`
        }

        /// The unit a number is shown in.
        public enum Unit: Sendable {
            /// The `currency` setting per kWh.
            case pricePerKWh
            /// Grams of CO₂ per kWh.
            case co2PerKWh
            /// Percent.
            case percent
            /// Days.
            case days
            /// Decimals, or any other plain count.
            case none
        }

        /// The component.
        public let component: Component
        /// Its name on the dashboard.
        public let name: String
        /// The step of a number box.
        public let step: Double?
        /// The unit of a number box.
        public let unit: Unit
    }
}

extension SettingDescriptor {
    /// A setting kept at `path`, shown as a ``SettingValue`` by `wrap` and read back by `unwrap`.
    static func stored<Value: Sendable>(
        _ field: SettingsField, _ path: any WritableKeyPath<Settings, Value> & Sendable, _ kind: SettingsField.Kind,
        entity: Entity? = nil, addOn: Bool = false, wrap: @escaping @Sendable (Value) -> SettingValue,
        unwrap: @escaping @Sendable (SettingValue) -> Value?
    ) -> SettingDescriptor {
        // The class itself, not the existential: read through `any`, each read opens it first. A key
        // path to stored properties never changes once made; the parameter's `& Sendable` says so.
        nonisolated(unsafe) let path: WritableKeyPath<Settings, Value> = path
        // A key path applied at run time walks its components in generic code and looks up type
        // metadata each time: some 370 instructions a read, and a settings change reads sixty-odd
        // fields. Every path here names storage inside `Settings`, which `offset(of:)` finds once;
        // the field is then read and written where it lies, as that function's documentation shows.
        guard let offset = MemoryLayout<Settings>.offset(of: path) else {
            return SettingDescriptor(
                field: field, kind: kind, entity: entity, inAddOnOptions: addOn, get: { wrap($0[keyPath: path]) },
                set: { settings, value in if let v = unwrap(value) { settings[keyPath: path] = v } })
        }
        return SettingDescriptor(
            field: field, kind: kind, entity: entity, inAddOnOptions: addOn,
            get: { settings in wrap(withUnsafeMutablePointer(to: &settings) { Self.field(offset, of: $0, as: Value.self).pointee }) },
            set: { settings, value in
                guard let v = unwrap(value) else { return }
                withUnsafeMutablePointer(to: &settings) { Self.field(offset, of: $0, as: Value.self).pointee = v }
            })
    }

    /// The field of type `Value` at byte `offset` of the settings at `settings`.
    private static func field<Value>(_ offset: Int, of settings: UnsafeMutablePointer<Settings>, as _: Value.Type)
        -> UnsafeMutablePointer<Value>
    {
        UnsafeMutableRawPointer(settings).advanced(by: offset).assumingMemoryBound(to: Value.self)
    }

    /// A number read from and written to `path`.
    static func number(
        _ field: SettingsField, _ path: any WritableKeyPath<Settings, Double> & Sendable, in range: ClosedRange<Double>,
        entity: Entity? = nil, addOn: Bool = false
    ) -> SettingDescriptor {
        stored(field, path, .number(range), entity: entity, addOn: addOn, wrap: SettingValue.number) {
            if case let .number(v) = $0 { v } else { nil }
        }
    }

    /// A whole number read from and written to `path`.
    static func integer(
        _ field: SettingsField, _ path: any WritableKeyPath<Settings, Int> & Sendable, in range: ClosedRange<Int>,
        entity: Entity? = nil, addOn: Bool = false
    ) -> SettingDescriptor {
        stored(field, path, .integer(range), entity: entity, addOn: addOn, wrap: SettingValue.integer) {
            if case let .integer(v) = $0 { v } else { nil }
        }
    }

    /// A switch read from and written to `path`.
    static func flag(_ field: SettingsField, _ path: any WritableKeyPath<Settings, Bool> & Sendable, entity: Entity? = nil)
        -> SettingDescriptor
    {
        stored(field, path, .flag, entity: entity, wrap: SettingValue.flag) { if case let .flag(v) = $0 { v } else { nil } }
    }

    /// A word read from and written to `path`; an empty `choices` means "a known source id".
    static func choice(
        _ field: SettingsField, _ path: any WritableKeyPath<Settings, String> & Sendable, _ choices: [String], entity: Entity? = nil,
        addOn: Bool = false
    ) -> SettingDescriptor {
        text(field, path, .choice(choices), entity: entity, addOn: addOn)
    }

    /// Text of `kind` read from and written to `path`.
    static func text(
        _ field: SettingsField, _ path: any WritableKeyPath<Settings, String> & Sendable, _ kind: SettingsField.Kind,
        entity: Entity? = nil, addOn: Bool = false
    ) -> SettingDescriptor {
        stored(field, path, kind, entity: entity, addOn: addOn, wrap: SettingValue.text) { if case let .text(v) = $0 { v } else { nil } }
    }

    /// A short text of `kind`, held as a ``SourceName`` at `path`; the kind's check keeps it within
    /// ``SourceName/capacity`` bytes.
    static func name(
        _ field: SettingsField, _ path: any WritableKeyPath<Settings, SourceName> & Sendable, _ kind: SettingsField.Kind,
        addOn: Bool = false
    ) -> SettingDescriptor {
        stored(
            field, path, kind, addOn: addOn, wrap: { .text($0.description) },
            unwrap: { if case let .text(v) = $0 { SourceName(v) } else { nil } })
    }

    /// One of the cases of `E`, by its raw value, read from and written to `path`.
    static func cases<E: RawRepresentable<String> & CaseIterable & Sendable>(
        _ field: SettingsField, _ path: any WritableKeyPath<Settings, E> & Sendable, entity: Entity? = nil, addOn: Bool = false
    ) -> SettingDescriptor {
        stored(
            field, path, .choice(E.allCases.map(\.rawValue)), entity: entity, addOn: addOn, wrap: { .text($0.rawValue) },
            unwrap: { if case let .text(v) = $0 { E(rawValue: v) } else { nil } })
    }

    /// A number box in Home Assistant.
    static func box(_ name: String, step: Double, unit: Entity.Unit) -> Entity {
        Entity(component: .number, name: name, step: step, unit: unit)
    }

    /// A select in Home Assistant.
    static func select(_ name: String) -> Entity { Entity(component: .select, name: name, step: nil, unit: .none) }
}
