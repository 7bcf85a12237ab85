import FoundationEssentials

extension PriceManager {
    /// Fetches today (and tomorrow when due) from the chosen source, falling back to the
    /// `fallback_sources` in order when it fails; then backfills missing history.
    func refresh() async {
        let chosen = settings
        let started = clock.now
        guard let primary = catalog[chosen.source] else {
            logger.error("no source \(chosen.source)")
            schedule.failed(at: started, jitter: jitter())
            return
        }
        do {
            let fetched = try await fetchDays(from: primary, settings: chosen, at: started)
            let now = clock.now
            save(fetched, key: primary.cacheKey(for: chosen), at: now)
            guard settings == chosen else { return }  // Changed meanwhile; the next round fetches anew.
            if servedBy != primary.id { loadCache() }
            slots = slots.replacing(with: fetched)
            updatedAt = now
            stale = false
            schedule.succeeded(at: now, stillNeeded: need(at: now).any, jitter: jitter())
            logger.info("fetched \(fetched.count) slots from \(primary.id)")
            await backfill(from: primary, settings: chosen, today: calendar.day(containing: started))
        } catch {
            logger.warning("fetch failed: \(error)")
            guard settings == chosen else { return }
            stale = true
            schedule.failed(at: clock.now, jitter: jitter())
            await failOver(from: chosen, at: started)
        }
    }

    /// What `source` has for `day`, held to the window a fetch of it may deliver: around now (see
    /// ``SlotWindow/around(_:)``) and the day asked for with its neighbours. A slot far in the past
    /// or the future is a broken answer, refused before it reaches the store.
    func fetch(day: LocalDay, from source: any PriceSource, settings: Settings) async throws(SourceError) -> [PriceSlot] {
        let slots = try await source.fetch(day: day, calendar: calendar, settings: settings)
        var window = SlotWindow.around(clock.now)
        window.earliest = min(window.earliest, calendar.start(of: day.adding(days: -1)))
        window.latest = max(window.latest, calendar.start(of: day.adding(days: 2)))
        return try slots.validated(from: source.id, within: window)
    }

    /// Today's slots with their neighbours, and tomorrow's when they are due and not in that answer.
    func fetchDays(from source: any PriceSource, settings: Settings, at now: Date) async throws(SourceError) -> [PriceSlot] {
        let today = calendar.day(containing: now)
        var fetched = try await fetch(day: today, from: source, settings: settings)
        let tomorrow = calendar.interval(of: today.adding(days: 1))
        if !source.answersIncludeNextDay, now >= publicationTime(on: today), !fetched.covers(tomorrow),
            !cached(source, settings).replacing(with: fetched).covers(tomorrow)
        {
            fetched = fetched.replacing(with: try await fetch(day: today.adding(days: 1), from: source, settings: settings))
        }
        return fetched
    }

    /// After the chosen source failed: serves the first fallback that knows more of what is needed now.
    func failOver(from chosen: Settings, at now: Date) async {
        var best = coverage(of: servedBy == chosen.source ? slots : cached(catalog[chosen.source], chosen), at: now)
        for id in chosen.fallbackSources where id != chosen.source {
            guard let fallback = catalog[id] else { continue }
            do {
                let fetched = try await fetchDays(from: fallback, settings: chosen, at: now)
                let key = fallback.cacheKey(for: chosen)
                save(fetched, key: key, at: clock.now)
                guard settings == chosen else { return }
                let candidate = cached(fallback, chosen)
                let score = coverage(of: candidate, at: now)
                guard score > best else {
                    logger.info("fallback \(id) knows no more than the cache of \(chosen.source); keeping that")
                    continue
                }
                best = score
                slots = candidate
                servedBy = id
                updatedAt = (try? store.lastSuccess(source: key)) ?? clock.now
                stale = false
                logger.warning("serving prices from fallback \(id) while \(chosen.source) fails")
                return
            } catch {
                logger.warning("fallback fetch failed: \(error)")
            }
        }
    }

    /// How much of what is needed at `now` these slots hold: today counts 2, tomorrow (when due) 1.
    func coverage(of candidate: [PriceSlot], at now: Date) -> Int {
        let today = calendar.day(containing: now)
        var score = candidate.covers(calendar.interval(of: today)) ? 2 : (candidate.index(containing: now) != nil ? 1 : 0)
        if now >= publicationTime(on: today), candidate.covers(calendar.interval(of: today.adding(days: 1))) { score += 1 }
        return score
    }

    /// The cached slots of `source` under `settings` in `window` (by default the retention window).
    func cached(_ source: (any PriceSource)?, _ settings: Settings, window: DateInterval? = nil) -> [PriceSlot] {
        guard let source else { return [] }
        do {
            return try store.slots(source: source.cacheKey(for: settings), overlapping: window ?? retentionWindow())
        } catch {
            logger.error("\(error)")
            return []
        }
    }

    /// Fetches past days inside `history_days` that the cache lacks, one request at a time.
    func backfill(from source: any PriceSource, settings chosen: Settings, today: LocalDay) async {
        var day = today.adding(days: 1 - chosen.historyDays)
        while day < today {
            defer { day = day.adding(days: 1) }
            guard !backfillTried.contains(day), !slots.covers(calendar.interval(of: day)) else { continue }
            backfillTried.insert(day)
            do {
                let fetched = try await fetch(day: day, from: source, settings: chosen)
                save(fetched, key: source.cacheKey(for: chosen), at: nil)
                guard settings == chosen else { return }
                slots = slots.replacing(with: fetched)
                if slots.covers(calendar.interval(of: day)) {
                    logger.info("backfilled \(day) from \(source.id)")
                } else {
                    logger.info("\(source.id) has no complete prices for \(day); relative thresholds use what there is")
                }
            } catch {
                logger.warning("backfill of \(day) failed: \(error)")
                return
            }
        }
    }

    func save(_ fetched: [PriceSlot], key: String, at fetchedAt: Date?) {
        do {
            try store.save(fetched, source: key, fetchedAt: fetchedAt)
        } catch {
            logger.error("\(error)")
        }
    }
}
