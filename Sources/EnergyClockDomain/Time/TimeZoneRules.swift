import FoundationEssentials

/// The UTC offsets of one IANA time zone, read from the system's tz database (TZif files).
///
/// Foundation's `TimeZone` needs ICU on Linux, which costs the daemon megabytes of memory for
/// one question: the offset from UTC at an instant. This reader answers it from
/// `/usr/share/zoneinfo` (or `$TZDIR`), with the file's POSIX rule for instants after its last
/// listed transition.
public struct TimeZoneRules: Sendable, Hashable {
    /// The IANA name, such as `Europe/Amsterdam`.
    public let identifier: String
    /// Instants (seconds since 1970, UTC) at which the offset changes, ascending.
    let transitions: [Int64]
    /// The offset in force from each transition on.
    let offsets: [Int32]
    /// The offset before the first transition.
    let initialOffset: Int32
    /// The rule for instants after the last transition; nil when the file has none.
    let rule: PosixTimeZone?

    /// The zone `identifier` from its TZif file's bytes, or nil when they are not a TZif file.
    public init?(identifier: String, tzif bytes: [UInt8]) {
        guard let parsed = TZif.parse(bytes) else { return nil }
        self.init(
            identifier: identifier, transitions: parsed.transitions, offsets: parsed.offsets,
            initialOffset: parsed.initialOffset, rule: parsed.rule)
    }

    /// UTC under one of its names, for a machine (or container) without tzdata.
    public static func utc(_ identifier: String) -> TimeZoneRules? {
        guard utcNames.contains(identifier) else { return nil }
        return TimeZoneRules(identifier: identifier, transitions: [], offsets: [], initialOffset: 0, rule: nil)
    }

    /// The names under which a zone is UTC itself.
    private static let utcNames: Set<String> = ["UTC", "Etc/UTC", "GMT", "Etc/GMT", "Zulu", "Etc/Zulu"]

    init(identifier: String, transitions: [Int64], offsets: [Int32], initialOffset: Int32, rule: PosixTimeZone?) {
        self.identifier = identifier
        self.transitions = transitions
        self.offsets = offsets
        self.initialOffset = initialOffset
        self.rule = rule
    }

    /// Seconds east of UTC at `seconds` since 1970.
    public func secondsFromUTC(at seconds: Int64) -> Int {
        if let last = transitions.last, seconds >= last, let rule {
            return rule.offset(at: seconds)
        }
        if transitions.isEmpty { return rule?.offset(at: seconds) ?? Int(initialOffset) }
        // The last transition at or before `seconds`.
        var low = 0
        var high = transitions.count
        while low < high {
            let middle = (low + high) / 2
            if transitions[middle] <= seconds { low = middle + 1 } else { high = middle }
        }
        return low == 0 ? Int(initialOffset) : Int(offsets[low - 1])
    }

    /// Seconds east of UTC at `instant`; an instant that is no number, or beyond what 64 bits of
    /// seconds hold, is taken at the nearest end of time (such an instant is only ever written out
    /// as its number of seconds, but must not stop the program on its way there).
    public func secondsFromUTC(for instant: Date) -> Int {
        let seconds = instant.timeIntervalSince1970.rounded(.down)
        let bounded = seconds.isNaN ? 0 : min(max(seconds, -9.2e18), 9.2e18)
        return secondsFromUTC(at: Int64(bounded))
    }
}
