import EnergyClockDomain
import EnergyClockStore
import Platform

extension MQTTPublisher {
    /// Feeds `event` to the state and carries out the actions; returns the points for InfluxDB and
    /// the ledger, which the caller awaits or keeps.
    @discardableResult
    func handle(_ event: PublisherState.Event) -> (points: [String], ledger: Set<String>?) {
        var points: [String] = []
        var ledger: Set<String>?
        var undelivered: [OutgoingMessage] = []
        var failure: SinkFailure?
        // Everything one event sends goes to the connection together: one wake-up of the MQTT
        // thread and as few segments as the messages fit in.
        let actions = EventLoop.doing("rendering topics") { state.handle(event, at: clock.now) }
        sink.together {
            for action in actions {
                switch action {
                case let .send(message) where failure == .notConnected:
                    undelivered.append(message)
                case let .send(message):
                    do throws(SinkFailure) {
                        let messageID = try sink.send(message)
                        if topicsByMessageID.count >= 4096 { topicsByMessageID.removeAll(keepingCapacity: true) }
                        topicsByMessageID[messageID] = message.topic
                        logger.debug("published \(message.topic) (\(message.body.count) bytes)")
                    } catch {
                        if error != .notConnected { logger.error("\(error)") }
                        undelivered.append(message)
                        // A lost connection stops the rest; it is what the state hears of, over a refusal.
                        if failure == nil || error == .notConnected { failure = error }
                    }
                case let .subscribe(filter, retainAsPublished, othersOnly):
                    do throws(SinkFailure) {
                        try sink.subscribe(filter, retainAsPublished: retainAsPublished, othersOnly: othersOnly)
                    } catch {
                        logger.error("\(error)")
                    }
                case let .writeHealth(record):
                    guard let healthDirectory else { continue }
                    // Off the loop: a rename can wait on the file system's journal for milliseconds.
                    let logger = logger
                    record.write(to: healthDirectory, with: .shared) { logger.warning("\($0)") }
                case .draw, .wake: newJob.yield(action)
                case .catchUp: owing.ring()
                case let .expectSend(seconds): sink.expectSend(in: seconds)
                case let .record(point): points.append(point)
                case let .log(level, line): logger.log(level, line)
                case let .ledger(owned):
                    ledger = owned
                    newestLedger = owned
                    // The connect's ledger goes back to the caller, who keeps it; later ones a job keeps.
                    if case .connected = event {} else { newJob.yield(action) }
                }
            }
        }
        if let failure { handle(.undelivered(undelivered, failure)) }
        return (points, ledger)
    }
}
