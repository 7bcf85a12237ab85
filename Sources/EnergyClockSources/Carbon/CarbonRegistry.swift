import FoundationEssentials

/// A carbon source's entry.
public typealias CarbonEntry = RegistryEntry<any CarbonSource>

/// The carbon sources this build knows, intensities first, then grid signals, in the order users
/// see them.
public enum CarbonRegistry {
    /// Every carbon source.
    public static let entries: [CarbonEntry] = [
        CarbonEntry(
            id: "gb-carbon-intensity", api: "GB Carbon Intensity API base", defaultURL: GBCarbonIntensitySource.defaultBaseURL,
            make: { url, http, _ in GBCarbonIntensitySource(baseURL: url, http: http) }),
        CarbonEntry(
            id: "energinet-co2", api: "Energi Data Service API base (CO2EmisProg)", defaultURL: EnerginetCO2Source.defaultBaseURL,
            make: { url, http, _ in EnerginetCO2Source(baseURL: url, http: http) }),
        CarbonEntry(
            id: "energy-charts-signal", api: "Energy-Charts API base (signal)", defaultURL: EnergyChartsSignalSource.defaultBaseURL,
            make: { url, http, _ in EnergyChartsSignalSource(baseURL: url, http: http) }),
        CarbonEntry(
            id: "stromgedacht", api: "StromGedacht API base", defaultURL: StromGedachtSource.defaultBaseURL,
            make: { url, http, _ in StromGedachtSource(baseURL: url, http: http) }),
    ]

    /// The ids users may choose as `carbon_source`, in order.
    public static var ids: [String] { entries.map(\.id) }
}
