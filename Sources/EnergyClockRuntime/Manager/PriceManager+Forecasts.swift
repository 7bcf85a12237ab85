import EnergyClockDomain
import EnergyClockSources
import EnergyClockStore
import FoundationEssentials
import Platform

extension PriceManager {
    /// The store keys of the forecasts `settings` name, in order: the `forecast_provider`'s, then
    /// each of its `forecast_fallbacks`.
    func forecastKeys(of settings: Settings) -> [String] {
        guard !settings.forecastProvider.isEmpty else { return [] }
        return ([settings.forecastProvider] + settings.forecastFallbacks).compactMap { catalog.forecast($0)?.cacheKey(for: settings) }
    }

    /// Makes the forecast feeds match the profiles: one for every provider and zone some profile
    /// names, loaded from the cache; none for those no profile names any more. A cached forecast
    /// still shown waits its turn; without one the provider is asked at once. Returns whether a
    /// feed came or went.
    @discardableResult
    func reconcileForecasts() -> Bool {
        var wanted: [String: (provider: String, settings: Settings)] = [:]
        for profile in profiles.all {
            for id in [profile.settings.forecastProvider] + profile.settings.forecastFallbacks where !id.isEmpty {
                guard let provider = catalog.forecast(id) else { continue }
                let key = provider.cacheKey(for: profile.settings)
                if wanted[key] == nil { wanted[key] = (id, profile.settings) }
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
            feed.slots = cached(key, historyDays: 0, window: DateInterval(start: now.addingTimeInterval(-2 * 86_400), duration: 9 * 86_400))
            if feed.isCurrent(at: now), case let .forecast(issued)? = feed.slots.first?.provenance.kind {
                feed.failing = false
                feed.nextFetch = issued.addingTimeInterval(ForecastFeed.interval)
            }
            forecastFeeds[key] = feed
            changed = true
        }
        return changed
    }

    /// Whether the feed `key` is worth asking: some profile names its provider first, or every
    /// provider that profile names before it fails.
    func isWanted(forecast key: String) -> Bool {
        for profile in profiles.all {
            for candidate in forecastKeys(of: profile.settings) {
                if candidate == key { return true }
                if forecastFeeds[candidate]?.failing != true { break }
            }
        }
        return false
    }

    /// The forecast `profile` shows: that of the first provider it names whose forecast is current
    /// and whose last fetch worked, else the first whose forecast is current (`issued` says how old).
    func shownForecast(of profile: Profiles.Profile) -> [SeriesSlot] {
        let now = clock.now
        let current = forecastKeys(of: profile.settings).compactMap { forecastFeeds[$0] }.filter { $0.isCurrent(at: now) }
        return (current.first { !$0.failing } ?? current.first)?.slots ?? []
    }

    /// The forecast feeds to ask at `now`, and the earliest time one of the others is due.
    func dueForecasts(at now: Date) -> (due: [String], next: Date?) {
        var due: [String] = []
        var next: Date?
        for key in forecastFeeds.keys.sorted() where isWanted(forecast: key) {
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
        let stopped = SourceError(source: provider.id, problem: .transport("stopped: the daemon is shutting down"))
        do {
            let slots = try await Abandonable.value(on: fetchExecutor, ifCancelled: stopped) { () async throws(SourceError) in
                try await provider.fetch(settings: settings, now: started)
            }
            let held = slots.filter {
                $0.start >= started.addingTimeInterval(-2 * 86_400) && $0.end <= started.addingTimeInterval(SlotWindow.daysAhead * 86_400)
            }
            let now = clock.now
            do {
                try EventLoop.doing("saving a forecast") { () throws(StoreError) in
                    try store.replaceAll(held, source: key, fetchedAt: started)
                }
            } catch {
                logger.error("\(error)")
            }
            guard forecastFeeds[key] != nil else { return }
            forecastFeeds[key]!.slots = held
            forecastFeeds[key]!.succeeded(at: now, jitter: jitter())
            logger.info("fetched a forecast of \(held.count) slots from \(provider.id) for \(settings.zone)")
        } catch {
            guard !Task.isCancelled else { return }
            logger.warning("forecast fetch failed: \(error)")
            forecastFeeds[key]?.failed(at: clock.now, refused: error.problem.isRefusal)
        }
    }
}
