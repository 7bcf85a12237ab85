import EnergyClockDomain
import FoundationEssentials
import Platform

extension TimeZoneRules {
    /// The zone named `identifier` from the system's tz database, or nil when the name is not a
    /// zone there.
    ///
    /// The database is `directory`, else `$TZDIR`, else `/usr/share/zoneinfo`. A machine (or
    /// container) without tzdata still knows UTC.
    public init?(identifier: String, directory: String? = nil) {
        guard Self.isPlausibleName(identifier) else { return nil }
        let directory =
            directory ?? ProcessInfo.processInfo.environment["TZDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/share/zoneinfo"
        if let bytes = try? RegularFile.read(directory + "/" + identifier, limit: 1 << 20, timeout: 2).get() {
            self.init(identifier: identifier, tzif: bytes)
        } else if let utc = Self.utc(identifier) {
            self = utc
        } else {
            return nil
        }
    }

    /// Names like `Europe/Amsterdam` or `Etc/GMT+1`: no empty parts, no `..`, no absolute paths.
    private static func isPlausibleName(_ name: String) -> Bool {
        guard !name.isEmpty, name.utf8.count <= 255, !name.hasPrefix("/") else { return false }
        let allowed = name.utf8.allSatisfy { c in
            (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || (c >= 0x30 && c <= 0x39) || c == 0x2F || c == 0x5F
                || c == 0x2D || c == 0x2B
        }
        return allowed && !name.split(separator: "/", omittingEmptySubsequences: false).contains { $0.isEmpty || $0 == "." }
    }
}

extension LocalCalendar {
    /// A calendar for an IANA zone name such as `Europe/Amsterdam` from the system's tz database,
    /// or nil when unknown.
    public init?(identifier: String) {
        guard let zone = TimeZoneRules(identifier: identifier) else { return nil }
        self.init(timeZone: zone)
    }
}
