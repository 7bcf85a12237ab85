import FoundationEssentials
import Platform

/// The one owner of prices, settings and derived bands: loads from the store, fetches when
/// needed, follows the clock from slot to slot and hands every change to its output.
public actor PriceManager {
    /// Fixed parameters of a manager.
    public struct Configuration: Sendable {
        /// The zone that defines "today".
        public var calendar: LocalCalendar
        /// When tomorrow is polled for, and how fetches are spaced and retried.
        public var policy: RefreshSchedule.Policy
        /// Local days of prices kept in the store per source.
        public var retentionDays: Int

        /// A configuration for `calendar` with default timing and 62 days of retention.
        public init(calendar: LocalCalendar, policy: RefreshSchedule.Policy = .init(), retentionDays: Int = 62) {
            self.calendar = calendar
            self.policy = policy
            self.retentionDays = retentionDays
        }
    }

    let configuration: Configuration
    let store: PriceStore
    let catalog: SourceCatalog
    let clock: any WallClock
    let output: any ManagerOutput
    let logger: Logger
    let jitter: @Sendable () -> Double

    /// The effective settings.
    public internal(set) var settings: Settings
    /// Native slots of the chosen source, sorted, for the retention window.
    var slots: [PriceSlot] = []
    var stale = false
    var updatedAt: Date?
    /// The source whose slots are held: the chosen one, or a fallback while it fails.
    var servedBy = ""
    var schedule: RefreshSchedule
    var currentDay: LocalDay?
    var backfillTried: Set<LocalDay> = []
    var pending: [SettingsRequest] = []
    /// Euro exchange rates by day, from the store and the ECB.
    var rates = ExchangeRates()
    /// The last rates fetch failed; the prices shown are converted at older rates.
    var ratesStale = false
    var ratesSchedule: RatesSchedule
    /// Prices are left out for want of an exchange rate; logged when that starts and ends.
    var missingRateLogged = false
    /// Prices are left out because they are not finite; logged when that starts and ends.
    var nonFiniteLogged = false
    /// Rung by ``submit(_:)-([SettingsRequest])``: requests wait in ``pending``.
    let submitted = Doorbell()
    /// Rung by ``wake()``: the run loop decides again.
    let woken = Doorbell()

    /// A manager over `store`, restoring the saved settings (or the defaults on first start).
    ///
    /// `overrides` are settings from the local configuration (such as `--custom-url`); they are
    /// checked, applied over the saved settings and saved. Saved settings are read leniently: an
    /// unknown or no longer valid field is logged and left out, never a reason to refuse to start.
    public init(
        configuration: Configuration, store: sending PriceStore, catalog: SourceCatalog, clock: any WallClock,
        output: any ManagerOutput, logger: Logger, overrides: SettingsPatch? = nil,
        jitter: @escaping @Sendable () -> Double = { Double.random(in: -1...1) }
    ) throws(ManagerError) {
        self.configuration = configuration
        self.catalog = catalog
        self.clock = clock
        self.output = output
        self.logger = logger
        self.jitter = jitter
        schedule = RefreshSchedule(policy: configuration.policy)
        ratesSchedule = RatesSchedule(fallback: configuration.calendar)
        var restored = try Self.restoreSettings(from: store, catalog: catalog, logger: logger)
        if let overrides, !overrides.values.isEmpty {
            do {
                restored = try restored.merged(overrides)
                try store.save(restored)
            } catch let error as SettingsError {
                throw .invalidOverride(error)
            } catch let error as StoreError {
                throw .store(error)
            } catch {
                preconditionFailure("unexpected \(error)")
            }
        }
        settings = restored
        do {
            let stored = try store.exchangeRates(notAfter: ratesSchedule.cet.day(containing: clock.now))
            rates = stored.rates
            if stored.ignored > 0 {
                logger.warning("left out \(stored.ignored) stored exchange rates dated after today or beyond any plausible rate")
            }
        } catch {
            logger.error("\(error)")
        }
        self.store = store
    }

    /// The saved settings, read leniently, with everything notable about them logged.
    static func restoreSettings(from store: PriceStore, catalog: SourceCatalog, logger: Logger) throws(ManagerError) -> Settings {
        let opening = store.opening
        if let moved = opening.movedTo {
            logger.error(
                "the store was unusable (\(opening.reason ?? "damaged")); moved it to \(moved) and started a fresh one, "
                    + (opening.settingsKept ? "keeping the saved settings" : "without the saved settings, which could not be read"))
        }
        let json: String?
        do { json = try store.settingsJSON() } catch { throw .store(error) }
        guard let json else {
            let message = "no saved settings; starting with the defaults \(Settings.defaults.json)"
            if opening.fresh && opening.movedTo == nil { logger.info(message) } else { logger.warning(message) }
            return .defaults
        }
        let restored = Settings.restore(json: json, sources: catalog.ids)
        for name in restored.unknownFields {
            logger.warning(
                "ignored the saved setting \"\(Quote.clip(name))\", which this version does not know (saved by a newer energyclock?)")
        }
        for repair in restored.repairs { logger.error("saved settings: \(repair)") }
        return restored.settings
    }

    var calendar: LocalCalendar { configuration.calendar }

    /// What the outside world should see now.
    public func snapshot() -> Snapshot {
        Snapshot.derive(
            now: clock.now, calendar: calendar, settings: settings, slots: slots, source: servedBy,
            stale: stale || (settings.currency != "EUR" && ratesStale), updatedAt: updatedAt, rates: rates)
    }

    /// Publishes from the cache at once, then fetches and follows the clock, and applies the
    /// submitted settings, until cancelled.
    public func run() async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await self.followClock() }
            group.addTask { await self.applySubmitted() }
            defer { group.cancelAll() }
            try await group.next()
        }
        try Task.checkCancellation()
    }

    /// Publishes from the cache at once, then fetches and follows the clock until cancelled.
    func followClock() async throws {
        loadCache()
        schedule.requestFetchIfNeeded(need(at: clock.now))
        while true {
            try Task.checkCancellation()
            let now = clock.now
            rollOver(at: now)
            await refreshRatesIfDue(at: now)
            await output.publish(noted(snapshot()))
            switch schedule.decide(now: now, need: need(at: now), nextEvent: nextEvent(after: now)) {
            case .fetch:
                await refresh()
            case let .wait(until: deadline):
                try await sleep(until: min(deadline, nextRatesCheck(after: now)))
            }
        }
    }

    /// Loads the cache and fetches once if it lacks something; for one-shot use without ``run()``.
    public func loadAndFetchIfNeeded() async -> Snapshot {
        loadCache()
        await refreshRatesIfDue(at: clock.now)
        if need(at: clock.now).any { await refresh() }
        return noted(snapshot())
    }

    /// Fetches now, whatever the cache holds (the refresh button).
    public func refreshNow() {
        schedule.requestFetch()
        wake()
    }

    /// The note called `name` that an outer layer saved with ``saveNote(_:_:)``, from the store.
    public func note(_ name: String) -> Set<String> {
        do { return try store.note(name) } catch {
            logger.error("\(error)")
            return []
        }
    }

    /// Keeps `items` as the note called `name` until the next run; the manager gives it no meaning.
    public func saveNote(_ name: String, _ items: Set<String>) {
        do { try store.saveNote(name, items) } catch { logger.error("\(error)") }
    }

    /// Closes the store; the manager must not run afterwards.
    public func close() {
        store.close()
    }

    /// What is missing at `now`.
    func need(at now: Date) -> RefreshSchedule.Need {
        let today = calendar.day(containing: now)
        return RefreshSchedule.Need(
            today: !slots.covers(calendar.interval(of: today)),
            tomorrow: now >= publicationTime(on: today) && !slots.covers(calendar.interval(of: today.adding(days: 1))),
            chosenSource: servedBy == settings.source,
            stale: stale
        )
    }

    /// When tomorrow's prices are expected on `day`.
    func publicationTime(on day: LocalDay) -> Date {
        calendar.instant(hour: configuration.policy.tomorrowHour, on: day)
    }

    /// The days a cache load covers: the retention period up to the end of tomorrow.
    func retentionWindow() -> DateInterval {
        let today = calendar.day(containing: clock.now)
        return DateInterval(
            start: calendar.start(of: today.adding(days: -configuration.retentionDays)),
            end: calendar.start(of: today.adding(days: 2)))
    }

    /// The next instant something changes by itself: a slot boundary, the publication hour or midnight.
    func nextEvent(after now: Date) -> Date {
        let today = calendar.day(containing: now)
        var event = calendar.start(of: today.adding(days: 1))
        let publication = publicationTime(on: today)
        if publication > now { event = min(event, publication) }
        if let i = slots.index(containing: now) {
            event = min(event, slots[i].end)
        } else if let later = slots.first(where: { $0.start > now }) {
            event = min(event, later.start)
        }
        return event
    }

    /// Sleeps until `deadline`, or until a change calls ``wake()``.
    func sleep(until deadline: Date) async throws {
        let clock = clock
        let woken = woken
        await withTaskGroup(of: Void.self) { group in
            group.addTask { try? await clock.sleep(until: deadline) }
            group.addTask { await woken.wait() }
            await group.next()
            group.cancelAll()
        }
        try Task.checkCancellation()
    }

    /// Cuts a sleep short so the run loop decides again (the next sleep, when it is awake).
    func wake() {
        woken.ring()
    }

    /// At the first instant of a new local day: trims old history and forgets old backfill attempts.
    func rollOver(at now: Date) {
        let today = calendar.day(containing: now)
        guard currentDay != today else { return }
        let first = currentDay == nil
        currentDay = today
        backfillTried = []
        guard !first else { return }
        let cutoff = calendar.start(of: today.adding(days: -configuration.retentionDays))
        do { try store.trim(before: cutoff) } catch { logger.warning("\(error)") }
        slots.removeAll { $0.end <= cutoff }
        logger.info("new day \(today): \(slots.overlapping(calendar.interval(of: today)).count) slots known")
    }

    /// The store key of the chosen source's cache under `settings`.
    func cacheKey(for settings: Settings) -> String {
        catalog[settings.source]?.cacheKey(for: settings) ?? settings.source
    }

    /// Loads the chosen source's cached slots and last fetch time.
    func loadCache() {
        let key = cacheKey(for: settings)
        slots = cached(catalog[settings.source], settings)
        do {
            updatedAt = try store.lastSuccess(source: key)
        } catch {
            logger.error("\(error)")
            updatedAt = nil
        }
        servedBy = settings.source
        stale = false
        logger.info("loaded \(slots.count) cached slots of \(URLRedaction.redacted(key))")
    }
}
