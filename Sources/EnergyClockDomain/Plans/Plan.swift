import FoundationEssentials

/// What a job does in its current window: the slots chosen, where it stands, what it saves.
public struct Plan: Sendable, Hashable {
    /// Where a job stands.
    public enum Status: String, Sendable, CaseIterable {
        /// Slots are chosen and the first is still to come.
        case planned
        /// Now is one of its slots.
        case running
        /// Every chosen slot has run; the next window is planned when this one ends.
        case done
        /// The window reaches into prices not yet published: what is known is planned, and the
        /// job is planned again when they arrive.
        case waiting
        /// No choice fits the window: see ``Plan/reason``.
        case unsatisfiable
    }

    /// One chosen slot.
    public struct Slot: Sendable, Hashable {
        /// Its first instant.
        public var start: Date
        /// Its first instant after.
        public var end: Date
        /// Its price as published, in the profile's currency per kWh.
        public var price: Double

        /// The slot `[start, end)` at `price`.
        public init(start: Date, end: Date, price: Double) {
            self.start = start
            self.end = end
            self.price = price
        }

        /// `slot` with its price as published.
        public init(_ slot: PricedSlot) { self.init(start: slot.slot.start, end: slot.slot.end, price: slot.price) }

        /// Whether `instant` lies inside `[start, end)`.
        public func contains(_ instant: Date) -> Bool { start <= instant && instant < end }

        /// Its length in seconds.
        public var duration: TimeInterval { end.timeIntervalSince(start) }
    }

    /// The job's name.
    public var name: String
    /// Where it stands at ``at``.
    public var status: Status
    /// Why it is waiting or unsatisfiable.
    public var reason: String?
    /// The window the plan is for.
    public var window: DateInterval
    /// The chosen slots, in time order: those already run and those to come.
    public var slots: [Slot]
    /// The mean price of ``slots``.
    public var meanPrice: Double?
    /// The mean price of running now instead: the same number of slots from the current one on.
    public var nowMeanPrice: Double?
    /// The mean price of every known slot of the window.
    public var windowMeanPrice: Double?
    /// Whether the job should run at this instant.
    public var active: Bool
    /// The next instant it switches on, if one is still to come.
    public var nextStart: Date?
    /// Whether some chosen slot lies in the forecast beyond the official prices (a job with
    /// `use_forecast`): the plan is made again when the official prices come.
    public var tentative = false

    /// The first chosen instant.
    public var start: Date? { slots.first?.start }
    /// The last chosen instant.
    public var end: Date? { slots.last?.end }
}
