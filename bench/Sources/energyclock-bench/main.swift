import EnergyClockDomain
import EnergyClockSources
import EnergyClockStore
import Foundation
import MQTTClient

// Measures the hot paths of energyclock and, against a running daemon and a real broker, what a
// user sees (Live.swift). bench/run.sh runs them all and writes bench/results.md.

/// Runs `body` `runs` times and returns the sorted durations in microseconds.
func measure(runs: Int, _ body: () -> Void) -> [Double] {
    body()  // warm-up
    return (0..<runs).map { _ in
        let start = ContinuousClock.now
        body()
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) * 1e6 + Double(elapsed.components.attoseconds) / 1e12
    }.sorted()
}

func report(_ name: String, _ samples: [Double], unit: String = "µs", scale: Double = 1) {
    func at(_ q: Double) -> String { String(format: "%.1f", samples[min(samples.count - 1, Int(Double(samples.count) * q))] / scale) }
    print(
        "\(name.padding(toLength: 44, withPad: " ", startingAt: 0)) p50 \(at(0.5)) \(unit)  p95 \(at(0.95)) \(unit)  max \(at(1)) \(unit)  (n=\(samples.count))"
    )
}

func core(fixture: String) throws {
    let calendar = LocalCalendar(identifier: "Europe/Amsterdam")!
    let body = [UInt8](try Data(contentsOf: URL(fileURLWithPath: fixture)))
    report("parse EnergyZero quarter answer (288 slots)", measure(runs: 200) { _ = try! EnergyZeroSource.parse(body) })

    // Sixty days of quarter-hour prices ending tomorrow, as the store keeps them.
    let today = LocalDay(year: 2026, month: 10, day: 25)
    let start = calendar.start(of: today.adding(days: -60))
    let end = calendar.start(of: today.adding(days: 2))
    let count = Int(end.timeIntervalSince(start) / 900)
    let slots = (0..<count).map { (i: Int) -> SeriesSlot in
        let from = start.addingTimeInterval(Double(i) * 900)
        let price: Double = 0.05 + Double((i * 7919) % 300) / 1000
        return SeriesSlot(start: from, end: from.addingTimeInterval(900), value: price)
    }
    let now = calendar.start(of: today).addingTimeInterval(13 * 3600)
    var relative = Settings.defaults
    relative.colorMode = .relative
    relative.historyDays = 60
    for (name, settings) in [
        ("snapshot, absolute, hourly (\(count) slots held)", Settings.defaults),
        ("snapshot, relative over 60 days, hourly", relative),
    ] {
        report(
            name,
            measure(runs: 100) {
                _ = Snapshot.derive(
                    now: now, calendar: calendar, settings: settings, slots: slots, source: "energyzero", stale: false, updatedAt: nil)
            })
    }
    var native = relative
    native.resolution = .native
    report(
        "snapshot, relative over 60 days, native",
        measure(runs: 100) {
            _ = Snapshot.derive(
                now: now, calendar: calendar, settings: native, slots: slots, source: "energyzero", stale: false, updatedAt: nil)
        })

    // A custom price list of one-second slots for a whole day: the finest a source may send.
    let secondStart = calendar.start(of: today.adding(days: -2))
    let perSecond = (0..<86_400).map { (i: Int) -> String in
        "{\"start\":\(Int(secondStart.timeIntervalSince1970) + i),\"price\":\(Double(i % 500) / 1000)}"
    }
    let customBody = Array(("[" + perSecond.joined(separator: ",") + "]").utf8)
    var seconds: [SeriesSlot] = []
    report(
        "parse custom list of 86,400 one-second slots", measure(runs: 5) { seconds = try! CustomSource.parse(customBody) }, unit: "ms",
        scale: 1000)
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("energyclock-bench-\(getpid())")
    let store = try PriceStore(directory: directory)
    defer { try? FileManager.default.removeItem(at: directory) }
    report(
        "store 86,400 one-second slots (one transaction)",
        measure(runs: 5) {
            try! store.save(seconds, source: "custom/bench", fetchedAt: Date())
        }, unit: "ms", scale: 1000)
    let secondsNow = secondStart.addingTimeInterval(13 * 3600)
    for resolution in [Resolution.hour, .native] {
        var settings = Settings.defaults
        settings.resolution = resolution
        report(
            "snapshot of one-second slots, \(resolution.rawValue)",
            measure(runs: 10) {
                _ = Snapshot.derive(
                    now: secondsNow, calendar: calendar, settings: settings, slots: seconds, source: "custom", stale: false, updatedAt: nil)
            }, unit: "ms", scale: 1000)
    }

    // Twenty jobs over two days of quarter hours: one full re-plan (a fresh book), and the same
    // at the next boundary with nothing changed (the kept choices are taken over).
    let day = calendar.start(of: today)
    let (quarters, jobs) = planWorkload(from: day)
    let planned = day.addingTimeInterval(13 * 3600)
    let known = quarters.last!.slot.end
    report(
        "re-plan 20 jobs, two days of quarter hours",
        measure(runs: 200) {
            var book = PlanBook()
            _ = book.plans(jobs, slots: quarters, knownUntil: known, now: planned, calendar: calendar)
        })
    var kept = PlanBook()
    _ = kept.plans(jobs, slots: quarters, knownUntil: known, now: planned, calendar: calendar)
    report(
        "the 20 plans a boundary later, unchanged",
        measure(runs: 200) {
            _ = kept.plans(jobs, slots: quarters, knownUntil: known, now: planned.addingTimeInterval(900), calendar: calendar)
        })

    // The largest split choice a job may make (Planner.jobBudget), and the job that used to hang
    // the daemon: 16 hours in pieces over two days of 20-second slots, refused by its budget.
    let minutes = pricedSlots(from: day, count: 1999, seconds: 60)
    let largest = Job(duration: 499, contiguous: false, minBlock: 3, window: nil, repeats: .once, since: day)
    report(
        "plan a split job at the job budget",
        measure(runs: 20) {
            var book = PlanBook()
            _ = book.plans(["big": largest], slots: minutes, knownUntil: minutes.last!.slot.end, now: day, calendar: calendar)
        }, unit: "ms", scale: 1000)
    let twenty = pricedSlots(from: day, count: 8640, seconds: 20) { _ in 0.1 }
    let hog = Job(duration: 960, contiguous: false, minBlock: 0, window: nil, maxPrice: -5, repeats: .once, since: day)
    report(
        "refuse 16 h in pieces over 20 s slots",
        measure(runs: 20) {
            var book = PlanBook()
            _ = book.plans(["hog": hog], slots: twenty, knownUntil: twenty.last!.slot.end, now: day, calendar: calendar)
        })

    // The most a daemon plans in one turn: 64 profiles of 32 split jobs each over two days of
    // quarter hours, each profile given what the daemon's budget leaves, as the manager does.
    var many: [String: Job] = [:]
    for k in 0..<Job.maxCount {
        let earliest = (k * 97) % 1440 / 15 * 15
        many["job\(k)"] = Job(
            duration: 240 + (k % 8) * 60, contiguous: false, minBlock: 30,
            window: Job.Window(earliest: earliest, deadline: (earliest + 1200) % 1440))
    }
    report(
        "plan 64 profiles of 32 jobs (daemon budget)",
        measure(runs: 20) {
            var spent = 0
            for _ in 0..<64 {
                var book = PlanBook()
                let left = PlanBook.daemonBudget - spent
                let allowance = left < PlanBook.profileBudget ? PlanBook.Allowance(steps: max(0, left), daemon: true) : .profile
                _ = book.plans(many, slots: quarters, knownUntil: known, now: planned, calendar: calendar, allowance: allowance)
                spent += book.steps
            }
        }, unit: "ms", scale: 1000)

    let patches = (0..<1000).map { i in
        try! SettingsPatch.parse(
            field: "green_max", plain: Array(String(format: "%.3f", Double(i % 150) / 1000).utf8), sources: ["energyzero"])
    }
    report(
        "fold 1000 settings patches",
        measure(runs: 100) {
            _ = patches.reduce(Settings.defaults) { (try? $0.merged($1)) ?? $0 }
        })
    // The report card: a day of official quarter hours scored against a week of forecast quarter
    // hours, as when tomorrow's prices come for a profile with a forecast provider.
    let forecastStart = calendar.start(of: today)
    let weekAhead = (0..<(7 * 96)).map { i in
        let from = forecastStart.addingTimeInterval(Double(i) * 900)
        return SeriesSlot(
            start: from, end: from.addingTimeInterval(900), value: 0.06 + Double(i % 96) / 2000,
            provenance: .forecast("epex-predictor", issued: forecastStart.addingTimeInterval(-3600)))
    }
    let published = Array(slots.filter { $0.start >= calendar.start(of: today.adding(days: 1)) }.prefix(96)).stamped(
        .official("energyzero"))
    report(
        "score a day of quarter hours against a week's forecast",
        measure(runs: 200) {
            var card = ForecastAccuracy()
            card.score(
                forecast: weekAhead, official: published, settings: Settings.defaults, calendar: calendar, rates: ExchangeRates(),
                thresholds: Settings.defaults.thresholds)
        })

    // Written for the store, the settings topic and each answer of a change.
    report("settings as JSON, 100 times", measure(runs: 100) { for _ in 0..<100 { _ = Settings.defaults.json } })
}

/// `count` slots of `seconds` each from `day`, priced by `price` (by default varied prices
/// between 0.05 and 0.35), as the planner takes them.
func pricedSlots(
    from day: Date, count: Int, seconds: Double, price: (Int) -> Double = { 0.05 + Double(($0 * 7919) % 300) / 1000 }
) -> [PricedSlot] {
    (0..<count).map { i in
        let from = day.addingTimeInterval(Double(i) * seconds)
        let value = price(i)
        let slot = SeriesSlot(start: from, end: from.addingTimeInterval(seconds), value: value)
        return PricedSlot(slot: slot, components: PriceComponents(market: value, markup: 0, surcharge: 0, gridFee: 0, vat: 0), band: nil)
    }
}

/// Two days and an hour of quarter hours from `day`, and twenty jobs over them, contiguous and in
/// pieces, with windows across midnight: the planner's workload in `core` and in `plans`.
func planWorkload(from day: Date) -> (quarters: [PricedSlot], jobs: [String: Job]) {
    var jobs: [String: Job] = [:]
    for k in 0..<20 {
        let earliest = (k * 97) % 1440 / 15 * 15
        let window = Job.Window(earliest: earliest, deadline: (earliest + 600 + k * 30) % 1440)
        jobs["job\(k)"] = Job(
            duration: 60 + (k % 6) * 30, contiguous: k % 2 == 0, minBlock: k % 2 == 0 ? 0 : 30 + (k % 3) * 15, window: window)
    }
    return (pricedSlots(from: day, count: 2 * 96 + 4, seconds: 900), jobs)
}

/// Re-plans twenty jobs over two days of quarter hours `runs` times: for callgrind, which counts
/// the planner's instructions exactly (`valgrind --tool=callgrind … plans 100`).
func plansOnly(runs: Int) {
    let calendar = LocalCalendar(identifier: "Europe/Amsterdam")!
    let day = calendar.start(of: LocalDay(year: 2026, month: 10, day: 25))
    let (quarters, jobs) = planWorkload(from: day)
    let planned = day.addingTimeInterval(13 * 3600)
    for _ in 0..<runs {
        var book = PlanBook()
        _ = book.plans(jobs, slots: quarters, knownUntil: quarters.last!.slot.end, now: planned, calendar: calendar)
    }
}

/// Sends `count` settings changes one after another and times each until its result arrives.
func roundtrip(port: Int, count: Int) async throws {
    let client = try MQTTClient(options: MQTTOptions(host: "127.0.0.1", port: port, clientID: "bench-\(getpid())"))
    client.start()
    var samples: [Double] = []
    var sentAt = ContinuousClock.now
    var sent = 0
    for await event in client.events {
        switch event {
        case .connected:
            try client.subscribe("energyclock/settings/result")
            try await Task.sleep(for: .milliseconds(200))
            sentAt = ContinuousClock.now
            try client.publish("energyclock/settings/green_max/set", "0.050")
            sent = 1
        case let .message(message) where message.topic == "energyclock/settings/result":
            let elapsed = ContinuousClock.now - sentAt
            samples.append(Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000)
            guard sent < count else {
                report("settings round trip over MQTT", samples.sorted(), unit: "ms")
                await client.stop()
                return
            }
            sentAt = ContinuousClock.now
            try client.publish("energyclock/settings/green_max/set", String(format: "%.3f", 0.05 + Double(sent % 40) / 1000))
            sent += 1
        default:
            break
        }
    }
}

let arguments = CommandLine.arguments
switch arguments.dropFirst().first {
case "core" where arguments.count == 3:
    try core(fixture: arguments[2])
case "plans" where arguments.count == 3:
    plansOnly(runs: Int(arguments[2])!)
case "roundtrip" where arguments.count == 4:
    try await roundtrip(port: Int(arguments[2])!, count: Int(arguments[3])!)
case "echo" where arguments.count == 4:
    try await echo(port: Int(arguments[2])!, count: Int(arguments[3])!)
case "fsync" where arguments.count == 4 || arguments.count == 5:
    fsyncCost(directory: arguments[2], count: Int(arguments[3])!, gap: arguments.count == 5 ? Int(arguments[4])! : 0)
case "color" where arguments.count >= 6:
    try await colorRoundTrip(
        port: Int(arguments[2])!, count: Int(arguments[3])!, low: arguments[4], high: arguments[5],
        prefixes: arguments.count > 6 ? Array(arguments[6...]) : ["energyclock"])
case "spaced" where arguments.count >= 7:
    try await colorRoundTrip(
        port: Int(arguments[2])!, count: Int(arguments[3])!, low: arguments[4], high: arguments[5],
        prefixes: arguments.count > 7 ? Array(arguments[7...]) : ["energyclock"], gap: Int(arguments[6])!)
case "boundaries" where arguments.count == 4 || arguments.count == 5:
    try await boundaryLag(port: Int(arguments[2])!, count: Int(arguments[3])!, prefix: arguments.count == 5 ? arguments[4] : "energyclock")
case "fliplag" where arguments.count == 4:
    try await flipLag(port: Int(arguments[2])!, count: Int(arguments[3])!)
case "storm" where arguments.count == 4:
    try await storm(port: Int(arguments[2])!, count: Int(arguments[3])!)
case "first" where arguments.count == 3:
    try await firstPrice(port: Int(arguments[2])!)
case "allprices" where arguments.count >= 5:
    try await allPrices(port: Int(arguments[2])!, count: Int(arguments[3])!, filters: Array(arguments[4...]))
case "lastlag" where arguments.count == 5:
    try await lastProfileLag(port: Int(arguments[2])!, count: Int(arguments[3])!, profiles: Int(arguments[4])!)
case "burst" where arguments.count == 5:
    try await brokerBurst(port: Int(arguments[2])!, count: Int(arguments[3])!, size: Int(arguments[4])!)
case "profilestorm" where arguments.count == 5:
    try await profileStorm(port: Int(arguments[2])!, count: Int(arguments[3])!, profiles: Int(arguments[4])!)
default:
    print(
        """
        usage: energyclock-bench core FIXTURE.json | roundtrip PORT COUNT | echo PORT COUNT | fsync DIR COUNT [GAP_MS]
               | color PORT COUNT LOW HIGH [PREFIX…] | spaced PORT COUNT LOW HIGH GAP_MS [PREFIX…] | boundaries PORT COUNT [PREFIX] | fliplag PORT COUNT | storm PORT COUNT | first PORT
               | allprices PORT COUNT FILTER… | lastlag PORT COUNT PROFILES | profilestorm PORT COUNT PROFILES
        """)
    exit(2)
}
