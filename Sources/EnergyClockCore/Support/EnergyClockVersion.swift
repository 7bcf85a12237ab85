/// The version of this build.
public enum EnergyClockVersion {
    /// Semantic version.
    public static let string = "0.1.0"
}
