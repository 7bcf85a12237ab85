import EnergyClockCore
import EnergyClockFace
import FoundationEssentials

extension PublisherState {
    /// After a (re)connect: subscribe, announce `online` and the entities, republish every topic
    /// from `snapshot`, and clear the retained topics in `previous` that are no longer published
    /// (a window length or an entity dropped from the configuration, an old prefix).
    mutating func connect(_ snapshot: Snapshot, _ previous: Set<String>, _ broker: String?, _ now: Date, _ actions: inout [Action]) {
        connected = true
        latest = snapshot
        // Retain-as-published lets a live retained command be told apart and refused (MQTT 5).
        actions += topics.subscriptions.map { .subscribe($0, retainAsPublished: true) }
        if let homeAssistantStatus { actions.append(.subscribe(homeAssistantStatus, retainAsPublished: false)) }
        actions.append(.send(OutgoingMessage(topics.status, "online", retain: true)))
        note(health.connection(true, at: now, broker: broker), &actions)
        republishEverything(now, &actions)
        note(health.published(snapshot, at: now), &actions)
        let owned = retained.owned(for: snapshot).union(discovery.owned).union(clock.owned)
        for topic in previous.subtracting(owned).sorted() {
            actions.append(.log(.info, "clearing \(topic), which this configuration no longer publishes"))
            actions.append(.send(OutgoingMessage(topic, "", retain: true)))
        }
        actions.append(.ledger(owned))
    }

    /// Everything is sent again from the newest snapshot, as if the broker held nothing.
    mutating func republishEverything(_ now: Date, _ actions: inout [Action]) {
        announcedUnit = nil
        clock.forget()
        retained.forget()
        lights.forget()
        if let latest, connected { show(latest, now, &actions) }
    }

    /// What `snapshot` changes, in order: what describes now, the discovery configs when the unit
    /// changed, the lights, the day's larger payloads, then the clock's pictures.
    mutating func show(_ snapshot: Snapshot, _ now: Date, _ actions: inout [Action]) {
        send(retained.changes(in: .now, of: snapshot), &actions)
        if announcedUnit != snapshot.settings.unit {
            announcedUnit = snapshot.settings.unit
            actions += discovery.messages(unit: snapshot.settings.unit).map(Action.send)
        }
        let commands = lights.commands(for: snapshot)
        if !commands.isEmpty {
            actions += commands.map(Action.send)
            lights.shown(snapshot, commands: commands)
        }
        send(retained.changes(in: .day, of: snapshot), &actions)
        drawClock(snapshot, now, &actions)
    }

    /// Sends retained changes, noted as held by the broker until they are reported undelivered.
    private mutating func send(_ changes: [OutgoingMessage], _ actions: inout [Action]) {
        for message in changes {
            retained.sent(message)
            actions.append(.send(message))
        }
    }

    /// Draws the clock pictures when what they show changed, at most once a second; a change
    /// during a drawing is drawn after it, from the newest snapshot.
    private mutating func drawClock(_ snapshot: Snapshot, _ now: Date, _ actions: inout [Action]) {
        guard case let .draw(face, key, time) = clock.decide(for: snapshot, at: now) else { return }
        actions.append(.draw(face, key: key, at: time))
    }

    mutating func clockDrawn(
        _ key: ClockOutput.Key, _ result: Result<Pictures, ClockRenderer.Failure>?, _ now: Date, _ actions: inout [Action]
    ) {
        switch result {
        case nil:
            clock.abandoned()
        case let .failure(failure)?:
            let (pause, log) = clock.failed(failure.kind, at: now)
            if log { actions.append(.log(.error, "could not draw the clock: \(failure); trying again in \(pause.components.seconds) s")) }
        case let .success(pictures)?:
            let (messages, recovered) = clock.drawn(key, pictures)
            if recovered { actions.append(.log(.info, "the clock is drawn again")) }
            guard connected else { return }
            actions += messages.map(Action.send)
            if let latest { drawClock(latest, now, &actions) }
        }
    }

    /// What did not reach the connection goes out again: with the next snapshot, or with
    /// everything after the next connect when the connection is gone.
    mutating func undelivered(_ messages: [OutgoingMessage], _ failure: SinkFailure) {
        if failure == .notConnected { connected = false }
        // Rendered once, not per message: the configs are the largest set to render.
        let configs = discovery.owned
        let pictures = clock.owned
        for message in messages {
            retained.unsent(message.topic)
            if configs.contains(message.topic) {
                announcedUnit = nil
            } else if pictures.contains(message.topic) {
                clock.forget()
            } else {
                lights.forget()
            }
        }
    }

    /// Turns what ``HealthOutput`` decided into actions.
    mutating func note(_ decision: HealthOutput.Action, _ actions: inout [Action]) {
        switch decision {
        case .none: break
        case let .write(record): actions.append(.writeHealth(record))
        case let .wakeAt(time): actions.append(.wake(.health, at: time))
        }
    }
}
