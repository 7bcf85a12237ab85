import FoundationEssentials

/// The one gate a number from outside passes before it becomes an `Int`, a `Date` or a stored
/// value: a price API's answer, a file, a setting, the environment or a helper's output.
///
/// Swift traps when a `Double` that is not finite, or too large, is converted to an integer, and
/// a time far from now turns every later computation (a row per hour, a formatter) into a trap
/// or an allocation without end. Each function here checks finiteness and range first and
/// answers nil, so the caller refuses the value with an error that names it.
package enum Bounded {
    /// Seconds since 1970 that any instant from outside may name: 2000-01-01 to 2100-01-01 UTC.
    ///
    /// Wide enough for every real answer and narrow enough that seconds, milliseconds and
    /// nanoseconds of it fit an `Int64`. A slot is held to a much narrower window around now
    /// (``SlotWindow``); this range is what stays safe to compute with before that check.
    package static let epochSeconds: ClosedRange<Double> = 946_684_800...4_102_444_800

    /// The instant `seconds` after 1970, when finite and within ``epochSeconds``.
    package static func instant(secondsSince1970 seconds: Double) -> Date? {
        epochSeconds.contains(seconds) ? Date(timeIntervalSince1970: seconds) : nil
    }

    /// `value` as an `Int` when it is finite, whole and within `range`.
    package static func integer(_ value: Double, in range: ClosedRange<Int>) -> Int? {
        guard value.isFinite, value == value.rounded(), value >= Double(range.lowerBound), value <= Double(range.upperBound) else {
            return nil
        }
        return Int(value)
    }

    /// `value` when it is finite and within `range`.
    package static func number(_ value: Double, in range: ClosedRange<Double>) -> Double? {
        value.isFinite && range.contains(value) ? value : nil
    }

    /// Whole seconds since 1970 of `instant`, clamped to what an `Int64` holds; for instants the
    /// daemon made itself, which are in range, and for any other one without a trap.
    package static func wholeSeconds(_ instant: Date, rounding rule: FloatingPointRoundingRule = .down) -> Int64 {
        let seconds = instant.timeIntervalSince1970.rounded(rule)
        guard seconds.isFinite else { return seconds.isNaN ? 0 : (seconds < 0 ? .min : .max) }
        return Int64(min(max(seconds, -9.2e18), 9.2e18))
    }

    /// A plain decimal number: an optional sign, digits with an optional fraction, and an
    /// optional exponent, at most 64 characters, finite. Not `0x1p3`, `nan`, `inf`, `1_000`,
    /// `.5` or surrounding spaces, which `Double(_:)` would take or a user would not mean.
    package static func decimal(_ text: some StringProtocol) -> Double? {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty, bytes.count <= 64 else { return nil }
        var i = 0
        func digits() -> Int {
            let from = i
            while i < bytes.count, (0x30...0x39).contains(bytes[i]) { i += 1 }
            return i - from
        }
        if bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+") { i += 1 }
        guard digits() > 0 else { return nil }
        if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
            i += 1
            guard digits() > 0 else { return nil }
        }
        if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
            i += 1
            if i < bytes.count, bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+") { i += 1 }
            guard digits() > 0 else { return nil }
        }
        guard i == bytes.count, let value = Double(String(decoding: bytes, as: UTF8.self)), value.isFinite else { return nil }
        return value
    }
}
