import EnergyClockDomain
import FoundationEssentials

extension PriceStore {
    /// The stored exchange rates of days up to `latest`, and how many stored rows were left out:
    /// those dated later, unreadable, or outside ``ExchangeRates/plausibleRates(of:)``.
    public func exchangeRates(notAfter latest: LocalDay) throws(StoreError) -> (rates: ExchangeRates, ignored: Int) {
        var rates = ExchangeRates()
        var ignored = 0
        try db.query("SELECT day, currency, rate FROM exchange_rates", action: "read the exchange rates") { row in
            let currency = row.text(1)
            guard let day = LocalDay(parsing: row.text(0)), day <= latest,
                ExchangeRates.implausibility(of: row.real(2), currency: currency) == nil
            else {
                ignored += 1
                return
            }
            rates.set(currency, row.real(2), on: day)
        }
        return (rates, ignored)
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
