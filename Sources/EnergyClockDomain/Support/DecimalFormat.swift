/// Plain decimal text for prices: at most six decimals, no exponent, no trailing zeros.
package enum DecimalFormat {
    /// `value` rounded half away from zero to `decimals` places, as ``string(_:decimals:)`` writes it.
    ///
    /// Prices and thresholds are compared after this rounding, so a band always agrees with the
    /// number a user reads on a topic.
    package static func rounded(_ value: Double, decimals: Int = 6) -> Double {
        guard value.isFinite else { return value }
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (value * scale).rounded(.toNearestOrAwayFromZero)
        guard abs(scaled) < 9e15 else { return value }
        let result = scaled / scale
        return result == 0 ? 0 : result
    }

    /// `value` rounded half away from zero to six decimals, e.g. `0.3` or `-0.012345`.
    package static func string(_ value: Double, decimals: Int = 6) -> String {
        guard let units = units(value, decimals: decimals) else { return String(value) }
        return String(unsafeUninitializedCapacity: longest) { write(units, decimals: decimals, to: $0) }
    }

    /// Writes ``string(_:decimals:)`` of `value` into `buffer`, which holds ``longest`` bytes at
    /// least, as UTF-8, and returns how many it wrote: the JSON payloads write every price this
    /// way, without a string of it. Nil, with nothing written, when `value` is not finite or too
    /// large for exact digits; ``string(_:decimals:)`` writes those as Swift does.
    package static func write(_ value: Double, decimals: Int = 6, to buffer: UnsafeMutableBufferPointer<UInt8>) -> Int? {
        guard let units = units(value, decimals: decimals) else { return nil }
        return write(units, decimals: decimals, to: buffer)
    }

    /// The most bytes ``write(_:decimals:to:)`` writes: a sign, sixteen digits and the point.
    package static let longest = 18

    /// `value` in units of the last of `decimals` places, rounded half away from zero, with its
    /// sign; nil when it is not finite or too large for an exact integer of them.
    private static func units(_ value: Double, decimals: Int) -> (magnitude: UInt64, negative: Bool)? {
        precondition((0...9).contains(decimals))
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (abs(value) * scale).rounded(.toNearestOrAwayFromZero)
        // False for a NaN as well.
        guard scaled < 9e15 else { return nil }
        let magnitude = UInt64(scaled)
        // A value that rounds to zero has no sign.
        return (magnitude, value < 0 && magnitude != 0)
    }

    /// Writes the decimal text of `units` into the start of `buffer`, at least ``longest`` bytes,
    /// and returns its length: the point `decimals` places from the right, and the fraction's
    /// trailing zeros (and the point with them) dropped.
    private static func write(_ units: (magnitude: UInt64, negative: Bool), decimals: Int, to buffer: UnsafeMutableBufferPointer<UInt8>)
        -> Int
    {
        var rest = units.magnitude
        var places = decimals
        while places > 0, rest % 10 == 0 {
            rest /= 10
            places -= 1
        }
        var scale: UInt64 = 1
        for _ in 0..<places { scale *= 10 }
        // Below 9e15 and 1e9: both fit an `Int`.
        let whole = Int(rest / scale)
        var digits = 1
        var power = 10
        while power <= whole {
            digits += 1
            power *= 10
        }
        var index = 0
        if units.negative {
            buffer[0] = UInt8(ascii: "-")
            index = 1
        }
        writeDigits(whole, digits, to: buffer, at: &index)
        if places > 0 {
            buffer[index] = UInt8(ascii: ".")
            index += 1
            writeDigits(Int(rest % scale), places, to: buffer, at: &index)
        }
        return index
    }
}
