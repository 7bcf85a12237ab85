import EnergyClockDomain

/// The retained topic tree: what a snapshot looks like on the broker, and what the broker already
/// holds, so that only changed topics go out.
struct RetainedTopics {
    /// The name of the store's note that keeps the retained topics published by the last connection,
    /// so that a later start clears those it no longer publishes.
    package static let ledgerNote = "published"

    let topics: TopicTree
    let cheapestHours: [Int]
    /// What the broker holds per topic, as far as this connection knows: noted as each change is
    /// handed on to be sent, and forgotten when it is reported undelivered.
    private var held: [String: HeldPayload] = [:]
    /// The settings and the day's price arrays last rendered, kept across slot boundaries.
    private var memo = DayMemo()

    init(topics: TopicTree, cheapestHours: [Int]) {
        self.topics = topics
        self.cheapestHours = cheapestHours
    }

    /// The parts of the tree, in the order they are sent.
    enum Part: Hashable {
        /// The current price.
        case price
        /// The colour of the current slot and the stale flag.
        case color
        /// `current` and `next`, the slot objects.
        case slots
        /// One group of the settings, the thresholds and the day's payloads.
        case day(DayPiece)
    }

    /// The topics in `part` of `snapshot` whose payload differs from what the broker holds, and
    /// empty payloads for those the part published last time and no longer does (a deleted job's),
    /// noted as held: the caller sends them.
    /// `importCosts` are the first profile's prices that an export profile's `forecast/emhass` carries.
    mutating func changes(in part: Part, of snapshot: Snapshot, importCosts: [Double]? = nil) -> [OutgoingMessage] {
        let rendered =
            switch part {
            case .price: [Payloads.renderPrice(snapshot, topics: topics)] + Payloads.renderSwitches(snapshot, topics: topics)
            case .color: Payloads.renderColor(snapshot, topics: topics)
            case .slots: Payloads.renderSlots(snapshot, topics: topics)
            case let .day(piece):
                Payloads.renderDay(
                    snapshot, topics: topics, cheapestHours: cheapestHours, memo: &memo, held: held, importCosts: importCosts,
                    piece: piece)
            }
        var messages = changed(rendered)
        let names = rendered.map(\.topic)
        // The same topics in the same order, as nearly always: compared in order, without hashing
        // a set of them twice a part.
        if let before = shown[part], before != names {
            let now = Set(names)
            let gone = before.filter { !now.contains($0) }
            for topic in gone.sorted() {
                held[topic] = HeldPayload("")
                messages.append(OutgoingMessage(topic, "", retain: true))
            }
            if Set(before) != now { reshaped = true }
        }
        shown[part] = names
        return messages
    }

    /// `forecast/emhass` and `forecast/emhass/timed` of an export profile alone, when the first
    /// profile's prices in them changed; noted as held, like ``changes(in:of:importCosts:)``.
    mutating func forecastChange(of snapshot: Snapshot, importCosts: [Double]?) -> [OutgoingMessage] {
        let emhass = Forecast.EMHASS(forecast: Forecast(snapshot), importCosts: importCosts)
        return changed([
            memo.emhass.message(topics.forecastEMHASS, emhass, holds: held[topics.forecastEMHASS], \.json),
            memo.emhassTimed.message(topics.forecastEMHASSTimed, emhass, holds: held[topics.forecastEMHASSTimed], \.timedJSON),
        ])
    }

    /// Of `rendered`, the messages whose payload the broker does not hold, noted as held now.
    private mutating func changed(_ rendered: [RetainedMessage]) -> [OutgoingMessage] {
        var messages: [OutgoingMessage] = []
        for message in rendered where !message.unchanged {
            let payload = message.held ?? HeldPayload(message.payload)
            guard held[message.topic] != payload else { continue }
            held[message.topic] = payload
            messages.append(OutgoingMessage(message.topic, message.payload, retain: true))
        }
        return messages
    }

    /// The topics each part published last, so that one it no longer publishes is cleared.
    private var shown: [Part: [String]] = [:]
    /// Some part's set of topics changed (a job came or went): the ledger is to be written again.
    private var reshaped = false

    /// Whether some part's set of topics changed since the last call.
    mutating func takeReshaped() -> Bool {
        defer { reshaped = false }
        return reshaped
    }

    /// Every retained topic this tree publishes for `snapshot`, `status` excluded (it is the daemon's).
    func owned(for snapshot: Snapshot) -> Set<String> {
        Set(Payloads.render(snapshot, topics: topics, cheapestHours: cheapestHours).map(\.topic))
    }

    /// Empty retained messages for every topic this tree published for `snapshot`: the broker
    /// deletes them.
    func clearing(_ snapshot: Snapshot) -> [OutgoingMessage] {
        owned(for: snapshot).sorted().map { OutgoingMessage($0, "", retain: true) }
    }

    /// The `settings` payload of `settings`, rendered once per change and shared with `profiles`.
    mutating func settingsJSON(_ settings: Settings) -> String { memo.settings.text(settings, \.shownJSON) }

    /// What the broker holds on `topic` as this tree last sent it; nil for a topic it never sent.
    func held(_ topic: String) -> HeldPayload? { held[topic] }

    /// Notes that `topic` did not reach the broker, so that it goes out again with the next snapshot.
    mutating func unsent(_ topic: String) { held[topic] = nil }

    /// Forgets what the broker holds, so that everything goes out again (after a reconnect).
    mutating func forget() { held.removeAll() }
}
