import Platform

extension PriceManager {
    /// Queues settings requests for ``run()``, and returns at once; what arrives while a batch is
    /// applied is applied next, in order, folded into one commit and one publish.
    public func submit(_ requests: [SettingsRequest]) {
        pending.append(contentsOf: requests)
        submitted.ring()
    }

    /// Queues one settings request.
    public func submit(_ request: SettingsRequest) { submit([request]) }

    /// Applies what was submitted, batch by batch, until cancelled.
    func applySubmitted() async {
        while true {
            await submitted.wait()
            guard !Task.isCancelled else { return }
            while !pending.isEmpty {
                let batch = pending
                pending.removeAll()
                await apply(batch)
            }
        }
    }

    /// Folds `batch` onto the settings, commits once, publishes once, then answers each request;
    /// for use without ``run()``, and what ``run()`` does with what was submitted.
    ///
    /// Each request is validated against the state the requests before it produced; an invalid
    /// one is answered with its own error and the rest carry on. Every request gets an answer.
    public func apply(_ batch: [SettingsRequest]) async {
        let old = settings
        var results: [Result<Settings, SettingsError>] = []
        let folded = batch.reduce(old) { state, request in
            do {
                let next = try state.merged(request.patch.get())
                try catalog.check(next)
                results.append(.success(next))
                return next
            } catch let error as SettingsError {
                results.append(.failure(error))
                return state
            } catch {
                preconditionFailure("settings merge throws only SettingsError")
            }
        }

        var committed = old
        if folded != old {
            do {
                try store.save(folded)
                committed = folded
            } catch {
                logger.error("\(error)")
                results = results.map { $0.flatMap { _ in .failure(.persistFailed(error.description)) } }
            }
        }

        if committed != old {
            settings = committed
            logger.info("settings changed: \(committed.shownJSON)")
            if cacheKey(for: committed) != cacheKey(for: old) {
                loadCache()
                schedule.requestFetch()
            } else if committed.historyDays > old.historyDays {
                backfillTried = []
                schedule.requestFetch()
            }
            await output.publish(snapshot())
            wake()
        }

        for (request, result) in zip(batch, results) {
            await output.report(SettingsOutcome(result: result.map { _ in committed }, reply: request.reply))
        }
    }
}
