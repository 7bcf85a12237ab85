import EnergyClockDomain
import EnergyClockSupport

extension ExchangeRates {
    /// Reads the ECB's daily reference rates file (`eurofxref-daily.xml`): its day and its rates.
    ///
    /// Every rate must be a plain positive number within ``plausibleRates(of:)``; a file without a
    /// day or without rates is refused.
    public static func parseECB(_ body: [UInt8]) throws(SourceError) -> (day: LocalDay, rates: [String: Double]) {
        func fail(_ reason: String) -> SourceError { SourceError(source: "ecb", problem: .malformed(reason)) }
        guard !body.isEmpty else { throw SourceError(source: "ecb", problem: .emptyBody) }
        var day: LocalDay?
        var rates: [String: Double] = [:]
        var sawEnvelope = false
        do {
            try XMLStream.read(body) { event in
                guard case let .start(name, attributes) = event else { return nil }
                if name == "Envelope" { sawEnvelope = true }
                guard name == "Cube" else { return nil }
                if let time = attributes["time"] {
                    guard day == nil else { return "the file holds more than one day" }
                    guard let parsed = LocalDay(parsing: time) else { return "time \"\(Quote.clip(time, limit: 40))\" is not a date" }
                    day = parsed
                }
                if attributes["rate"] != nil, attributes["currency"] == nil { return "a rate without a currency" }
                if let currency = attributes["currency"] {
                    guard currency.count == 3, currency.allSatisfy({ $0.isASCII && $0.isUppercase }) else {
                        return "currency \"\(Quote.clip(currency, limit: 40))\" is not a currency code"
                    }
                    guard let text = attributes["rate"], let rate = Bounded.decimal(text), rate > 0 else {
                        return "the rate of \(currency) is not a positive number"
                    }
                    if let reason = implausibility(of: rate, currency: currency) { return reason }
                    rates[currency] = rate
                }
                return nil
            }
        } catch {
            throw fail(error.reason)
        }
        guard sawEnvelope else { throw fail("not an ECB reference rates file") }
        guard let day else { throw fail("the file names no day") }
        guard !rates.isEmpty else { throw fail("the file holds no rates") }
        return (day, rates)
    }
}
