import Platform
import Testing

/// The wake-up the manager and the InfluxDB writer wait on, without tasks of their own.
@Suite struct DoorbellTests {
    /// Whether `bell.wait()` returns within `seconds` of real time.
    func returns(_ bell: Doorbell, within seconds: Double) async -> Bool {
        await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                await bell.wait()
                return !Task.isCancelled
            }
            group.addTask {
                try? await Task.sleep(for: .seconds(seconds))
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
    }

    @Test func aRingBeforeTheWaitIsKeptAndRingsCountAsOne() async {
        let bell = Doorbell()
        bell.ring()
        bell.ring()
        #expect(await returns(bell, within: 5), "the rings were kept")
        #expect(await !returns(bell, within: 0.1), "two rings made one wake-up")
        bell.ring()
        #expect(await returns(bell, within: 5))
    }

    @Test func aRingWakesAWaiterAndACancelledWaitConsumesNothing() async {
        let bell = Doorbell()
        let woken = Task {
            await bell.wait()
            return !Task.isCancelled
        }
        try? await Task.sleep(for: .milliseconds(20))
        bell.ring()
        #expect(await woken.value, "woken by the ring, not by cancellation")
        // A wait given up (returns() cancels it after 0.1 s) leaves the bell free, and a ring
        // after it is kept for the next wait.
        #expect(await !returns(bell, within: 0.1))
        bell.ring()
        #expect(await returns(bell, within: 5))
    }
}
