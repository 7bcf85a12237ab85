import EnergyClockDomain
import EnergyClockSources
import EnergyClockStore
import FoundationEssentials

extension PriceManager {
    /// The store key of what `settings` show: their source's cache for their zone, or their carbon
    /// source's for their area.
    func cacheKey(for settings: Settings) -> String {
        catalog.shown(settings)?.cacheKey(for: settings) ?? settings.source
    }

    /// The settings of the carbon feed that a price profile with a `carbon_source` pairs with its
    /// prices, for its jobs that weigh carbon; nil for a `co2` or `grid` profile (whose own feed
    /// that is), a profile without a carbon source, or one whose carbon source is a grid signal.
    func pairedCarbon(of settings: Settings) -> Settings? {
        guard settings.signal == .price, !settings.carbonSourceName.isEmpty, catalog.carbonFeed(settings)?.carbon.scale == nil
        else { return nil }
        var carbon = settings
        carbon.signal = .co2
        return carbon
    }

    /// Makes the feeds match the profiles: a feed for every source and zone some profile shows,
    /// and for every carbon source a price profile pairs with (``pairedCarbon(of:)``), loaded from
    /// the cache, and none for those no profile needs any more; fallbacks of removed profiles, or
    /// of profiles now on another feed, end.
    ///
    /// A new feed fetches at once after a change, and at start only when its cache lacks something.
    /// Returns whether a feed came, went or was asked to fetch: whether the run loop has news.
    @discardableResult
    func reconcileFeeds(starting: Bool) -> Bool {
        var changed = false
        var wanted: [String: Settings] = [:]
        var history: [String: Int] = [:]
        for profile in profiles.all {
            let key = cacheKey(for: profile.settings)
            if wanted[key] == nil { wanted[key] = profile.settings }
            // A grid profile's bands are its operator's: it reads no history.
            history[key] = max(history[key] ?? 1, profile.settings.signal == .grid ? 1 : profile.settings.historyDays)
            // A paired carbon feed serves plans, which look ahead only: today is history enough.
            if let carbon = pairedCarbon(of: profile.settings) {
                let paired = cacheKey(for: carbon)
                if wanted[paired] == nil { wanted[paired] = carbon }
                history[paired] = history[paired] ?? 1
            }
        }
        for key in feeds.keys where wanted[key] == nil {
            feeds[key] = nil
            changed = true
        }
        for (key, settings) in wanted {
            let days = history[key] ?? 1
            if var feed = feeds[key] {
                feed.settings = settings
                if days > feed.historyDays {
                    feed.slots = cached(key, historyDays: days)
                    feed.backfillTried = []
                    feed.schedule.requestFetch()
                    changed = true
                }
                feed.historyDays = days
                feeds[key] = feed
                continue
            }
            let source = catalog.shown(settings)
            var feed = Feed(
                key: key, source: source?.id ?? settings.source, settings: settings, historyDays: days,
                slots: cached(key, historyDays: days),
                schedule: RefreshSchedule(policy: configuration.policy), refreshInterval: source?.refreshInterval)
            do { feed.updatedAt = try store.lastSuccess(source: key) } catch { logger.error("\(error)") }
            feeds[key] = feed
            logger.info("loaded \(feed.slots.count) cached slots of \(URLRedaction.redacted(key))")
            if let zone = source?.nextDayPublication?.calendar.timeZone.identifier, zone != calendar.timeZone.identifier {
                // Octopus's prices are for UK days; the daemon's days are those of its --timezone.
                logger.warning(
                    "\(settings.source) publishes its prices by the days of \(zone), but energyclock runs in \(calendar.timeZone.identifier): "
                        + "start it with --timezone \(zone) so that today and tomorrow are its days")
            }
            if starting { feeds[key]!.schedule.requestFetchIfNeeded(need(key, at: clock.now)) } else { feeds[key]!.schedule.requestFetch() }
            changed = true
        }
        for (name, fallback) in fallbacks where profiles[name].map(cacheKey(for:)) != fallback.primaryKey {
            fallbacks[name] = nil
            changed = true
        }
        return reconcileForecasts() || changed
    }

    /// The slots `profile` shows: its fallback's while one serves it, else its feed's.
    func shownSlots(of profile: Profiles.Profile) -> [SeriesSlot] {
        fallbacks[profile.name]?.slots ?? feeds[cacheKey(for: profile.settings)]?.slots ?? []
    }

    /// The names of the profiles that show the feed `key`.
    func profileNames(on key: String) -> [String] {
        profiles.all.filter { cacheKey(for: $0.settings) == key }.map(\.name)
    }

    /// What the feed `key` is missing at `now`.
    func need(_ key: String, at now: Date) -> RefreshSchedule.Need {
        guard let feed = feeds[key] else { return RefreshSchedule.Need(today: false, tomorrow: false) }
        if let interval = feed.refreshInterval {
            // A source that renews its values all day is due again once its answer is that old.
            let due = feed.updatedAt.map { now.timeIntervalSince($0) >= interval } ?? true
            return RefreshSchedule.Need(today: due, tomorrow: false, stale: feed.stale)
        }
        let today = calendar.day(containing: now)
        return RefreshSchedule.Need(
            today: !feed.slots.covers(calendar.interval(of: today)),
            tomorrow: now >= publicationTime(on: today, of: feed.source)
                && !feed.slots.covers(calendar.interval(of: today.adding(days: 1))),
            chosenSource: !profileNames(on: key).contains { fallbacks[$0] != nil },
            stale: feed.stale
        )
    }

    /// When the source `sourceID` is expected to publish the day after `day`: at `--tomorrow-hour`
    /// when it is given, else at the source's own hour (16:00 in London for Octopus), else 13:00.
    func publicationTime(on day: LocalDay, of sourceID: String) -> Date {
        if let hour = configuration.policy.tomorrowHour { return calendar.instant(hour: hour, on: day) }
        if let publication = catalog[sourceID]?.nextDayPublication { return publication.instant(on: day) }
        return calendar.instant(hour: RefreshSchedule.Policy.defaultTomorrowHour, on: day)
    }

    /// The days a feed holds in memory: its profiles' history up to the end of tomorrow; the store
    /// keeps more (the retention period).
    func heldWindow(historyDays: Int) -> DateInterval {
        let today = calendar.day(containing: clock.now)
        return DateInterval(start: calendar.start(of: today.adding(days: -historyDays)), end: calendar.start(of: today.adding(days: 2)))
    }

    /// The next instant something changes by itself: a slot boundary of any profile's prices, the
    /// publication hour, midnight, or a feed that renews all day falling due.
    func nextEvent(after now: Date) -> Date {
        let today = calendar.day(containing: now)
        var event = calendar.start(of: today.adding(days: 1))
        for source in Set(feeds.values.map(\.source)) {
            let publication = publicationTime(on: today, of: source)
            if publication > now { event = min(event, publication) }
        }
        for feed in feeds.values {
            if let interval = feed.refreshInterval, let updated = feed.updatedAt {
                let due = updated.addingTimeInterval(interval)
                if due > now { event = min(event, due) }
            }
        }
        // A job's window opening or ending changes its plan.
        for profile in profiles.all {
            for job in profile.settings.jobs.values where job.window != nil {
                let window = job.occurrence(at: now, calendar: calendar, knownUntil: nil)
                for edge in [window.start, window.end] where edge > now { event = min(event, edge) }
            }
        }
        for slots in feeds.values.map(\.slots) + fallbacks.values.map(\.slots) {
            if let i = slots.index(containing: now) {
                event = min(event, slots[i].end)
            } else if let later = slots.first(where: { $0.start > now }) {
                event = min(event, later.start)
            }
        }
        return event
    }

    /// At the first instant of a new local day: trims old history and forgets old backfill attempts.
    func rollOver(at now: Date) {
        let today = calendar.day(containing: now)
        guard currentDay != today else { return }
        let first = currentDay == nil
        currentDay = today
        for key in feeds.keys { feeds[key]!.backfillTried = [] }
        guard !first else { return }
        let cutoff = calendar.start(of: today.adding(days: -configuration.retentionDays))
        do { try store.trim(before: cutoff) } catch { logger.warning("\(error)") }
        for (key, feed) in feeds {
            let held = heldWindow(historyDays: feed.historyDays).start
            feeds[key]!.slots.removeAll { $0.end <= held }
        }
        for name in fallbacks.keys {
            let held = heldWindow(historyDays: profiles[name]?.historyDays ?? 1).start
            fallbacks[name]!.slots.removeAll { $0.end <= held }
        }
        let counts = profiles.all.map { shownSlots(of: $0).overlapping(calendar.interval(of: today)).count }
        logger.info(
            "new day \(today): \(counts.count == 1 ? "\(counts[0]) slots" : "\(counts.map(String.init).joined(separator: ", ")) slots per profile") known"
        )
    }

    /// The cached slots under the store key `key` in `window`, by default the days held for `historyDays`.
    func cached(_ key: String, historyDays: Int, window: DateInterval? = nil) -> [SeriesSlot] {
        do {
            return try store.slots(source: key, overlapping: window ?? heldWindow(historyDays: historyDays))
        } catch {
            logger.error("\(error)")
            return []
        }
    }
}
