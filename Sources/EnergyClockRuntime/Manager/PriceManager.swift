import EnergyClockDomain
import EnergyClockSources
import EnergyClockStore
import FoundationEssentials
import Platform
import Synchronization

/// The one owner of prices, settings and derived bands: loads from the store, fetches when
/// needed, follows the clock from slot to slot and hands every change to its output.
///
/// It holds every profile of the daemon. Profiles that read the same source and zone share one
/// ``Feed``: one fetch per poll and one cache, however many profiles show it. A profile whose
/// source fails falls back on its own `fallback_sources`, without touching the others.
public actor PriceManager {
    /// Fixed parameters of a manager.
    public struct Configuration: Sendable {
        /// The zone that defines "today".
        public var calendar: LocalCalendar
        /// When tomorrow is polled for, and how fetches are spaced and retried.
        public var policy: RefreshSchedule.Policy
        /// Local days of prices kept in the store per source.
        public var retentionDays: Int
        /// Names no profile may take: the outer layer's own words (for the publisher, the leaves
        /// of the first profile's topic tree).
        public var reservedProfileNames: Set<String>

        /// A configuration for `calendar` with default timing and 62 days of retention.
        public init(
            calendar: LocalCalendar, policy: RefreshSchedule.Policy = .init(), retentionDays: Int = 62,
            reservedProfileNames: Set<String> = []
        ) {
            self.calendar = calendar
            self.policy = policy
            self.retentionDays = retentionDays
            self.reservedProfileNames = reservedProfileNames
        }
    }

    let configuration: Configuration
    let store: PriceStore
    let catalog: SourceCatalog
    let clock: any WallClock
    let output: any ManagerOutput
    let logger: Logger
    let jitter: @Sendable () -> Double

    /// The effective profiles.
    public internal(set) var profiles: Profiles
    /// The prices by store key: one per source and zone that some profile shows.
    var feeds: [String: Feed] = [:]
    /// Feeds fetched and not yet backfilled, with the day they were fetched on.
    var backfills: [String: LocalDay] = [:]
    /// The fallbacks serving profiles, by profile name, while their own source fails.
    var fallbacks: [String: Fallback] = [:]
    /// The forecasts by store key: one per provider and zone that some profile names.
    var forecastFeeds: [String: ForecastFeed] = [:]
    /// Each profile's report card of its forecast providers, by profile name; read from the store
    /// on first use.
    var accuracy: [String: ForecastAccuracy] = [:]
    var currentDay: LocalDay?
    /// Euro exchange rates by day, from the store and the ECB.
    var rates = ExchangeRates() {
        didSet { ratesGeneration &+= 1 }
    }
    /// Counts the changes to ``rates``: a kept basis derived before the last one is out of date.
    var ratesGeneration = 0
    /// Each profile's basis for today, by profile name: what its snapshots derive from until its
    /// day, settings, slots or the rates change.
    var bases: [String: KeptBasis] = [:]
    /// Each profile's plans and what its started jobs keep, by profile name.
    var planBooks: [String: PlanBook] = [:]
    /// The last rates fetch failed; the prices shown are converted at older rates.
    var ratesStale = false
    /// The snapshots at the next slot boundary, while the run loop sleeps towards it.
    var ahead: Ahead?
    var ratesSchedule: RatesSchedule
    /// Profiles whose prices are left out for want of an exchange rate; logged when that starts and ends.
    var missingRateLogged: Set<String> = []
    /// Profiles whose prices are left out because they are not finite; logged when that starts and ends.
    var nonFiniteLogged: Set<String> = []
    /// The reason each unsatisfiable job (by `profile/job`) was last logged with.
    var unsatisfiableLogged: [String: String] = [:]
    /// Settings requests submitted and not yet applied, oldest first.
    let inbox = Mutex<[SettingsRequest]>([])
    /// Rung by ``submit(_:)-([SettingsRequest])``: requests wait in ``inbox``.
    let submitted = Doorbell()
    /// The thread that fetches and parses every answer, off the event loop (see ``WorkerExecutor``);
    /// one per manager, started with its first fetch.
    nonisolated let sourcesWorker = WorkerExecutor(name: "sources")

    /// Where fetches and parses run: the sources' thread while an ``EventLoop`` is the global
    /// executor (the daemon), and the global executor's own threads otherwise, which are no loop
    /// a boundary waits on (the tests that run many managers in one process).
    nonisolated var fetchExecutor: (any TaskExecutor)? { EventLoop.global == nil ? nil : sourcesWorker }
    /// Rung by ``wake()``: the sources are looked at again (see ``followSources()``).
    let woken = Doorbell()
    /// Rung by ``retime()``: the clock's task works out its next event again (see ``followClock()``).
    let retimed = Doorbell()
    /// How often ``retimed`` rang, and how many of those rings the clock's task had seen when it
    /// last went to sleep; with ``sourcesAsleep``, what ``isSettled`` tells a test.
    var retimes = 0
    var retimesSeen = -1
    var sourcesAsleep = false
    /// The instant every profile was last published for, by either task.
    var shownAt: Date?

    /// A manager over `store`, restoring the saved profiles (or the defaults on first start).
    ///
    /// `overrides` are settings from the local configuration (such as `--custom-url`, or profiles
    /// in `--settings`); they are checked, applied over the saved settings and saved. Saved
    /// settings are read leniently: an unknown or no longer valid field is logged and left out,
    /// never a reason to refuse to start.
    public init(
        configuration: Configuration, store: sending PriceStore, catalog: SourceCatalog, clock: any WallClock,
        output: any ManagerOutput, logger: Logger, overrides: SettingsUpdate? = nil,
        jitter: @escaping @Sendable () -> Double = { Double.random(in: -1...1) }
    ) throws(ManagerError) {
        self.configuration = configuration
        self.catalog = catalog
        self.clock = clock
        self.output = output
        self.logger = logger
        self.jitter = jitter
        ratesSchedule = RatesSchedule(fallback: configuration.calendar)
        var restored = try Self.restoreProfiles(
            from: store, catalog: catalog, reserved: configuration.reservedProfileNames, logger: logger)
        if let overrides, !overrides.entries.isEmpty {
            do {
                let stored = restored
                restored = try restored.merged(overrides, reserved: configuration.reservedProfileNames, catalog: catalog)
                    .anchoringOnceJobs(over: stored, at: clock.now)
                try store.save(restored)
            } catch let error as SettingsError {
                throw .invalidOverride(error)
            } catch let error as StoreError {
                throw .store(error)
            } catch {
                preconditionFailure("unexpected \(error)")
            }
        }
        profiles = restored
        for profile in restored.all where !profile.settings.jobs.isEmpty {
            let lines = (try? store.note(Self.planNote(profile.name))) ?? []
            planBooks[profile.name] = PlanBook(restoring: lines, jobs: profile.settings.jobs)
        }
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

    /// A manager with `overrides` for the first profile only.
    public init(
        configuration: Configuration, store: sending PriceStore, catalog: SourceCatalog, clock: any WallClock,
        output: any ManagerOutput, logger: Logger, overrides: SettingsPatch,
        jitter: @escaping @Sendable () -> Double = { Double.random(in: -1...1) }
    ) throws(ManagerError) {
        try self.init(
            configuration: configuration, store: store, catalog: catalog, clock: clock, output: output, logger: logger,
            overrides: overrides.values.isEmpty ? nil : SettingsUpdate(overrides), jitter: jitter)
    }

    /// The first profile's settings.
    public var settings: Settings { profiles.first }

    var calendar: LocalCalendar { configuration.calendar }

    /// What the outside world should see now of the first profile.
    public func snapshot() -> Snapshot {
        defer { savePlans() }
        ahead = nil
        return snapshot(of: profiles.all[0])
    }

    /// What the outside world should see now of every profile, the first first.
    public func snapshots() -> [Snapshot] {
        defer { savePlans() }
        ahead = nil
        return profiles.all.map(snapshot(of:))
    }

    /// What the outside world should see now of `profile`.
    func snapshot(of profile: Profiles.Profile) -> Snapshot { snapshot(of: profile, at: clock.now) }

    /// What the outside world should see of `profile` at `now`, as things stand.
    func snapshot(of profile: Profiles.Profile, at now: Date) -> Snapshot {
        let settings = profile.settings
        let feed = feeds[cacheKey(for: settings)]
        let fallback = fallbacks[profile.name]
        var snapshot = EventLoop.doing("pricing the day's slots") { basis(of: profile, on: calendar.day(containing: now)) }.snapshot(
            at: now, source: fallback?.source ?? feed?.source ?? settings.source,
            stale: (fallback == nil && feed?.stale == true) || (ratesStale && !convertedCurrencies(of: profile).isEmpty),
            updatedAt: fallback?.updatedAt ?? feed?.updatedAt)
        snapshot.profile = profile.name
        if !settings.forecastProvider.isEmpty { snapshot.forecastAccuracy = accuracy(of: profile.name) }
        if !settings.jobs.isEmpty || planBooks[profile.name] != nil {
            let slots = snapshot.today + snapshot.tomorrow
            let allowance = planningAllowance(of: profile.name)
            // The forecast is priced here only for a job that may plan into it.
            let forecast = settings.jobs.values.contains(where: \.useForecast) ? Array(snapshot.forecast.continuing(slots)) : []
            let intensity = pairedCarbon(of: settings).flatMap { feeds[cacheKey(for: $0)]?.slots } ?? []
            snapshot.plans = EventLoop.doing("planning jobs") {
                planBooks[profile.name, default: PlanBook()].plans(
                    settings.jobs, slots: slots, knownUntil: slots.last?.slot.end, now: now, calendar: calendar, allowance: allowance,
                    forecast: forecast, intensity: intensity)
            }
        }
        return snapshot
    }

    /// Publishes from the cache at once, then follows the clock, fetches, and applies the
    /// submitted settings, until cancelled.
    ///
    /// The clock and the sources are followed by two tasks: a slot boundary never waits for a
    /// fetch, however slowly an answer drips in.
    public func run() async throws {
        reconcileFeeds(starting: true)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await self.followClock() }
            group.addTask { try await self.followSources() }
            group.addTask { await self.applySubmitted() }
            defer { group.cancelAll() }
            try await group.next()
        }
        try Task.checkCancellation()
    }

    /// Publishes at once, then at every slot boundary, midnight, publication hour and job window
    /// edge, until cancelled. Between them it sleeps; a change of prices or settings that moves
    /// the next of them rings ``retimed``, and it sleeps again until the new one.
    func followClock() async throws {
        while true {
            try Task.checkCancellation()
            let now = clock.now
            rollOver(at: now)
            // Whatever woke the task (the event, or a ring just before or after it), every event
            // since the profiles were last shown whole is shown now.
            if shownAt.map({ nextEvent(after: $0) <= now }) ?? true { await showAll(at: now) }
            let next = nextEvent(after: now)
            prepare(for: next)
            checkpointIfLong()
            retimesSeen = retimes
            try await sleep(until: next, or: retimed)
            retimesSeen = -1
        }
    }

    /// Publishes every profile as of `now`, and notes that everything up to `now` is shown.
    func showAll(at now: Date) async {
        shownAt = now
        await output.publish(all: snapshotsNow(at: now).map(noted))
        savePlans()
    }

    /// Loads the caches and fetches once what they lack; for one-shot use without ``run()``.
    /// Returns the first profile's snapshot.
    public func loadAndFetchIfNeeded() async -> Snapshot {
        reconcileFeeds(starting: true)
        await refreshRatesIfDue(at: clock.now)
        await refresh(feeds.keys.filter { need($0, at: clock.now).any }.sorted())
        await backfillDue()
        return noted(snapshot())
    }

    /// Fetches now, whatever the cache holds (the refresh button): every profile's prices, or
    /// those `profile` shows.
    public func refreshNow(profile: String? = nil) {
        let keys = profile.map { name in profiles[name].map { [cacheKey(for: $0)] } ?? [] } ?? Array(feeds.keys)
        for key in keys { feeds[key]?.schedule.requestFetch() }
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

    /// Lets the store copy a long write-ahead log into its file while nothing waits for the
    /// manager (see ``PriceStore/checkpointIfLong()``).
    func checkpointIfLong() {
        do { try store.checkpointIfLong() } catch { logger.warning("\(error)") }
    }

    /// Closes the store; the manager must not run afterwards.
    public func close() {
        store.close()
    }

    /// Sleeps until `deadline`, or until `bell` rings.
    func sleep(until deadline: Date, or bell: Doorbell) async throws {
        let clock = clock
        await withTaskGroup(of: Void.self) { group in
            group.addTask { try? await clock.sleep(until: deadline) }
            group.addTask { await bell.wait() }
            await group.next()
            group.cancelAll()
        }
        try Task.checkCancellation()
    }

    /// Cuts the sources' sleep short so that they decide again (the next sleep, when awake).
    func wake() {
        woken.ring()
    }

    /// Cuts the clock's sleep short so that it works out its next event again: prices or
    /// settings changed what the next slot boundary is.
    func retime() {
        retimes += 1
        retimed.ring()
    }

    /// Whether both of ``run()``'s tasks sleep, the sources' and the clock's, and the clock's
    /// knows of every change since: a test's sign that what it caused is done and shown.
    package var isSettled: Bool { sourcesAsleep && retimesSeen == retimes }
}
