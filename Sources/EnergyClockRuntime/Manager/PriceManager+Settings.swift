import EnergyClockDomain
import EnergyClockStore
import Platform
import Synchronization

extension PriceManager {
    /// Queues settings requests for ``run()``, and returns at once; what arrives while a batch is
    /// applied is applied next, in order, folded into one commit and one publish.
    ///
    /// Not isolated to the manager: the task that read a request queues it at once, whatever the
    /// manager is doing; its output may look whether one waits (``hasSubmitted``).
    public nonisolated func submit(_ requests: [SettingsRequest]) {
        inbox.withLock { $0.append(contentsOf: requests) }
        submitted.ring()
    }

    /// Queues one settings request.
    public nonisolated func submit(_ request: SettingsRequest) { submit([request]) }

    /// Applies what was submitted, batch by batch, until cancelled.
    ///
    /// Each batch's colour goes out first (``ManagerOutput/publishCurrent(all:)``); the output
    /// shows the rest of what it changed when no request waits (``hasSubmitted``), so changes that
    /// come faster than the day goes out show each colour at once and share the rest, the newest.
    package func applySubmitted() async {
        while true {
            await submitted.wait()
            guard !Task.isCancelled else { return }
            while let batch = takeSubmitted() { await apply(batch, currentFirst: true) }
            checkpointIfLong()
        }
    }

    /// Whether a settings request was submitted and not yet taken: an output that shows a change
    /// in steps lets it go first.
    public nonisolated var hasSubmitted: Bool { inbox.withLock { !$0.isEmpty } }

    /// Every request submitted and not yet taken, oldest first; nil when there is none.
    private nonisolated func takeSubmitted() -> [SettingsRequest]? {
        inbox.withLock { queued in
            guard !queued.isEmpty else { return nil }
            defer { queued.removeAll() }
            return queued
        }
    }

    /// Folds `batch` onto the profiles, commits once, publishes once, then answers each request;
    /// for use without ``run()``, and what ``run()`` does with what was submitted.
    ///
    /// Each request is validated against the state the requests before it produced, and applies
    /// whole or not at all, however many profiles it edits; an invalid one is answered with its
    /// own error and the rest carry on. Every request gets an answer.
    public func apply(_ batch: [SettingsRequest]) async { await apply(batch, currentFirst: false) }

    /// ``apply(_:)``, showing only what describes now when `currentFirst`
    /// (``ManagerOutput/publishCurrent(all:)``): the output shows the rest in its own time.
    func apply(_ batch: [SettingsRequest], currentFirst: Bool) async {
        let old = profiles
        var results: [Result<Profiles, SettingsError>] = []
        let stamped = batch.reduce(old) { state, request in
            do throws(SettingsError) {
                let next = try state.merged(
                    request.update.get(), reserved: configuration.reservedProfileNames, catalog: catalog)
                results.append(.success(next))
                return next
            } catch {
                results.append(.failure(error))
                return state
            }
        }
        let folded = stamped.anchoringOnceJobs(over: old, at: clock.now)

        var committed = old
        if folded != old {
            do {
                try EventLoop.doing("saving settings") { () throws(StoreError) in try store.save(folded, over: old) }
                committed = folded
            } catch {
                logger.error("\(error)")
                results = results.map { $0.flatMap { _ in .failure(.persistFailed(error.description)) } }
            }
        }

        if committed != old {
            let converting = convertedCurrencies
            profiles = committed
            ahead = nil
            // By name, once: forty profiles are not searched forty times.
            let before = Dictionary(old.all.map { ($0.name, $0.settings) }) { first, _ in first }
            await forgetRemoved(from: old)
            // A change of bands alone moves no feed: a feed fetches by what prices the slots.
            let feedsChanged = committed.pricesAlike(old) ? false : reconcileFeeds(starting: false)
            // Only the profiles the batch changed: the others show what they showed.
            let changed = profiles.all.filter { before[$0.name] != $0.settings }.map { noted(snapshot(of: $0)) }
            if currentFirst { await output.publishCurrent(all: changed) } else { await output.publish(all: changed) }
            // Logged once what the change made true has left: the line is a whole settings object.
            logChanges(before: before)
            savePlans()
            // The sources are looked at again when there is something to fetch, exchange rates
            // included (a new currency is converted at once, not at the next boundary); a new
            // threshold alone moves no boundary, so the other profiles are not derived again for it.
            if feedsChanged || convertedCurrencies != converting { wake() }
            if !committed.pricesAlike(old) { retime() }
        }

        for (request, result) in zip(batch, results) {
            await output.report(SettingsOutcome(result.map { _ in committed }, request: request))
        }
    }

    /// Tells the output about the profiles `old` had and the batch removed, and forgets them.
    private func forgetRemoved(from old: Profiles) async {
        for name in old.names where !profiles.contains(name) {
            logger.info("profile \(name) removed")
            fallbacks[name] = nil
            bases[name] = nil
            if planBooks.removeValue(forKey: name) != nil {
                do { try store.saveNote(Self.planNote(name), []) } catch { logger.warning("\(error)") }
            }
            missingRateLogged.remove(name)
            nonFiniteLogged.remove(name)
            unsatisfiableLogged = unsatisfiableLogged.filter { !$0.key.hasPrefix(name + "/") }
            await output.removed(profile: name)
        }
    }

    /// Logs each profile whose settings differ from `before`, with its settings now.
    private func logChanges(before: [String: Settings]) {
        for profile in profiles.all where before[profile.name] != profile.settings {
            let verb = before[profile.name] != nil ? "changed" : "added"
            let line = profile.name == Profiles.firstName ? "settings changed" : "profile \(profile.name) \(verb)"
            logger.info("\(line): \(profile.settings.shownJSON)")
        }
    }
}
