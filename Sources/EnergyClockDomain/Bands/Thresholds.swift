/// The upper bounds of the green, yellow and orange bands in EUR/kWh; above `orangeMax` is red.
public struct Thresholds: Sendable, Hashable {
    /// Highest green price.
    public var greenMax: Double
    /// Highest yellow price.
    public var yellowMax: Double
    /// Highest orange price.
    public var orangeMax: Double

    /// Thresholds from three bounds.
    public init(greenMax: Double, yellowMax: Double, orangeMax: Double) {
        self.greenMax = greenMax
        self.yellowMax = yellowMax
        self.orangeMax = orangeMax
    }

    /// The error for thresholds that do not increase strictly, their fields named with `prefix`;
    /// nil when they do.
    func increasingProblem(prefix: String) -> SettingsError? {
        guard greenMax < yellowMax, yellowMax < orangeMax else {
            return .thresholdsNotIncreasing(green: greenMax, yellow: yellowMax, orange: orangeMax, prefix: prefix)
        }
        return nil
    }

    /// These thresholds at the six decimals they are published with.
    public func rounded() -> Thresholds {
        Thresholds(
            greenMax: DecimalFormat.rounded(greenMax), yellowMax: DecimalFormat.rounded(yellowMax),
            orangeMax: DecimalFormat.rounded(orangeMax))
    }

    /// Relative thresholds: the quartiles Q1, median and Q3 of `prices`, or nil when there are none.
    ///
    /// Quantiles interpolate linearly between closest ranks, as numpy's default does.
    public static func quartiles(of prices: [Double]) -> Thresholds? {
        guard !prices.isEmpty else { return nil }
        let sorted = prices.sorted()
        return Thresholds(
            greenMax: quantile(sorted, 0.25),
            yellowMax: quantile(sorted, 0.5),
            orangeMax: quantile(sorted, 0.75)
        )
    }

    /// The `p`-quantile of ascending `sorted` values by linear interpolation (numpy's "linear").
    public static func quantile(_ sorted: [Double], _ p: Double) -> Double {
        precondition(!sorted.isEmpty, "quantile of no values")
        let h = Double(sorted.count - 1) * p
        let low = Int(h.rounded(.down))
        let high = min(low + 1, sorted.count - 1)
        return sorted[low] + (h - Double(low)) * (sorted[high] - sorted[low])
    }
}
