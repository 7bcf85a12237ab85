import FoundationEssentials

extension PriceManager {
    /// Days the ECB's daily file may be older than today: weekends and TARGET holidays leave gaps
    /// of a few days, never of two weeks.
    static let oldestRatesFile = 14

    /// Whether prices are converted, and so need exchange rates.
    var convertsCurrency: Bool { settings.currency != "EUR" }

    /// Fetches the ECB's reference rates when prices are converted and new rates are due.
    ///
    /// A failed fetch keeps the rates known and marks the prices stale until a fetch succeeds.
    func refreshRatesIfDue(at now: Date) async {
        guard convertsCurrency, let feed = catalog.rateFeed, ratesSchedule.isDue(at: now, latest: rates.latestDay) else { return }
        do {
            let (day, fetched) = try await feed.fetch()
            // A file dated after today would stand as the newest rates for good: never fetched again.
            // One weeks old is not the daily file either, and would price today at an old rate.
            let today = ratesSchedule.cet.day(containing: clock.now)
            guard day <= today else {
                throw SourceError(source: "ecb", problem: .malformed("the file is dated \(day), after today (\(today) in CET)"))
            }
            guard day >= today.adding(days: -Self.oldestRatesFile) else {
                throw SourceError(
                    source: "ecb",
                    problem: .malformed(
                        "the file is dated \(day), more than \(Self.oldestRatesFile) days before today; it is not the daily file"))
            }
            do { try store.save(rates: fetched, on: day) } catch { logger.error("\(error)") }
            for (currency, rate) in fetched { rates.set(currency, rate, on: day) }
            ratesSchedule.succeeded(at: clock.now, day: day)
            ratesStale = false
            if fetched[settings.currency] == nil {
                logger.error("the ECB's rates of \(day) hold no \(settings.currency); prices stay at the rates known before")
            } else {
                logger.info("exchange rates of \(day): 1 EUR = \(DecimalFormat.string(fetched[settings.currency]!)) \(settings.currency)")
            }
        } catch {
            ratesStale = true
            ratesSchedule.failed(at: clock.now, jitter: jitter())
            let kept = rates.latestDay.map { "keeping the rates of \($0)" } ?? "no rates are known, so no converted prices are published"
            logger.warning("exchange rates fetch failed: \(error); \(kept)")
        }
    }

    /// When the run loop should next look at the rates; far away when prices are not converted.
    func nextRatesCheck(after now: Date) -> Date {
        guard convertsCurrency, catalog.rateFeed != nil else { return .distantFuture }
        return ratesSchedule.nextCheck(after: now, latest: rates.latestDay)
    }

    /// `snapshot`, after logging once when prices start or stop being left out for want of a rate,
    /// or because they worked out to a number that is not finite.
    func noted(_ snapshot: Snapshot) -> Snapshot {
        let currency = settings.currency
        logChange(
            of: snapshot.nonFinitePrice, &nonFiniteLogged,
            started: "some prices work out to a number that is not finite with the settings and exchange rates in force; "
                + "they are not published (check the currency's rate and the tariff settings)",
            ended: "every known price is a finite number again")
        logChange(
            of: snapshot.missingRate, &missingRateLogged,
            started: "no \(currency) exchange rate is known for some days with prices; their prices are not published "
                + "until the ECB's reference rates cover them (see --ecb-url)",
            ended: "every day with prices has a \(currency) exchange rate again")
        return snapshot
    }

    /// Logs `started` as an error when `condition` becomes true and `ended` when it becomes false
    /// again, once each; `logged` remembers which was said last.
    private func logChange(
        of condition: Bool, _ logged: inout Bool, started: @autoclosure () -> String, ended: @autoclosure () -> String
    ) {
        guard condition != logged else { return }
        logged = condition
        if condition { logger.error(started()) } else { logger.info(ended()) }
    }
}
