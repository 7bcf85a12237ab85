import EnergyClockDomain
import EnergyClockTesting
import Foundation
import Testing

@testable import EnergyClockPublisher

/// The plans' topics, entities and the forecasts for evcc and EMHASS, against payloads written out by hand.
@Suite struct PlanPayloadTests {
    static var plain: Settings {
        var settings = Settings.defaults
        settings.vatPercent = 0
        return settings
    }

    /// A snapshot at `now` of slots from `start`, `minutes` each, priced `price(i)`.
    static func snapshot(
        _ now: String, from start: String, count: Int, minutes: Int = 60, settings: Settings = plain, profile: String = Profiles.firstName,
        price: (Int) -> Double
    ) -> Snapshot {
        var snapshot = Snapshot.derive(
            now: at(now), calendar: amsterdam, settings: settings,
            slots: slots(from: at(start), count: count, minutes: minutes, price: price),
            source: "energyzero", stale: false, updatedAt: at(now))
        snapshot.profile = profile
        return snapshot
    }

    @Test func evccReadsThePricesFromTheCurrentSlotOn() {
        let s = Self.snapshot("2026-01-14T22:30:00+01:00", from: "2026-01-14T00:00:00+01:00", count: 24) { Double($0) / 100 }
        #expect(
            Forecast(s).evcc
                == #"[{"start":"2026-01-14T22:00:00+01:00","end":"2026-01-14T23:00:00+01:00","value":0.22},{"start":"2026-01-14T23:00:00+01:00","end":"2026-01-15T00:00:00+01:00","value":0.23}]"#
        )
    }

    @Test func emhassGetsOneValuePerStepFromTheStepHoldingNow() {
        let hourly = Self.snapshot("2026-01-14T22:40:00+01:00", from: "2026-01-14T00:00:00+01:00", count: 24) { Double($0) / 100 }
        #expect(
            Forecast.EMHASS(forecast: Forecast(hourly)).json
                == #"{"load_cost_forecast":[0.22,0.23,0.23],"prediction_horizon":3,"usable":false,"reason":"EMHASS needs at least 5 steps of prices; 3 are known"}"#
        )
        var hourSteps = Self.plain
        hourSteps.forecastStep = 60
        let coarse = Self.snapshot("2026-01-14T22:40:00+01:00", from: "2026-01-14T00:00:00+01:00", count: 24, settings: hourSteps) {
            Double($0) / 100
        }
        #expect(
            Forecast.EMHASS(forecast: Forecast(coarse)).json
                == #"{"load_cost_forecast":[0.22,0.23],"prediction_horizon":2,"usable":false,"reason":"EMHASS needs at least 5 steps of prices; 2 are known"}"#
        )
        // Quarter hours are averaged over each step; a step the prices do not cover whole is left out.
        var native = Self.plain
        native.resolution = .native
        let quarters = Self.snapshot(
            "2026-01-14T23:05:00+01:00", from: "2026-01-14T23:00:00+01:00", count: 7, minutes: 15, settings: native
        ) {
            [0.10, 0.20, 0.30, 0.40, 0.5, 0.5, 0.9][$0]
        }
        #expect(
            Forecast.EMHASS(forecast: Forecast(quarters)).json
                == #"{"load_cost_forecast":[0.15,0.35,0.5],"prediction_horizon":3,"usable":false,"reason":"EMHASS needs at least 5 steps of prices; 3 are known"}"#
        )
        // In the second quarter of a half hour the step began in the slot before the current one:
        // the series still starts at the step holding now, never empty.
        let late = Self.snapshot(
            "2026-01-14T23:20:00+01:00", from: "2026-01-14T23:00:00+01:00", count: 7, minutes: 15, settings: native
        ) {
            [0.10, 0.20, 0.30, 0.40, 0.5, 0.5, 0.9][$0]
        }
        #expect(Forecast.EMHASS(forecast: Forecast(late)).json == Forecast.EMHASS(forecast: Forecast(quarters)).json)
        #expect(
            Forecast.EMHASS(forecast: Forecast(late)).timedJSON
                == #"{"load_cost_forecast":{"2026-01-14T23:00:00+01:00":0.15,"2026-01-14T23:30:00+01:00":0.35,"2026-01-15T00:00:00+01:00":0.5},"prediction_horizon":2,"usable":false,"reason":"EMHASS needs at least 5 steps of prices; 2 are known after the current one"}"#
        )
        // evcc's from the current slot on.
        #expect(Forecast(late).evcc.hasPrefix(#"[{"start":"2026-01-14T23:15:00+01:00""#))
        // An export profile's payload is the whole call: the first profile's cost and its own price.
        var export = Self.plain
        export.kind = .export
        let sold = Self.snapshot(
            "2026-01-14T22:40:00+01:00", from: "2026-01-14T00:00:00+01:00", count: 24, settings: export, profile: "export"
        ) {
            Double($0) / 1000
        }
        #expect(
            Forecast.EMHASS(forecast: Forecast(sold), importCosts: Forecast(hourly, step: 30).stepped).json
                == #"{"load_cost_forecast":[0.22,0.23,0.23],"prod_price_forecast":[0.022,0.023,0.023],"prediction_horizon":3,"usable":false,"reason":"EMHASS needs at least 5 steps of prices; 3 are known"}"#
        )
        // A long enough day is usable, with no reason.
        let day = Self.snapshot("2026-01-14T10:40:00+01:00", from: "2026-01-14T00:00:00+01:00", count: 24) { Double($0) / 100 }
        #expect(Forecast.EMHASS(forecast: Forecast(day)).json.hasSuffix(#""prediction_horizon":27,"usable":true}"#))
        // Keyed by time, the horizon leaves out one step, so that EMHASS, starting from the next
        // step when it rounds now up, never holds the last price over a step it lacks.
        #expect(Forecast.EMHASS(forecast: Forecast(day)).timedJSON.hasSuffix(#""prediction_horizon":26,"usable":true}"#))
    }

    @Test func aJobsTopicsAndEntitiesComeAndGoWithIt() throws {
        let options = PublisherOptions(discovery: HADiscovery(sources: ["energyzero"]), clockImage: false)
        let now = at("2026-01-14T12:00:00+01:00")
        var publisher = PublisherState(topics: TopicTree(), options: options, now: now)
        var settings = Self.plain
        settings.jobs["dish"] = Job(duration: 60, window: Job.Window(earliest: 18 * 60, deadline: 22 * 60))
        var snapshot = Self.snapshot("2026-01-14T12:00:00+01:00", from: "2026-01-14T00:00:00+01:00", count: 24, settings: settings) {
            $0 == 20 ? 0.01 : 0.2
        }
        var book = PlanBook()
        snapshot.plans = book.plans(
            settings.jobs, slots: snapshot.today, knownUntil: snapshot.today.last?.slot.end, now: now, calendar: amsterdam)
        func sent(_ actions: [PublisherState.Action]) -> [String: String] {
            Dictionary(actions.compactMap { if case let .send(m) = $0 { (m.topic, m.payload) } else { nil } }) { $1 }
        }
        let first = sent(publisher.handle(.connected([snapshot], previouslyRetained: [], broker: nil), at: now))
        #expect(first["energyclock/plan/dish/active"] == "OFF")
        let plan = object(first["energyclock/plan/dish"])
        #expect(plan?["status"] as? String == "planned")
        #expect(plan?["start"] as? String == "2026-01-14T20:00:00+01:00")
        #expect(plan?["next_start"] as? String == "2026-01-14T20:00:00+01:00")
        #expect(plan?["mean_price"] as? Double == 0.01)
        #expect(plan?["saving_vs_now"] as? Double == 0.19)
        for entity in [
            "binary_sensor/energyclock/job-dish-running", "sensor/energyclock/job-dish-next_start",
            "sensor/energyclock/job-dish-mean_price", "number/energyclock/job-dish-duration", "text/energyclock/job-dish-deadline",
        ] {
            #expect(first["homeassistant/\(entity)/config"]?.isEmpty == false, "\(entity)")
        }
        #expect(
            object(first["homeassistant/number/energyclock/job-dish-duration/config"])?["command_template"] as? String
                == #"{"jobs":{"dish":{"duration":{{ value | int }}}}}"#)
        // Unique by construction, and a deadline text whose state always fits its pattern.
        #expect(
            object(first["homeassistant/number/energyclock/job-dish-duration/config"])?["unique_id"] as? String
                == "energyclock/default/plan/dish/duration")
        let deadline = try #require(object(first["homeassistant/text/energyclock/job-dish-deadline/config"]))
        let pattern = try Regex(try #require(deadline["pattern"] as? String))
        #expect("".wholeMatch(of: pattern) != nil && "23:59".wholeMatch(of: pattern) != nil && "24:00".wholeMatch(of: pattern) == nil)

        // At 20:00 the switch flips, with the price, before the rest.
        var boundary = snapshot
        boundary.now = at("2026-01-14T20:00:00+01:00")
        boundary.plans = book.plans(
            settings.jobs, slots: snapshot.today, knownUntil: snapshot.today.last?.slot.end, now: boundary.now, calendar: amsterdam)
        let flip = publisher.handle(.prices([boundary]), at: boundary.now).compactMap { if case let .send(m) = $0 { m } else { nil } }
        #expect(flip.map(\.topic) == ["energyclock/plan/dish/active"])
        #expect(flip.first?.payload == "ON")

        // Deleted: its topics and its entities are cleared, and the ledger is written again.
        var without = boundary
        without.settings.jobs = [:]
        without.plans = book.plans([:], slots: snapshot.today, knownUntil: nil, now: boundary.now, calendar: amsterdam)
        let gone = publisher.handle(.snapshots([without]), at: boundary.now)
        let cleared = sent(gone)
        #expect(cleared["energyclock/plan/dish"] == "")
        #expect(cleared["energyclock/plan/dish/active"] == "")
        #expect(cleared["homeassistant/text/energyclock/job-dish-deadline/config"] == "")
        #expect(cleared["homeassistant/binary_sensor/energyclock/job-dish-running/config"] == "")
        let ledger = gone.compactMap { if case let .ledger(topics) = $0 { topics } else { nil } }.last
        #expect(ledger?.contains("energyclock/plan/dish") == false)
        #expect(ledger?.contains("energyclock/price") == true)

        // Added again: nothing is cleared, and the ledger, written again, holds its topics. An
        // unchanged snapshot after it writes no ledger.
        let back = publisher.handle(.snapshots([boundary]), at: boundary.now)
        #expect(sent(back)["energyclock/plan/dish/active"] == "ON")
        #expect(!sent(back).contains { $0.key.hasPrefix("energyclock/") && $0.value.isEmpty })
        let grown = back.compactMap { if case let .ledger(topics) = $0 { topics } else { nil } }.last
        #expect(grown?.contains("energyclock/plan/dish") == true)
        #expect(grown?.contains("energyclock/plan/dish/active") == true)
        let again = publisher.handle(.snapshots([boundary]), at: boundary.now)
        #expect(!again.contains { if case .ledger = $0 { true } else { false } })
    }

    @Test func tomorrowIsAnnouncedOnceWhenItArrivesNotWhenItIsFoundAtStart() {
        var publisher = PublisherState(
            topics: TopicTree(), options: PublisherOptions(cheapestHours: [2], clockImage: false), now: at("2026-01-14T12:00:00+01:00"))
        func events(_ snapshot: Snapshot) -> [String] {
            publisher.handle(.snapshots([snapshot]), at: snapshot.now).compactMap {
                if case let .send(m) = $0, m.topic == "energyclock/events" { m.payload } else { nil }
            }
        }
        let today = Self.snapshot("2026-01-14T12:00:00+01:00", from: "2026-01-14T00:00:00+01:00", count: 24) { _ in 0.1 }
        let both = Self.snapshot("2026-01-14T13:00:00+01:00", from: "2026-01-14T00:00:00+01:00", count: 48) { $0 == 30 ? 0.02 : 0.1 }
        _ = publisher.handle(.connected([today], previouslyRetained: [], broker: nil), at: today.now)
        #expect(events(today).isEmpty, "what a start finds is no news")
        let arrived = events(both)
        #expect(arrived.count == 1)
        let event = object(arrived.first)
        #expect(event?["event"] as? String == "tomorrow_known")
        #expect(event?["day"] as? String == "2026-01-15")
        #expect((event?["stats"] as? [String: Any])?["min"] as? Double == 0.02)
        #expect(((event?["windows"] as? [String: Any])?["2h"] as? [String: Any])?["start"] as? String == "2026-01-15T05:00:00+01:00")
        #expect(events(both).isEmpty)
        // Gone for a while (a missing rate) and back: the same day is not announced again.
        #expect(events(today).isEmpty)
        #expect(events(both).isEmpty)
    }

    @Test func anExportProfilesEMHASSCallFollowsTheFirstProfilesPrices() {
        let now = at("2026-01-14T22:40:00+01:00")
        var publisher = PublisherState(topics: TopicTree(), options: PublisherOptions(clockImage: false), now: now)
        var export = Self.plain
        export.kind = .export
        let first = Self.snapshot("2026-01-14T22:40:00+01:00", from: "2026-01-14T00:00:00+01:00", count: 24) { Double($0) / 100 }
        let sold = Self.snapshot(
            "2026-01-14T22:40:00+01:00", from: "2026-01-14T00:00:00+01:00", count: 24, settings: export, profile: "export"
        ) {
            Double($0) / 1000
        }
        _ = publisher.handle(.connected([first, sold], previouslyRetained: [], broker: nil), at: now)
        // The first profile alone changes: the export profile's call is sent again, nothing else of it.
        let dearer = Self.snapshot("2026-01-14T22:40:00+01:00", from: "2026-01-14T00:00:00+01:00", count: 24) { Double($0) / 50 }
        let sent = publisher.handle(.snapshots([dearer]), at: now).compactMap { if case let .send(m) = $0 { m } else { nil } }
        let exports = sent.filter { $0.topic.hasPrefix("energyclock/export/") }
        #expect(exports.map(\.topic) == ["energyclock/export/forecast/emhass", "energyclock/export/forecast/emhass/timed"])
        #expect(
            exports.first?.payload
                == #"{"load_cost_forecast":[0.44,0.46,0.46],"prod_price_forecast":[0.022,0.023,0.023],"prediction_horizon":3,"usable":false,"reason":"EMHASS needs at least 5 steps of prices; 3 are known"}"#
        )
    }
}
