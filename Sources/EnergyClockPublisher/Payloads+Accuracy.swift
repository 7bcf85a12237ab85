import EnergyClockDomain

extension Payloads {
    /// `forecast/accuracy`: the profile's `forecast_provider` with its figures over every horizon
    /// at the top (`null` before anything was scored), then each provider scored, by horizon.
    ///
    /// `{"provider","days","unit","slots","mae","bias","band_agreement","providers":{"<id>":{"0-24h":{…},…}}}`
    package static func accuracy(_ card: ForecastAccuracy, _ settings: Settings) -> String {
        let decimals = 6
        func figures(_ tally: ForecastAccuracy.Tally, into w: inout JSONWriter) {
            w.field("slots", tally.slots)
            w.field("mae", tally.meanAbsoluteError.map { DecimalFormat.rounded($0, decimals: decimals) })
            w.field("bias", tally.bias.map { DecimalFormat.rounded($0, decimals: decimals) })
            w.field("band_agreement", tally.bandAgreement.map { DecimalFormat.rounded($0, decimals: 4) })
        }
        var w = JSONWriter()
        w.beginObject()
        w.field("provider", settings.forecastProvider)
        w.field("days", ForecastAccuracy.days)
        w.field("unit", settings.unit)
        figures(card.tally(of: settings.forecastProvider), into: &w)
        w.key("providers")
        w.beginObject()
        for provider in card.providers {
            w.key(provider)
            w.beginObject()
            for horizon in ForecastAccuracy.Horizon.allCases {
                w.key(horizon.name)
                w.beginObject()
                figures(card.tally(of: provider, at: horizon), into: &w)
                w.endObject()
            }
            w.endObject()
        }
        w.endObject()
        w.endObject()
        return w.output
    }
}
