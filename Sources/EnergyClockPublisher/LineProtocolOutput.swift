import EnergyClockDomain

/// One InfluxDB line-protocol point per change of the current slot's state, for the `influx` topic
/// and an InfluxDB server.
struct LineProtocolOutput {
    private var last: String?

    /// The point for `snapshot` when it differs from the last one, else nil.
    mutating func newPoint(for snapshot: Snapshot) -> String? {
        guard let line = LineProtocol.currentPoint(snapshot), line != last else { return nil }
        last = line
        return line
    }
}
