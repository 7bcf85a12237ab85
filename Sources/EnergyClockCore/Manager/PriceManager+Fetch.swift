import Foundation

extension PriceManager {
    /// Fetches today (and tomorrow when due), then backfills missing history; keeps the cache on failure.
    func refresh() async {
        let sourceID = settings.source
        guard let source = catalog[sourceID] else {
            logger.error("no source \(sourceID)")
            schedule.failed(at: clock.now, jitter: jitter())
            return
        }
        let started = clock.now
        let today = calendar.day(containing: started)
        do {
            var fetched = try await source.fetch(day: today, calendar: calendar)
            let tomorrow = calendar.interval(of: today.adding(days: 1))
            if started >= calendar.instant(hour: configuration.policy.tomorrowHour, on: today),
               !slots.replacing(with: fetched).covers(tomorrow) {
                fetched = fetched.replacing(with: try await source.fetch(day: today.adding(days: 1), calendar: calendar))
            }
            let now = clock.now
            save(fetched, source: sourceID, at: now)
            guard settings.source == sourceID else { return }
            slots = slots.replacing(with: fetched)
            updatedAt = now
            stale = false
            schedule.succeeded(at: now, stillNeeded: need(at: now).any, jitter: jitter())
            logger.info("fetched \(fetched.count) slots from \(sourceID)")
            await backfill(from: source, today: today)
        } catch {
            logger.warning("fetch failed: \(error); keeping \(slots.count) cached slots")
            guard settings.source == sourceID else { return }
            stale = true
            schedule.failed(at: clock.now, jitter: jitter())
        }
    }

    /// Fetches past days inside `history_days` that the cache lacks, one request at a time.
    func backfill(from source: any PriceSource, today: LocalDay) async {
        var day = today.adding(days: 1 - settings.historyDays)
        while day < today {
            defer { day = day.adding(days: 1) }
            guard !backfillTried.contains(day), !slots.covers(calendar.interval(of: day)) else { continue }
            backfillTried.insert(day)
            do {
                let fetched = try await source.fetch(day: day, calendar: calendar)
                save(fetched, source: source.id, at: nil)
                guard settings.source == source.id else { return }
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

    private func save(_ fetched: [PriceSlot], source: String, at fetchedAt: Date?) {
        do {
            try store.save(fetched, source: source, fetchedAt: fetchedAt)
        } catch {
            logger.error("\(error)")
        }
    }
}
