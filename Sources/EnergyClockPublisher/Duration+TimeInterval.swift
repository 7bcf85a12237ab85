extension Duration {
    /// The duration in seconds, for arithmetic with wall-clock dates.
    var timeInterval: Double {
        let parts = components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }
}
