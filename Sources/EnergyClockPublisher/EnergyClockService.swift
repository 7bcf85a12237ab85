import EnergyClockDomain
import EnergyClockRuntime
import EnergyClockSupport
import MQTTClient
import Synchronization

/// The running daemon: the manager, the broker connection and the publisher between them.
///
/// ``run()`` owns the whole life: it connects, follows prices and the broker until its task is
/// cancelled, and then announces `offline`, disconnects and closes the store before it returns.
package final class EnergyClockService: Sendable {
    /// The core manager.
    package let manager: PriceManager
    /// The broker connection.
    package let client: MQTTClient
    /// The topic publisher.
    package let publisher: MQTTPublisher
    let router: CommandRouter
    let influx: InfluxWriter?
    let logger: Logger
    let replyRefusals = Mutex(LogThrottle())

    /// Wires `manager`'s output to `publisher` and `client`'s messages to `manager`.
    package init(
        manager: PriceManager, client: MQTTClient, publisher: MQTTPublisher, router: CommandRouter,
        influx: InfluxWriter? = nil, logger: Logger
    ) {
        self.manager = manager
        self.influx = influx
        self.client = client
        self.publisher = publisher
        self.router = router
        self.logger = logger
    }

    /// Connects, then follows prices and the broker until the task is cancelled or a part fails;
    /// shuts down cleanly either way, and rethrows a failure other than the cancellation.
    package func run() async throws {
        let manager = manager
        await publisher.keepLedger { owned in await manager.saveNote(RetainedTopics.ledgerNote, owned) }
        await publisher.giveWay { manager.hasSubmitted }
        client.start()
        var failure: (any Error)?
        do {
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await self.manager.run() }
                group.addTask { await self.followBroker() }
                group.addTask { await self.publisher.run() }
                if let influx = self.influx { group.addTask { await influx.run() } }
                defer { group.cancelAll() }
                try await group.next()
            }
        } catch is CancellationError {
        } catch {
            failure = error
        }
        await shutdown()
        if let failure { throw failure }
    }

    /// Handles connection changes and settings commands, in arrival order.
    func followBroker() async {
        let options = client.options
        for await event in client.events {
            switch event {
            case .connected:
                logger.info("connected to \(client.broker) as \(options.clientID) (MQTT \(options.version.rawValue))")
                let previous = await manager.note(RetainedTopics.ledgerNote)
                let owned = await publisher.connectionUp(
                    manager.snapshots(), previouslyRetained: previous, broker: client.broker.description)
                if owned != previous { await manager.saveNote(RetainedTopics.ledgerNote, owned) }
            case let .droppedRepeatedly(count):
                logger.error(
                    """
                    the broker closed the connection right after accepting it \(count) times in a row; most likely another client \
                    uses the client id "\(options.clientID)" (two daemons with the same --mqtt-client-id?); backing off
                    """)
            case let .publishRefused(messageID, reason):
                await publisher.publishRefused(messageID: messageID, reason: reason)
            case let .refused(reason):
                logger.error("broker \(client.broker) refused the connection: \(reason)")
                await publisher.connectionDown()
            case let .connectionLost(reason):
                logger.warning(
                    "no connection to \(client.broker): \(reason); retrying with backoff\(options.standbys.isEmpty ? "" : ", broker by broker")"
                )
                await publisher.connectionDown()
            case let .message(message):
                switch router.command(from: message) {
                case let .settings(request, replyRefused)?:
                    if let reason = replyRefused, replyRefusals.withLock({ $0.admit("reply") }).allowed {
                        logger.warning(
                            "not answering on response topic \(Quote.clip(message.responseTopic ?? "")): \(reason); the result still goes to settings/result"
                        )
                    }
                    manager.submit(request)
                case let .refresh(profile)?:
                    logger.info("refresh requested over MQTT\(profile == Profiles.firstName ? "" : " for profile \(profile)")")
                    await manager.refreshNow(profile: profile == Profiles.firstName ? nil : profile)
                case let .foreign(topic)?:
                    await publisher.overwritten(topic: topic)
                case .homeAssistantOnline?:
                    // Returns at once: the publisher waits out the random delay in its own task.
                    await publisher.homeAssistantRestarted()
                case nil: break
                }
            }
        }
    }

    /// Publishes `offline`, keeps the newest ledger, disconnects, closes the store and lets the
    /// last `health.json` reach the disk.
    private func shutdown() async {
        await publisher.goOffline()
        if let owned = await publisher.newestLedger { await manager.saveNote(RetainedTopics.ledgerNote, owned) }
        await client.stop()
        await manager.close()
        await publisher.healthWritten()
        logger.info("stopped")
    }
}
