import EnergyClockDomain
import EnergyClockSources
import EnergyClockStore
import FoundationEssentials
import Platform

extension PriceManager {
    /// The providers `settings` name with the store keys of their forecasts, in order: the
    /// `forecast_provider`, then each of its `forecast_fallbacks`; none for a `co2` or `grid`
    /// profile, where a price forecast has no place.
    func forecastProviders(of settings: Settings) -> [(provider: String, key: String)] {
        guard settings.signal == .price, !settings.forecastProvider.isEmpty else { return [] }
        return ([settings.forecastProvider] + settings.forecastFallbacks).compactMap { id in
            catalog.forecast(id).map { (id, $0.cacheKey(for: settings)) }
        }
    }

    /// The store keys of the forecasts `settings` name, in order (``forecastProviders(of:)``).
    func forecastKeys(of settings: Settings) -> [String] { forecastProviders(of: settings).map(\.key) }

    /// Makes the forecast feeds match the profiles: one for every provider and zone some profile
    /// names, loaded from the cache; none for those no profile names any more. A cached forecast
    /// still shown waits its turn; without one the provider is asked at once. Returns whether a
    /// feed came or went.
    @discardableResult
    func reconcileForecasts() -> Bool {
        var wanted: [String: (provider: String, settings: Settings)] = [:]
        for profile in profiles.all {
            for (provider, key) in forecastProviders(of: profile.settings) where wanted[key] == nil {
                wanted[key] = (provider, profile.settings)
            }
        }
        var changed = false
        for key in forecastFeeds.keys where wanted[key] == nil {
            forecastFeeds[key] = nil
            changed = true
        }
        let now = clock.now
        for (key, entry) in wanted {
            if forecastFeeds[key] != nil {
                forecastFeeds[key]!.settings = entry.settings
                continue
            }
            var feed = ForecastFeed(key: key, provider: entry.provider, settings: entry.settings)
            feed.slots = CompactSeries(cached(key, historyDays: 0, window: ForecastFeed.heldWindow(at: now)))
            if feed.isCurrent(at: now), let issued = feed.issued {
                feed.failing = false
                feed.nextFetch = issued.addingTimeInterval(ForecastFeed.interval)
            }
            forecastFeeds[key] = feed
            changed = true
        }
        return changed
    }

    /// The forecast `profile` shows: its `forecast_provider`'s while that works and is current;
    /// while it fails, the fallback that has been right (the lowest mean error over at least
    /// ``ForecastFeed/scoredEnough`` scored slots), else the first working one named; with none
    /// working, the first whose forecast is still current (`issued` says how old).
    func shownForecast(of profile: Profiles.Profile) -> CompactSeries {
        let now = clock.now
        let current = forecastKeys(of: profile.settings).compactMap { forecastFeeds[$0] }.filter { $0.isCurrent(at: now) }
        guard let first = current.first else { return CompactSeries() }
        if first.provider == profile.settings.forecastProvider, !first.failing { return first.slots }
        let working = current.filter { !$0.failing }
        let card = accuracy[profile.name] ?? ForecastAccuracy()
        let scored = working.compactMap { feed -> (ForecastFeed, Double)? in
            let tally = card.tally(of: feed.provider)
            guard tally.slots >= ForecastFeed.scoredEnough, let error = tally.meanAbsoluteError else { return nil }
            return (feed, error)
        }
        if let best = scored.min(by: { $0.1 < $1.1 }) { return best.0.slots }
        return (working.first ?? first).slots
    }

    /// The forecast feeds to ask at `now`, and the earliest time one of the others is due. Every
    /// provider a profile names is asked, its fallbacks too: each is scored, and a failover finds
    /// a current forecast.
    func dueForecasts(at now: Date) -> (due: [String], next: Date?) {
        var due: [String] = []
        var next: Date?
        for key in forecastFeeds.keys.sorted() {
            guard let time = forecastFeeds[key]!.nextFetch, time > now else {
                due.append(key)
                continue
            }
            next = min(next ?? time, time)
        }
        return (due, next)
    }

    /// Asks each provider of `keys` for its forecast, one after the other.
    func refresh(forecasts keys: [String]) async {
        for key in keys { await refresh(forecast: key) }
    }

    /// Asks the provider of the feed `key` for its forecast, on the sources' thread, and keeps
    /// what lies from two days ago to a week ahead (a slot beyond is left out, not a reason to
    /// refuse the answer). The new forecast replaces the old one whole, in memory and in the store.
    func refresh(forecast key: String) async {
        guard let feed = forecastFeeds[key], let provider = catalog.forecast(feed.provider) else { return }
        let started = clock.now
        let settings = feed.settings
        do {
            let slots = try await onSourcesThread(for: provider.id) { () async throws(SourceError) in
                try await provider.fetch(settings: settings, now: started)
            }
            let window = ForecastFeed.heldWindow(at: started)
            let held = slots.filter { $0.start >= window.start && $0.end <= window.end }
            let now = clock.now
            do {
                try EventLoop.doing("saving a forecast") { () throws(StoreError) in
                    try store.replaceAll(held, source: key, fetchedAt: started)
                }
            } catch {
                logger.error("\(error)")
            }
            guard forecastFeeds[key] != nil else { return }
            forecastFeeds[key]!.slots = CompactSeries(held)
            forecastFeeds[key]!.succeeded(at: now, jitter: jitter())
            logger.info("fetched a forecast of \(held.count) slots from \(provider.id) for \(settings.zone)")
        } catch {
            guard !Task.isCancelled else { return }
            logger.warning("forecast fetch failed: \(error)")
            forecastFeeds[key]?.failed(at: clock.now, refused: error.problem.isRefusal)
        }
    }
}

extension PriceManager {
    /// The store note of `profile`'s report card.
    static func accuracyNote(_ profile: String) -> String { "forecast-accuracy/\(profile)" }

    /// `profile`'s report card, read from the store the first time.
    func accuracy(of profile: String) -> ForecastAccuracy {
        if let card = accuracy[profile] { return card }
        let card = ForecastAccuracy(restoring: note(Self.accuracyNote(profile)))
        accuracy[profile] = card
        return card
    }

    /// Scores, for every profile on the feed `key`, each of its providers' forecasts against the
    /// slots of `fetched` the feed did not hold yet: the official prices that have just come for
    /// hours a forecast covered. Each such slot is scored once; the cards keep 30 days. The work
    /// goes in pieces of ``saveChunk`` slots, the event loop given way between them.
    func scoreForecasts(on key: String, against fetched: [SeriesSlot]) async {
        let scored = profileNames(on: key).filter { profiles[$0].map { !$0.forecastProvider.isEmpty } ?? false }
        guard !scored.isEmpty, let held = feeds[key]?.slots else { return }
        let first = calendar.day(containing: clock.now).adding(days: 1 - ForecastAccuracy.days)
        var cards = Dictionary(uniqueKeysWithValues: scored.map { ($0, accuracy(of: $0)) })
        // Each feed's slots made once for all the pieces and profiles.
        var forecasts: [String: [SeriesSlot]] = [:]
        for name in scored {
            guard let profile = profiles[name] else { continue }
            for key in forecastKeys(of: profile) where forecasts[key] == nil { forecasts[key] = forecastFeeds[key].map { Array($0.slots) } }
        }
        var from = 0
        while from < fetched.count {
            if from > 0 { await EventLoop.giveWay() }
            let piece = fetched[from..<min(from + Self.saveChunk, fetched.count)]
            from += piece.count
            EventLoop.doing("scoring forecasts") {
                // Each slot looked up by bisection: a day of one-second slots against a week held is
                // 86,400 look-ups, not 86,400 walks through the week.
                let arrived = piece.filter {
                    let span = DateInterval(start: $0.start, end: $0.end)
                    return !Array(held.overlapping(span)).covers(span)
                }
                guard !arrived.isEmpty else { return }
                for name in scored {
                    guard let profile = profiles[name] else { continue }
                    let thresholds = bases[name]?.basis.thresholds ?? (profile.bandMode == .absolute ? profile.signalThresholds : nil)
                    for forecast in forecastKeys(of: profile).compactMap({ forecasts[$0] }) where !forecast.isEmpty {
                        cards[name]!.score(
                            forecast: forecast, official: arrived, settings: profile, calendar: calendar, rates: rates,
                            thresholds: thresholds)
                    }
                }
            }
        }
        for name in scored {
            guard var card = cards[name], profiles[name] != nil else { continue }
            card.keep(from: first)
            guard card != accuracy[name] else { continue }
            accuracy[name] = card
            saveNote(Self.accuracyNote(name), card.lines)
            logScore(of: name, card)
        }
    }

    /// Logs how the forecast of `profile`'s provider has fared.
    private func logScore(of profile: String, _ card: ForecastAccuracy) {
        guard let settings = profiles[profile] else { return }
        let tally = card.tally(of: settings.forecastProvider)
        guard let error = tally.meanAbsoluteError, let agreement = tally.bandAgreement else { return }
        logger.info(
            "\(describe(profile))\(settings.forecastProvider)'s forecast scored over \(tally.slots) slots in \(ForecastAccuracy.days) days: "
                + "mean error \(DecimalFormat.string(error, decimals: 4)) \(settings.unit), bands agreed "
                + "\(DecimalFormat.string(agreement * 100, decimals: 1)) %")
    }
}
