/// The regions of Great Britain's distribution network, by which Octopus prices its tariffs.
public enum OctopusRegion {
    /// The GSP group letters of the fourteen regions, as the `octopus_region` setting takes them.
    public static let letters = ["A", "B", "C", "D", "E", "F", "G", "H", "J", "K", "L", "M", "N", "P"]
}
