import FoundationEssentials

extension PriceStore {
    /// Every stored exchange rate.
    public func exchangeRates() throws(StoreError) -> ExchangeRates {
        var rates = ExchangeRates()
        try db.query("SELECT day, currency, rate FROM exchange_rates", action: "read the exchange rates") { row in
            guard let day = LocalDay(parsing: row.text(0)), row.real(2) > 0 else { return }
            rates.set(row.text(1), row.real(2), on: day)
        }
        return rates
    }

    /// Saves the rates of one day, replacing what was stored for it.
    public func save(rates: [String: Double], on day: LocalDay) throws(StoreError) {
        try db.transaction(action: "save the exchange rates of \(day)") { () throws(StoreError) in
            for (currency, rate) in rates.sorted(by: { $0.key < $1.key }) {
                try db.query(
                    "INSERT INTO exchange_rates (day, currency, rate) VALUES (?, ?, ?) ON CONFLICT(day, currency) DO UPDATE SET rate = excluded.rate",
                    [.text(day.description), .text(currency), .real(rate)], action: "save the exchange rates of \(day)")
            }
        }
    }
}
