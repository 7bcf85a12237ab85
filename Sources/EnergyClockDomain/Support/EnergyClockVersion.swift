/// The version of this build.
public enum EnergyClockVersion {
    /// The semantic version, shown by `--version`, in the log and to Home Assistant.
    public static let string = "0.1.0"
}
