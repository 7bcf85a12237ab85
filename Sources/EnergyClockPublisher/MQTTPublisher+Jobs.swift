import EnergyClockDomain
import EnergyClockFace
import Platform

extension MQTTPublisher {
    /// Runs the drawings, the wake-ups and the catch-up until cancelled; a drawing under way is
    /// stopped and waited for, so that no helper outlives the daemon.
    package func run() async {
        await withDiscardingTaskGroup { group in
            // One task for every catch-up, woken by its bell when stages are owed.
            group.addTask {
                while !Task.isCancelled {
                    await self.owing.wait()
                    await self.catchUp()
                }
            }
            for await job in jobs { group.addTask { await self.carry(job) } }
        }
    }

    /// Lets the catch-up give way to settings requests: `waits` says whether one waits to be
    /// applied (the manager's inbox). Its change, shown at once, owes the stages again, and its
    /// answer starts the catch-up again.
    package func giveWay(when waits: @escaping @Sendable () -> Bool) { requestWaits = waits }

    /// Shows what settings changes owe, a stage at a time, and then the answers that waited for it.
    ///
    /// Before each stage, what the broker sent meanwhile is read and its tasks run; a settings
    /// request that waits then stops the catch-up, and its change goes first (its snapshot
    /// replaces the one owed). With ``PublisherState/answersHeldAtMost`` answers waiting it no
    /// longer stops. Returns whether nothing is owed.
    @discardableResult
    func catchUp() async -> Bool {
        while state.owesStages {
            await EventLoop.giveWay()
            if state.yieldsToRequests, requestWaits() { return false }
            await showNextStage()
        }
        return true
    }

    /// Hands the newest ledger to the keeper; a save that runs late still saves the newest.
    private func keepNewestLedger() async {
        guard let ledgerKeeper, let newestLedger else { return }
        await ledgerKeeper(newestLedger)
    }

    /// Runs one drawing or wake-up and reports its end; a drawing stopped by cancellation is
    /// reported without a picture.
    private nonisolated func carry(_ job: PublisherState.Action) async {
        switch job {
        case let .wake(timer, time):
            guard (try? await clock.sleep(until: time)) != nil else { return }
            await handle(.timer(timer))
        case let .draw(face, profile, key, time):
            try? await clock.sleep(until: time)
            var result: Result<PublisherState.Pictures, ClockRenderer.Failure>?
            if !Task.isCancelled {
                do throws(ClockRenderer.Failure) { result = .success(try await options.renderer.draw(face)) } catch {
                    result = .failure(error)
                }
            }
            await handle(.clockDrawn(profile: profile, key, Task.isCancelled ? nil : result))
        case .ledger: await keepNewestLedger()
        default: break
        }
    }
}
