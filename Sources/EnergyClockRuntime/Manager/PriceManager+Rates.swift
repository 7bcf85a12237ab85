import EnergyClockDomain
import EnergyClockSources
import EnergyClockStore
import FoundationEssentials

extension PriceManager {
    /// Days the ECB's daily file may be older than today: weekends and TARGET holidays leave gaps
    /// of a few days, never of two weeks.
    static let oldestRatesFile = 14

    /// The currencies prices are converted from or to, and so need exchange rates for.
    var convertedCurrencies: [String] {
        var seen: Set<String> = []
        return profiles.all.flatMap(convertedCurrencies(of:)).filter { seen.insert($0).inserted }
    }

    /// The currencies other than the euro that `profile`'s prices are converted between; empty when
    /// it shows prices in the currency they were quoted in.
    ///
    /// A source quotes one currency per cache, so the first and last slot shown say which. Before any
    /// price is known, the source says what it will quote; one that cannot say (Tibber) is asked first.
    func convertedCurrencies(of profile: Profiles.Profile) -> [String] {
        let shown = shownSlots(of: profile)
        var quoted = Set([shown.first?.currency, shown.last?.currency].compactMap { $0?.code })
        if quoted.isEmpty, let expected = catalog.shown(profile.settings)?.quotedCurrency(for: profile.settings) { quoted = [expected] }
        let target = profile.settings.currency
        guard !quoted.isEmpty, quoted != [target] else { return [] }
        return ([target] + quoted.sorted()).filter { $0 != "EUR" }
    }

    /// Whether some profile's prices are converted, and so need exchange rates.
    var convertsCurrency: Bool { !convertedCurrencies.isEmpty }

    /// Fetches the ECB's reference rates when prices are converted and new rates are due.
    ///
    /// A failed fetch keeps the rates known and marks the prices stale until a fetch succeeds.
    /// Returns whether it fetched, successfully or not.
    @discardableResult
    func refreshRatesIfDue(at now: Date) async -> Bool {
        guard convertsCurrency, let feed = catalog.rateFeed, ratesSchedule.isDue(at: now, latest: rates.latestDay) else { return false }
        defer { ahead = nil }
        do {
            let (day, fetched) = try await onSourcesThread(for: "ecb") { () async throws(SourceError) in try await feed.fetch() }
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
            for currency in convertedCurrencies {
                if let rate = fetched[currency] {
                    logger.info("exchange rates of \(day): 1 EUR = \(DecimalFormat.string(rate)) \(currency)")
                } else {
                    logger.error("the ECB's rates of \(day) hold no \(currency); prices stay at the rates known before")
                }
            }
        } catch {
            guard !Task.isCancelled else { return true }
            ratesStale = true
            ratesSchedule.failed(at: clock.now, jitter: jitter())
            let kept = rates.latestDay.map { "keeping the rates of \($0)" } ?? "no rates are known, so no converted prices are published"
            logger.warning("exchange rates fetch failed: \(error); \(kept)")
        }
        return true
    }

    /// When the run loop should next look at the rates; far away when prices are not converted.
    func nextRatesCheck(after now: Date) -> Date {
        guard convertsCurrency, catalog.rateFeed != nil else { return .distantFuture }
        return ratesSchedule.nextCheck(after: now, latest: rates.latestDay)
    }

    /// `snapshot`, after logging once when its profile's prices start or stop being left out for
    /// want of a rate, or because they worked out to a number that is not finite.
    func noted(_ snapshot: Snapshot) -> Snapshot {
        let currency = snapshot.settings.currency
        let profile = describe(snapshot.profile)
        logChange(
            of: snapshot.nonFinitePrice, snapshot.profile, in: &nonFiniteLogged,
            started: "\(profile)some prices work out to a number that is not finite with the settings and exchange rates in force; "
                + "they are not published (check the currency's rate and the tariff settings)",
            ended: "\(profile)every known price is a finite number again")
        logChange(
            of: snapshot.missingRate, snapshot.profile, in: &missingRateLogged,
            started: "\(profile)no \(currency) exchange rate is known for some days with prices; their prices are not published "
                + "until the ECB's reference rates cover them (see --ecb-url)",
            ended: "\(profile)every day with prices has a \(currency) exchange rate again")
        logPlans(of: snapshot)
        return snapshot
    }

    /// Logs `started` as an error when `condition` becomes true for `profile` and `ended` when it
    /// becomes false again, once each; `logged` holds the profiles for which it was last true.
    private func logChange(
        of condition: Bool, _ profile: String, in logged: inout Set<String>, started: @autoclosure () -> String,
        ended: @autoclosure () -> String
    ) {
        guard condition != logged.contains(profile) else { return }
        if condition {
            logged.insert(profile)
            logger.error(started())
        } else {
            logged.remove(profile)
            logger.info(ended())
        }
    }
}
