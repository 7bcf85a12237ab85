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
        precondition((0...9).contains(decimals))
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (abs(value) * scale).rounded(.toNearestOrAwayFromZero)
        guard scaled < 9e15 else { return String(value) }
        let units = Int64(scaled)
        let divisor = Int64(scale)
        let whole = units / divisor
        var fraction = units % divisor
        var sign = value < 0 && units != 0 ? "-" : ""
        if units == 0 { sign = "" }
        guard fraction != 0 else { return sign + String(whole) }
        var width = decimals
        while fraction % 10 == 0 {
            fraction /= 10
            width -= 1
        }
        return sign + String(whole) + "." + pad(Int(fraction), width)
    }
}
