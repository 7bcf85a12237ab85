import EnergyClockDomain
import EnergyClockSources
import EnergyClockStore
import FoundationEssentials

extension PriceManager {
    /// Any day's prices, from the cache or else the source, banded under the current settings,
    /// with the profile's forecast where no official price is (from the cache while it is current,
    /// else asked for once): a day beyond the auction shows the forecast alone.
    ///
    /// `source` picks another source than the chosen one. Missing history for relative
    /// thresholds is fetched one day at a time. The snapshot's "today" is `day`, and its "now" the
    /// real one when `day` is today, else the day's first instant.
    /// `profile` picks another profile than the first.
    public func snapshot(of day: LocalDay, source id: String? = nil, profile: String = Profiles.firstName) async throws(SettingsError)
        -> Snapshot
    {
        guard var chosen = profiles[profile] else {
            throw .profile(profile, reason: "there is no such profile; known: \(profiles.names.joined(separator: ", "))")
        }
        if let id {
            chosen.source = id
            chosen.fallbackSources = []
        }
        try catalog.check(chosen)
        guard let source = catalog.shown(chosen) else { throw .invalidChoice(field: "source", value: chosen.source, allowed: catalog.ids) }
        let window = DateInterval(
            start: calendar.start(of: day.adding(days: 1 - chosen.historyDays)),
            end: calendar.start(of: day.adding(days: 2)))
        let key = source.cacheKey(for: chosen)
        var held = cached(key, historyDays: chosen.historyDays, window: window)
        var failed = false
        var wanted = [day]
        if chosen.bandMode == .relative {
            wanted += (1..<chosen.historyDays).map { day.adding(days: -$0) }
        }
        for wantedDay in wanted where !held.covers(calendar.interval(of: wantedDay)) {
            do {
                let fetched = try await fetch(day: wantedDay, from: source, settings: chosen)
                await save(fetched, key: key, at: nil)
                held = held.replacing(with: fetched)
            } catch {
                logger.warning("\(error)")
                failed = true
                break
            }
        }
        var forecast: [SeriesSlot] = []
        if !chosen.forecastProvider.isEmpty, let named = profiles.all.first(where: { $0.name == profile }) {
            reconcileForecasts()
            for key in forecastKeys(of: chosen) where forecastFeeds[key]?.isCurrent(at: clock.now) != true {
                await refresh(forecast: key)
            }
            forecast = Array(shownForecast(of: named))
        }
        let updated = try? store.lastSuccess(source: key)
        let now = calendar.day(containing: clock.now) == day ? clock.now : calendar.start(of: day)
        var snapshot = Snapshot.derive(
            now: now, calendar: calendar, settings: chosen, slots: held, forecast: forecast,
            source: source.id, stale: failed, updatedAt: updated ?? nil, rates: rates)
        snapshot.profile = profile
        return snapshot
    }
}
