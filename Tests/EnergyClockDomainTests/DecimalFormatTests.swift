import EnergyClockDomain
import EnergyClockTesting
import Testing

@Suite struct DecimalFormatTests {
    @Test(arguments: [
        (0.1 + 0.2, "0.3"), (0.30000000000000004, "0.3"), (0.2345, "0.2345"), (1, "1"), (0, "0"),
        (-0.0000001, "0"), (-0.012345, "-0.012345"), (0.0000005, "0.000001"), (12.5, "12.5"), (0.1234567, "0.123457"),
        (-0.0, "0"), (-3, "-3"), (100, "100"), (0.000001, "0.000001"), (-0.0000005, "-0.000001"), (123_456.654321, "123456.654321"),
    ])
    func noFloatNoise(value: Double, text: String) {
        #expect(DecimalFormat.string(value) == text)
        #expect(Self.written(value, decimals: 6) == text)
        var w = JSONWriter()
        w.number(value)
        #expect(w.output == text)
    }

    @Test(arguments: [
        (8e9, 6, "8000000000"), (9e9, 6, "9000000000.0"), (9e15, 0, "9000000000000000.0"), (Double.infinity, 6, "inf"),
        (-Double.infinity, 2, "-inf"), (Double.nan, 6, "nan"),
        (1e300, 6, "1e+300"), (0.5, 0, "1"), (-0.5, 0, "-1"), (0.05, 1, "0.1"), (123.456789012, 9, "123.456789012"),
    ])
    func largeAndNonFiniteValuesAndEveryPrecision(value: Double, decimals: Int, text: String) {
        #expect(DecimalFormat.string(value, decimals: decimals) == text)
        // Past exact digits, `write` leaves the number to `string`.
        let exact = value.isFinite && (abs(value) * Self.pow10(decimals)).rounded(.toNearestOrAwayFromZero) < 9e15
        #expect(Self.written(value, decimals: decimals) == (exact ? text : nil))
    }

    /// The digits are written straight into bytes; the plain way, with strings, is the reference.
    @Test func agreesWithThePlainWayOnManyValues() {
        var random = SeededRandom(seed: 23)
        for k in 0..<20_000 {
            let decimals = k % 10
            let magnitude = [1e-9, 1e-4, 1, 1e3, 1e6, 1e12][k % 6]
            var value = Double.random(in: -magnitude...magnitude, using: &random)
            // Exact ties of the last place, which round away from zero.
            if k % 7 == 0 { value = (value * 1e4).rounded() / 1e4 + (value < 0 ? -0.5 : 0.5) / Self.pow10(decimals) }
            let expected = Self.plain(value, decimals: decimals)
            #expect(DecimalFormat.string(value, decimals: decimals) == expected, "\(value) to \(decimals) places")
            // Past exact digits `write` declines, and JSON takes Swift's own text, as the plain way did.
            #expect((Self.written(value, decimals: decimals) ?? String(value)) == expected)
            #expect(
                Double(expected).map { $0 == DecimalFormat.rounded(value, decimals: decimals) } ?? false, "reads back as the rounded value")
        }
    }

    /// What ``DecimalFormat/write(_:decimals:to:)`` writes, with a byte on either side that it must leave alone.
    private static func written(_ value: Double, decimals: Int) -> String? {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: DecimalFormat.longest + 2) { buffer in
            buffer.initialize(repeating: 0xFF)
            let inner = UnsafeMutableBufferPointer(rebasing: buffer[1...DecimalFormat.longest])
            guard let count = DecimalFormat.write(value, decimals: decimals, to: inner) else { return nil }
            guard buffer[0] == 0xFF, buffer[DecimalFormat.longest + 1] == 0xFF, count <= DecimalFormat.longest else { return "overrun" }
            return String(decoding: inner[..<count], as: UTF8.self)
        }
    }

    private static func pow10(_ n: Int) -> Double { (0..<n).reduce(1.0) { value, _ in value * 10 } }

    /// The text as it was first written: the whole and the fraction as strings, joined.
    private static func plain(_ value: Double, decimals: Int) -> String {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (abs(value) * scale).rounded(.toNearestOrAwayFromZero)
        guard scaled < 9e15 else { return String(value) }
        let units = Int64(scaled)
        let divisor = Int64(scale)
        let whole = units / divisor
        var fraction = units % divisor
        let sign = value < 0 && units != 0 ? "-" : ""
        guard fraction != 0 else { return sign + String(whole) }
        var width = decimals
        while fraction % 10 == 0 {
            fraction /= 10
            width -= 1
        }
        let digits = String(fraction)
        return sign + String(whole) + "." + String(repeating: "0", count: width - digits.count) + digits
    }
}
