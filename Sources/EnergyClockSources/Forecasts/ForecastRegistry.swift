import FoundationEssentials

/// The forecast providers this build knows, in the order users see them.
public enum ForecastRegistry {
    /// Every provider.
    public static let entries: [ForecastEntry] = [
        ForecastEntry(
            id: "epex-predictor", api: "EPEX Predictor API base", defaultURL: EpexPredictorProvider.defaultBaseURL,
            make: { url, http, _ in EpexPredictorProvider(baseURL: url, http: http) }),
        ForecastEntry(
            id: "energyforecast", api: "energyforecast.de API base", defaultURL: EnergyForecastProvider.defaultBaseURL,
            make: { url, http, tokens in EnergyForecastProvider(baseURL: url, token: tokens.energyforecast, http: http) }),
        ForecastEntry(
            id: "energypriceforecast", api: "energypriceforecast.eu API base", defaultURL: EnergyPriceForecastProvider.defaultBaseURL,
            make: { url, http, tokens in EnergyPriceForecastProvider(baseURL: url, key: tokens.energypriceforecast, http: http) }),
        ForecastEntry(
            id: "nordpool-predict-fi", api: "nordpool-predict-fi prediction file", defaultURL: NordPoolPredictProvider.defaultURL,
            make: { url, http, _ in NordPoolPredictProvider(url: url, http: http) }),
    ]

    /// The ids users may choose, in order.
    public static var ids: [String] { entries.map(\.id) }
}
