/// The price views of one daemon, in order, each a name and its own ``Settings``.
///
/// The first is always ``firstName``: the settings a single-view installation has always had.
/// Further profiles show another zone, source or formula (an export price, a second meter) side by
/// side. Names are checked by ``ProfileName``; ``merged(_:rules:)`` is the one way to change the set.
public struct Profiles: Sendable, Hashable {
    /// The name of the first profile, which cannot be removed.
    public static let firstName = "default"
    /// The most profiles one daemon keeps: one per European bidding zone, with room to spare.
    public static let limit = 64

    /// One named price view.
    public struct Profile: Sendable, Hashable {
        /// Its name: ``firstName`` or one that ``ProfileName`` accepts.
        public var name: String
        /// Its settings.
        public var settings: Settings

        /// The profile `name` with `settings`.
        public init(name: String, settings: Settings) {
            self.name = name
            self.settings = settings
        }
    }

    /// Every profile, the first one first.
    public private(set) var all: [Profile]

    /// Only the first profile, with `first`.
    public init(first: Settings) {
        all = [Profile(name: Self.firstName, settings: first)]
    }

    /// The first profile's settings.
    public var first: Settings {
        get { all[0].settings }
        set { all[0].settings = newValue }
    }

    /// The names, in order.
    public var names: [String] { all.map(\.name) }

    /// The settings of the profile called `name`, if there is one.
    public subscript(name: String) -> Settings? {
        all.first { $0.name == name }?.settings
    }

    /// Whether `other` holds the same profiles in the same order, each pricing every slot as here
    /// (see ``Settings/pricesAlike(_:)``): `other` differs at most in what decides the bands.
    package func pricesAlike(_ other: Profiles) -> Bool {
        all.count == other.all.count
            && all.indices.allSatisfy { all[$0].name == other.all[$0].name && all[$0].settings.pricesAlike(other.all[$0].settings) }
    }

    /// Whether a profile is called `name`.
    public func contains(_ name: String) -> Bool { all.contains { $0.name == name } }

    /// Gives the profile `name` these settings, adding it at the end when there is none; the
    /// caller has checked the name and the limit.
    package mutating func set(_ name: String, _ settings: Settings) {
        if let i = all.firstIndex(where: { $0.name == name }) {
            all[i].settings = settings
        } else {
            all.append(Profile(name: name, settings: settings))
        }
    }

    /// Removes the profile `name`; never the first.
    mutating func remove(_ name: String) {
        all.removeAll { $0.name == name && $0.name != Self.firstName }
    }
}
