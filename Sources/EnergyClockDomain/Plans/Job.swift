import FoundationEssentials

/// Something to run in the cheapest slots before a deadline: a dishwasher, a car, a boiler.
///
/// A plain value, kept in a profile's ``Settings/jobs`` by name; the ``Planner`` turns it and the
/// known prices into a ``Plan``.
public struct Job: Sendable, Hashable {
    /// How long it runs, in minutes, 1…2880; rounded up to whole slots of the profile's resolution.
    public var duration: Int
    /// One block (`true`, the default), or any slots in blocks of at least ``minBlock``.
    public var contiguous: Bool
    /// The shortest block of a non-contiguous job, in minutes (0: any slot on its own).
    public var minBlock: Int
    /// The window each day, or nil for any known slot (a `once` job only).
    public var window: Window?
    /// It never runs in a slot priced above this, in the profile's currency per kWh.
    public var maxPrice: Double?
    /// Every day (the default), or once.
    public var repeats: Repeat
    /// For a `once` job: when it was set, so that its window is the first to end after it.
    /// Filled in by the manager when the job is committed; nil for a daily job.
    public var since: Date?
    /// Whether it may be planned into the profile's forecast beyond the official prices; a plan
    /// that uses a forecast slot is `tentative`.
    public var useForecast = false
    /// Whether `active` may switch on in a forecast slot (one no official price covers yet).
    public var runOnForecast = false
    /// What its slots are chosen by; nil for the profile's own values: the price, or the
    /// intensity a `co2` profile shows.
    public var minimise: Objective?
    /// The price of a tonne of CO₂ in the profile's currency, 0…10,000, that `minimise: co2_price`
    /// adds to each slot's price.
    public var co2Price: Double?

    /// What a job's slots are chosen by.
    public enum Objective: String, Sendable, CaseIterable {
        /// The price of the slot.
        case price
        /// The carbon intensity of the slot, from the profile's `carbon_source`.
        case co2
        /// The price with the carbon at `co2_price` per tonne: `price + intensity × co2_price / 1,000,000`.
        case co2Price = "co2_price"
    }

    /// Whether a job runs again each day.
    public enum Repeat: String, Sendable, CaseIterable {
        /// In every day's window.
        case daily
        /// In the first window that ends after it was set, then it is done.
        case once
    }

    /// A daily window between two local times; `deadline` at or before `earliest` is the next morning.
    public struct Window: Sendable, Hashable {
        /// The earliest start, in minutes after local midnight, 0…1439.
        public var earliest: Int
        /// The latest end, in minutes after local midnight, 0…1439.
        public var deadline: Int

        /// A window from `earliest` to `deadline`, both minutes after local midnight.
        public init(earliest: Int, deadline: Int) {
            self.earliest = earliest
            self.deadline = deadline
        }

        /// Its length in minutes on a day without a clock change: 1…1440.
        public var minutes: Int { deadline > earliest ? deadline - earliest : deadline + 1440 - earliest }
    }

    /// A job of `duration` minutes with the defaults: one block, daily, in `window`.
    public init(
        duration: Int, contiguous: Bool = true, minBlock: Int = 0, window: Window?, maxPrice: Double? = nil,
        repeats: Repeat = .daily, since: Date? = nil
    ) {
        self.duration = duration
        self.contiguous = contiguous
        self.minBlock = minBlock
        self.window = window
        self.maxPrice = maxPrice
        self.repeats = repeats
        self.since = since
    }

    /// The longest job, in minutes: two days of prices is all that is ever known.
    public static let maxDuration = 2880
    /// The most jobs one profile holds; each is a few topics and four entities.
    public static let maxCount = 32

    /// Why this job cannot run as set, or nil: checked whenever a job is created or changed.
    func problem() -> String? {
        if duration < 1 { return "a new job needs a duration" }
        if !contiguous, minBlock > duration {
            return "min_block (\(minBlock) minutes) is longer than the duration (\(duration) minutes)"
        }
        if let window, duration > window.minutes {
            return
                "the duration (\(duration) minutes) is longer than its window \(ClockTime.text(window.earliest))–\(ClockTime.text(window.deadline)) (\(window.minutes) minutes)"
        }
        if runOnForecast, !useForecast { return "run_on_forecast needs use_forecast" }
        if minimise == .co2Price, co2Price == nil { return "minimise co2_price needs a co2_price per tonne of CO2" }
        if window == nil, repeats == .daily {
            return "a daily job needs a window: set earliest and deadline, or repeat: once to run once in the known prices"
        }
        return nil
    }

}
