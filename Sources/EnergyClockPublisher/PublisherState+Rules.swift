import EnergyClockDomain
import EnergyClockFace
import FoundationEssentials

extension PublisherState {
    /// After a (re)connect: subscribe, announce `online` and the entities, republish every topic
    /// of every profile in `snapshots`, and clear the retained topics in `previous` that are no
    /// longer published (a window length or an entity dropped from the configuration, a removed
    /// profile, an old prefix).
    mutating func connect(_ snapshots: [Snapshot], _ previous: Set<String>, _ broker: String?, _ now: Date, _ actions: inout [Action]) {
        connected = true
        let names = Set(snapshots.map(\.profile))
        for name in order where !names.contains(name) && name != Profiles.firstName { views[name] = nil }
        order.removeAll { !names.contains($0) && $0 != Profiles.firstName }
        for snapshot in snapshots { hold(snapshot) }
        // Retain-as-published lets a live retained command be told apart and refused (MQTT 5).
        actions += topics.subscriptions.map { .subscribe($0, retainAsPublished: true, othersOnly: false) }
        actions += topics.stateFilters.map { .subscribe($0, retainAsPublished: false, othersOnly: true) }
        if let homeAssistantStatus { actions.append(.subscribe(homeAssistantStatus, retainAsPublished: false, othersOnly: false)) }
        actions.append(.send(OutgoingMessage(topics.status, "online", retain: true)))
        note(health.connection(true, at: now, broker: broker), &actions)
        republishEverything(now, &actions)
        note(health.published(order.compactMap { views[$0]?.latest }, at: now), &actions)
        let owned = ownedTopics
        for topic in previous.subtracting(owned).sorted() {
            actions.append(.log(.info, "clearing \(topic), which this configuration no longer publishes"))
            actions.append(.send(OutgoingMessage(topic, "", retain: true)))
        }
        actions.append(.ledger(owned))
    }

    /// Every retained topic published now: `status`, each profile's, and the list of profiles.
    var ownedTopics: Set<String> {
        var owned: Set<String> = [topics.status]
        for view in views.values { owned.formUnion(view.owned) }
        if order.count > 1 { owned.insert(topics.profiles) }
        return owned
    }

    /// Keeps `snapshot` as its profile's newest, making the profile's view when it is new.
    mutating func hold(_ snapshot: Snapshot) {
        let name = snapshot.profile
        if views[name] == nil {
            views[name] = ProfileView(name: name, root: topics, options: options)
            order.append(name)
        }
        updateView(name) { $0.latest = snapshot }
    }

    /// Runs `body` on the view of the profile `name`, which must be held, where it lies in `views`.
    ///
    /// `views[name]!.…` copied the whole view out and back, with its table of what the broker
    /// holds, at every call: once per profile and part, and once per message, at every boundary.
    mutating func updateView<Result>(_ name: String, _ body: (inout ProfileView) -> Result) -> Result {
        body(&views.values[views.index(forKey: name)!])
    }

    /// Everything is sent again from the newest snapshots, as if the broker held nothing.
    mutating func republishEverything(_ now: Date, _ actions: inout [Action]) {
        for name in order { views[name]?.forget() }
        profilesShown = nil
        show(order.compactMap { views[$0]?.latest }, now, &actions, republishing: true)
    }

    /// Shows `snapshots`, in order: what describes now for each, then every ``Stage`` (the
    /// discovery configs whose unit changed and the lights, the day's payloads group by group, the
    /// list of profiles, the clocks' pictures, the line-protocol points and `health.json`, which a
    /// republish of what is already known leaves out).
    mutating func show(_ snapshots: [Snapshot], _ now: Date, _ actions: inout [Action], republishing: Bool = false) {
        let before = order.count
        for snapshot in snapshots { hold(snapshot) }
        if connected { sendParts(snapshots, [.price, .color, .slots], &actions) }
        for stage in Stage.all { show(stage, of: snapshots, now, &actions, republishing: republishing, grew: order.count != before) }
    }

    /// One step of showing `snapshots`, whose profiles are held and whose price and what
    /// describes now are out; `grew` when they brought a new profile, whose topics the ledger lacks.
    mutating func show(
        _ stage: Stage, of snapshots: [Snapshot], _ now: Date, _ actions: inout [Action], republishing: Bool = false, grew: Bool = false
    ) {
        switch stage {
        case .devices:
            guard connected else { return }
            for snapshot in snapshots { showDevices(snapshot, &actions) }
        case let .day(piece):
            guard connected else { return }
            sendParts(snapshots, [.day(piece)], &actions)
        case .rest:
            if connected {
                showProfiles(&actions)
                for snapshot in snapshots { drawClock(snapshot, now, &actions) }
            }
            guard !republishing else { return }
            for snapshot in snapshots {
                let cheapestHours = options.cheapestHours
                let event = updateView(snapshot.profile) { $0.tomorrowEvent(for: snapshot, cheapestHours: cheapestHours) }
                if connected, let event { actions.append(.send(event)) }
            }
            for snapshot in snapshots {
                let noted = updateView(snapshot.profile) { view in
                    view.lineProtocol.newPoint(for: snapshot).map { ($0, view.topics.influx) }
                }
                guard let (point, topic) = noted else { continue }
                if connected { actions.append(.send(OutgoingMessage(topic, point, retain: false))) }
                actions.append(.record(point))
            }
            if connected { note(health.published(snapshots, at: now), &actions) }
            if connected, grew || reshaped() { actions.append(.ledger(ownedTopics)) }
        }
    }

    /// Whether some profile's set of retained topics changed since the last call. Views are
    /// reached in place (a mutating call), never copied: forty profiles at every boundary.
    private mutating func reshaped() -> Bool {
        var any = false
        for name in order where views[name]?.retained.takeReshaped() == true { any = true }
        return any
    }

    /// What describes now of each of `snapshots` in `parts`, and nothing else.
    mutating func showCurrent(_ snapshots: [Snapshot], _ parts: [RetainedTopics.Part], _ actions: inout [Action]) {
        guard connected, holdsAll(snapshots) else { return }
        sendParts(snapshots, parts, &actions)
    }

    /// The changed topics in `parts` of profiles already held, part by part: with
    /// `[.price, .color, .slots]` every profile's `price` first, then every colour, then the slot
    /// objects, so that at a slot boundary the last profile's price does not wait behind the other
    /// profiles' colours and slot objects.
    mutating func sendParts(_ snapshots: [Snapshot], _ parts: [RetainedTopics.Part], _ actions: inout [Action]) {
        // An export profile's `forecast/emhass` carries the first profile's import prices too, so
        // that it is the whole EMHASS call: worked out once per step length, and sent again for
        // every export profile (that payload alone) when the first profile changes.
        // Looked up only for a forecast part: it is a copy of the whole snapshot.
        lazy var first = latest.flatMap { $0.settings.kind == .import ? $0 : nil }
        var costs: [Int: [Double]] = [:]
        func importCosts(_ snapshot: Snapshot) -> [Double]? {
            snapshot.settings.kind == .export ? importCosts(step: snapshot.settings.forecastStep) : nil
        }
        func importCosts(step: Int) -> [Double]? {
            guard let first else { return nil }
            if let known = costs[step] { return known }
            let stepped = Forecast(first, step: step).stepped
            costs[step] = stepped
            return stepped
        }
        // By index: `for snapshot in snapshots` copies each snapshot, settings and all.
        for part in parts {
            for index in snapshots.indices {
                let name = snapshots[index].profile
                let extra = part == .day(.forecasts) ? importCosts(snapshots[index]) : nil
                let changes = updateView(name) { $0.retained.changes(in: part, of: snapshots[index], importCosts: extra) }
                actions += changes.map(Action.send)
            }
        }
        guard parts.contains(.day(.forecasts)), order.count > 1, snapshots.contains(where: { $0.profile == Profiles.firstName }) else {
            return
        }
        let named = Set(snapshots.map(\.profile))
        for name in order where !named.contains(name) {
            guard let step = views[name]?.exportStep() else { continue }
            let costs = importCosts(step: step)
            actions += updateView(name) { $0.forecastChange(importCosts: costs) }.map(Action.send)
        }
    }

    /// The discovery configs when the unit or the jobs changed, and the lights.
    private mutating func showDevices(_ snapshot: Snapshot, _ actions: inout [Action]) {
        let name = snapshot.profile
        let shape = DiscoveryAnnouncer.Shape(snapshot.settings)
        actions += updateView(name) { view in
            var messages: [OutgoingMessage] = []
            if view.announced != shape {
                messages += view.discovery.messages(shape, replacing: view.lastAnnounced)
                view.announced = shape
                view.lastAnnounced = shape
            }
            let commands = view.lights.commands(for: snapshot)
            if !commands.isEmpty {
                messages += commands
                view.lights.shown(snapshot, commands: commands)
            }
            return messages
        }.map(Action.send)
    }

    /// `profiles`: every profile's settings by name while there is more than one, else nothing.
    private mutating func showProfiles(_ actions: inout [Action]) {
        var payload: String?
        if order.count > 1 {
            var w = JSONWriter()
            w.beginObject()
            for name in order {
                guard let json = views[name]?.shownSettings()?.json else { continue }
                w.key(name)
                w.raw(json)
            }
            w.endObject()
            payload = w.output
        }
        guard payload != profilesShown else { return }
        profilesShown = payload
        actions.append(.send(OutgoingMessage(topics.profiles, payload ?? "", retain: true)))
    }

    /// The profile `name` is gone: its retained topics, discovery configs and pictures are
    /// cleared, and the ledger no longer holds them.
    mutating func remove(_ name: String, _ now: Date, _ actions: inout [Action]) {
        guard name != Profiles.firstName, let view = views[name] else { return }
        views[name] = nil
        order.removeAll { $0 == name }
        note(health.removed(name, at: now), &actions)
        guard connected else { return }
        let cleared = view.owned.sorted().map { OutgoingMessage($0, "", retain: true) }
        actions.append(.log(.info, "profile \(name) removed; clearing its \(cleared.count) retained topics"))
        actions += cleared.map(Action.send)
        showProfiles(&actions)
        actions.append(.ledger(ownedTopics))
    }

    /// Draws a profile's clock pictures when what they show changed, at most once a second; a
    /// change during a drawing is drawn after it, from the newest snapshot.
    private mutating func drawClock(_ snapshot: Snapshot, _ now: Date, _ actions: inout [Action]) {
        guard case let .draw(face, key, time) = updateView(snapshot.profile, { $0.clock.decide(for: snapshot, at: now) }) else { return }
        actions.append(.draw(face, profile: snapshot.profile, key: key, at: time))
    }

    mutating func clockDrawn(
        _ name: String, _ key: ClockOutput.Key, _ result: Result<Pictures, ClockRenderer.Failure>?, _ now: Date, _ actions: inout [Action]
    ) {
        guard views[name] != nil else { return }
        switch result {
        case nil:
            updateView(name) { $0.clock.abandoned() }
        case let .failure(failure)?:
            let (pause, log) = updateView(name) { $0.clock.failed(failure.kind, at: now) }
            if log { actions.append(.log(.error, "could not draw the clock: \(failure); trying again in \(pause.components.seconds) s")) }
        case let .success(pictures)?:
            let (messages, recovered) = updateView(name) { $0.clock.drawn(key, pictures) }
            if recovered { actions.append(.log(.info, "the clock is drawn again")) }
            guard connected else { return }
            actions += messages.map(Action.send)
            if let latest = views[name]!.latest { drawClock(latest, now, &actions) }
        }
    }

    /// What did not reach the connection goes out again: with the next snapshot, or with
    /// everything after the next connect when the connection is gone.
    mutating func undelivered(_ messages: [OutgoingMessage], _ failure: SinkFailure) {
        if failure == .notConnected { connected = false }
        for name in order {
            guard var view = views[name] else { continue }
            // Rendered once per profile, not per message: the configs are the largest set to render.
            let configs = view.discovery.owned(view.discoveryShape)
            let pictures = view.clock.owned
            for message in messages {
                view.retained.unsent(message.topic)
                if configs.contains(message.topic) {
                    view.announced = nil
                } else if pictures.contains(message.topic) {
                    view.clock.forget()
                } else if message.topic == topics.profiles {
                    profilesShown = nil
                } else {
                    view.lights.forget()
                }
            }
            views[name] = view
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
