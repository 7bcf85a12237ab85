import EnergyClockDomain
import EnergyClockSources
import EnergyClockStore
import FoundationEssentials
import Platform

extension PriceManager {
    /// Fetches what the feeds and the exchange rates need, when they need it, until cancelled;
    /// after each round the profiles are published, and the clock's task is told that the next
    /// boundary may have moved. Fetches wait here, never on the clock's task.
    func followSources() async throws {
        while true {
            try Task.checkCancellation()
            let now = clock.now
            var fetched = await refreshRatesIfDue(at: now)
            let next = nextEvent(after: now)
            var deadline = min(next, nextRatesCheck(after: now))
            var due: [String] = []
            for key in feeds.keys.sorted() {
                switch feeds[key]!.schedule.decide(now: now, need: need(key, at: now), nextEvent: next) {
                case .fetch: due.append(key)
                case let .wait(until: time): deadline = min(deadline, time)
                }
            }
            let forecasts = dueForecasts(at: now)
            if let time = forecasts.next { deadline = min(deadline, time) }
            if !due.isEmpty || !forecasts.due.isEmpty {
                // The heap the parses leave free goes back to the system when the daemon's loop
                // rests (`Memory.trimWhenFreed`, after the publish that follows).
                await refresh(due)
                await refresh(forecasts: forecasts.due)
                fetched = true
            }
            if fetched {
                ahead = nil
                try Task.checkCancellation()
                await showAll(at: clock.now)
                retime()
                // The days of history relative thresholds want come after today is shown: a
                // start shows its prices after one request, not after a week's.
                if await backfillDue() {
                    ahead = nil
                    try Task.checkCancellation()
                    await showAll(at: clock.now)
                }
                continue
            }
            sourcesAsleep = true
            defer { sourcesAsleep = false }
            try await sleep(until: deadline, or: woken)
        }
    }

    /// Refreshes the feeds `keys`, side by side.
    func refresh(_ keys: [String]) async {
        if keys.count == 1 {
            await refresh(feed: keys[0])
            return
        }
        await withTaskGroup(of: Void.self) { group in
            for key in keys { group.addTask { await self.refresh(feed: key) } }
        }
    }

    /// Fetches today (and tomorrow when due) for the feed `key`; when that fails, each profile on
    /// it falls back on its own `fallback_sources`. Then backfills missing history.
    func refresh(feed key: String) async {
        guard let feed = feeds[key] else { return }
        let started = clock.now
        guard let primary = catalog.shown(feed.settings) else {
            logger.error("no source \(feed.source)")
            feeds[key]?.schedule.failed(at: started, jitter: jitter())
            return
        }
        do {
            let fetched = try await fetchDays(from: primary, settings: feed.settings, at: started)
            let now = clock.now
            await save(fetched, key: key, at: now)
            guard feeds[key] != nil else { return }  // No profile shows it any more.
            guard await merge(fetched, into: key) else { return }
            feeds[key]!.updatedAt = now
            feeds[key]!.stale = false
            for name in profileNames(on: key) where fallbacks[name] != nil {
                fallbacks[name] = nil
                logger.info("\(describe(name))back on \(primary.id)")
            }
            feeds[key]!.schedule.succeeded(at: now, stillNeeded: need(key, at: now).any, jitter: jitter())
            logger.info("fetched \(fetched.count) slots from \(primary.id)\(feeds.count > 1 ? " for \(URLRedaction.redacted(key))" : "")")
            backfills[key] = calendar.day(containing: started)
        } catch {
            guard !Task.isCancelled else { return }
            logger.warning("fetch failed: \(error)")
            guard feeds[key] != nil else { return }
            feeds[key]!.stale = true
            feeds[key]!.schedule.failed(at: clock.now, jitter: jitter(), refused: error.problem.isRefusal)
            await failOver(from: key, at: started)
        }
    }

    /// `"profile x: "` for a profile other than the first, so that log lines say whose they are.
    func describe(_ profile: String) -> String {
        profile == Profiles.firstName ? "" : "profile \(profile): "
    }

    /// What `source` has for `day`, held to the window a fetch of it may deliver: around now (see
    /// ``SlotWindow/around(_:)``) and the day asked for with its neighbours. A slot far in the past
    /// or the future is a broken answer, refused before it reaches the store.
    ///
    /// The fetch, its parse included, runs on the sources' worker thread, never on the event loop:
    /// a large answer takes milliseconds to read. A shutdown does not wait for it (``Abandonable``).
    func fetch(day: LocalDay, from source: any PriceSource, settings: Settings) async throws(SourceError) -> [SeriesSlot] {
        let calendar = calendar
        let slots = try await onSourcesThread(for: source.id) { () async throws(SourceError) in
            try await source.fetch(day: day, calendar: calendar, settings: settings)
        }
        var window = SlotWindow.around(clock.now)
        window.earliest = min(window.earliest, calendar.start(of: day.adding(days: -1)))
        window.latest = max(window.latest, calendar.start(of: day.adding(days: 2)))
        return try slots.validated(from: source.id, within: window).stamped(source.id, issued: clock.now)
    }

    /// `work` for the source or provider `id` (a fetch and its parse) on the sources' worker
    /// thread, never on the event loop; a shutdown does not wait for it (``Abandonable``).
    func onSourcesThread<Value: Sendable>(
        for id: String, _ work: @escaping @Sendable () async throws(SourceError) -> Value
    ) async throws(SourceError) -> Value {
        let stopped = SourceError(source: id, problem: .transport("stopped: the daemon is shutting down"))
        return try await Abandonable.value(on: fetchExecutor, ifCancelled: stopped, work)
    }

    /// Today's slots with their neighbours, and tomorrow's when they are due and not in that answer.
    func fetchDays(from source: any PriceSource, settings: Settings, at now: Date) async throws(SourceError) -> [SeriesSlot] {
        let today = calendar.day(containing: now)
        var fetched = try await fetch(day: today, from: source, settings: settings)
        let tomorrow = calendar.interval(of: today.adding(days: 1))
        let cachedTomorrow = cached(source.cacheKey(for: settings), historyDays: 0, window: tomorrow)
        if !source.answersIncludeNextDay, now >= publicationTime(on: today, of: source.id), !fetched.covers(tomorrow),
            !cachedTomorrow.replacing(with: fetched).covers(tomorrow)
        {
            fetched = fetched.replacing(with: try await fetch(day: today.adding(days: 1), from: source, settings: settings))
        }
        return fetched
    }

    /// After the feed `key` failed: each profile on it is served by the first of its own fallbacks
    /// that knows more of what is needed now. A fallback that several of them name is fetched once.
    func failOver(from key: String, at now: Date) async {
        var tried: [String: Bool] = [:]
        for name in profileNames(on: key) {
            // A fallback serves prices: a co2 profile has none to fall back on.
            guard let chosen = profiles[name], chosen.signal == .price, let feed = feeds[key] else { continue }
            var best = coverage(of: feed.slots, at: now, source: chosen.source)
            for id in chosen.fallbackSources where id != chosen.source {
                guard let fallback = catalog[id] else { continue }
                let fallbackKey = fallback.cacheKey(for: chosen)
                if tried[fallbackKey] == nil {
                    do {
                        let fetched = try await fetchDays(from: fallback, settings: chosen, at: now)
                        await save(fetched, key: fallbackKey, at: clock.now)
                        tried[fallbackKey] = true
                    } catch {
                        logger.warning("\(describe(name))fallback fetch failed: \(error)")
                        tried[fallbackKey] = false
                    }
                }
                guard tried[fallbackKey] == true else { continue }
                guard let current = profiles[name], cacheKey(for: current) == key else { break }  // Changed meanwhile.
                let candidate = cached(fallbackKey, historyDays: current.historyDays)
                let score = coverage(of: candidate, at: now, source: chosen.source)
                guard score > best else {
                    logger.info("\(describe(name))fallback \(id) knows no more than the cache of \(chosen.source); keeping that")
                    continue
                }
                best = score
                let updated = (try? store.lastSuccess(source: fallbackKey)) ?? clock.now
                fallbacks[name] = Fallback(source: id, key: fallbackKey, primaryKey: key, slots: candidate, updatedAt: updated)
                logger.warning("\(describe(name))serving prices from fallback \(id) while \(chosen.source) fails")
                break
            }
        }
    }

    /// How much of what is needed at `now` these slots hold: today counts 2, tomorrow (when the
    /// chosen `source` would have it) 1.
    func coverage(of candidate: [SeriesSlot], at now: Date, source: String) -> Int {
        let today = calendar.day(containing: now)
        var score = candidate.covers(calendar.interval(of: today)) ? 2 : (candidate.index(containing: now) != nil ? 1 : 0)
        if now >= publicationTime(on: today, of: source), candidate.covers(calendar.interval(of: today.adding(days: 1))) { score += 1 }
        return score
    }

    /// Backfills every feed fetched since the last call (see ``backfill(_:from:today:)``); true
    /// when some day was asked for that a profile on relative thresholds shows: only those read
    /// the history, so only then is anything shown again.
    @discardableResult
    func backfillDue() async -> Bool {
        var shown = false
        while let (key, today) = backfills.first {
            backfills[key] = nil
            guard let feed = feeds[key], let source = catalog.shown(feed.settings) else { continue }
            let asked = await backfill(key, from: source, today: today)
            shown = shown || asked && profiles.all.contains { $0.settings.bandMode == .relative && cacheKey(for: $0.settings) == key }
        }
        return shown
    }

    /// Fetches past days of the feed `key` inside its `history_days` that the cache lacks, one
    /// request at a time; true when some day was asked for.
    @discardableResult
    func backfill(_ key: String, from source: any PriceSource, today: LocalDay) async -> Bool {
        guard let feed = feeds[key], source.answersPastDays else { return false }
        var asked = false
        var day = today.adding(days: 1 - feed.historyDays)
        while day < today, !Task.isCancelled {
            defer { day = day.adding(days: 1) }
            guard let current = feeds[key], !current.backfillTried.contains(day), !current.slots.covers(calendar.interval(of: day)) else {
                continue
            }
            feeds[key]!.backfillTried.insert(day)
            asked = true
            do {
                let fetched = try await fetch(day: day, from: source, settings: current.settings)
                await save(fetched, key: key, at: nil)
                guard await merge(fetched, into: key) else { return asked }
                if feeds[key]!.slots.covers(calendar.interval(of: day)) {
                    logger.info("backfilled \(day) from \(source.id)")
                } else {
                    logger.info("\(source.id) has no complete prices for \(day); relative thresholds use what there is")
                }
            } catch {
                if !Task.isCancelled { logger.warning("backfill of \(day) failed: \(error)") }
                return asked
            }
        }
        return asked
    }

    /// Merges `fetched` into the feed `key`, official prices winning, after scoring the forecasts
    /// of the hours they now price (``scoreForecasts(on:against:)``); false when no profile shows
    /// the feed any more.
    func merge(_ fetched: [SeriesSlot], into key: String) async -> Bool {
        await scoreForecasts(on: key, against: fetched)
        guard feeds[key] != nil else { return false }
        feeds[key]!.slots = feeds[key]!.slots.replacing(with: fetched)
        return true
    }

    /// Saves `fetched` in the store under `key`, recording a successful fetch at `fetchedAt` if
    /// given. An answer of more than ``saveChunk`` slots is saved a chunk at a time, each its own
    /// transaction, with the event loop given way between: 86,400 one-second slots take 150 ms to
    /// store. A shutdown lets a save end (the rows it replaces are gone until it does); should the
    /// process be killed between two chunks, the cache lacks the rest and the next start fetches it.
    func save(_ fetched: [SeriesSlot], key: String, at fetchedAt: Date?) async {
        guard let first = fetched.first, let last = fetched.last else { return }
        let span = DateInterval(start: first.start, end: max(first.start, last.end))
        var from = 0
        repeat {
            let upTo = min(from + Self.saveChunk, fetched.count)
            let isLast = upTo == fetched.count
            do {
                try EventLoop.doing("saving fetched prices") { () throws(StoreError) in
                    try store.save(
                        fetched[from..<upTo], source: key, fetchedAt: isLast ? fetchedAt : nil, replacing: from == 0 ? span : nil)
                }
            } catch {
                logger.error("\(error)")
                return
            }
            from = upTo
            if !isLast { await EventLoop.giveWay() }
        } while from < fetched.count
    }

    /// Slots saved in one transaction: about 4 ms of inserts here.
    static let saveChunk = 2000
}
