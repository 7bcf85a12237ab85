import EnergyClockDomain
import EnergyClockFace

extension MQTTPublisher {
    /// Runs the drawings and wake-ups until cancelled; a drawing under way is stopped and waited
    /// for, so that no helper outlives the daemon.
    package func run() async {
        await withDiscardingTaskGroup { group in
            for await job in jobs { group.addTask { await self.carry(job) } }
        }
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
