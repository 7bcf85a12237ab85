import EnergyClockDomain
import EnergyClockPublisher
import EnergyClockSources
import EnergyClockSupport
import EnergyClockTesting
import Foundation
import MQTTClient
import Synchronization
import Testing

/// A `co2` profile from a recorded GB Carbon Intensity answer, through the whole service to a real
/// broker: the intensity on every topic in gCO₂/kWh, banded by the co2 thresholds, marked as the
/// operator's forecast, asked for again every half hour, and planned into.
@Suite struct CarbonTopicTests {
    /// The BH1 answer recorded on 19 May 2020 at 20:00Z (48 half hours), moved to 4 December
    /// 2026 at 20:00Z: the times keep their hour, only the dates change.
    static let redated: [UInt8] = {
        let text = String(decoding: fixture("carbon/gb_regional_BH1_2020-05-19T2000Z.json"), as: UTF8.self)
        return Array(
            text.replacingOccurrences(of: "2020-05-19T", with: "2026-12-04T").replacingOccurrences(of: "2020-05-20T", with: "2026-12-05T")
                .utf8)
    }()

    @Test func aCarbonProfileShowsTheIntensityInItsBandsAndPlansIntoTheCleanestHour() async throws {
        let broker = try await TestBroker.start()
        let asked = Atomic(0)
        let http = try TestHTTPServer { request in
            guard request.contains("/regional/intensity/"), request.contains("/postcode/BH1") else {
                return .json(Array(#"{"error":{"code":"400","message":"not this"}}"#.utf8), status: 400)
            }
            // Today's request, from its midnight for three days; the others backfill the history.
            if request.contains("/regional/intensity/2026-12-05T00:00Z/2026-12-08T00:00Z/") { asked.add(1, ordering: .relaxed) }
            return .json(Self.redated)
        }
        let clock = ManualClock(start: at("2026-12-05T10:10:00Z"))
        let harness = try ServiceHarness(
            broker: broker, http: http, clock: clock,
            settings: [
                .signal: .text("co2"), .carbonSource: .text("gb-carbon-intensity"), .carbonArea: .text("BH1"),
                .co2GreenMax: .number(180), .co2YellowMax: .number(250), .co2OrangeMax: .number(290),
            ],
            options: PublisherOptions(discovery: HADiscovery(sources: SourceRegistry.ids)),
            calendar: LocalCalendar(identifier: "Europe/London")!)
        let live = try await TopicRecorder(port: broker.port, filter: "#")

        // Worked out by hand from the answer: 10:00 and 10:30 forecast 194 and 193, so the hour
        // shows 193.5, above 180 and up to 250: yellow. 11:00 is (190 + 188) / 2 = 189.
        #expect(await live.wait(for: "energyclock/price") { $0 == "193.5" } != nil, "\(harness.log.messages(atLeast: .info).suffix(8))")
        #expect(await live.wait(for: "energyclock/color") { $0 == "yellow" } != nil)
        // Each topic waited for: the parts of a publish arrive one after another.
        let current = try #require(object(await live.wait(for: "energyclock/current") { $0.contains("193.5") }))
        #expect(current["unit"] as? String == "gCO2/kWh")
        #expect(current["market_currency"] as? String == "gCO2/kWh")
        #expect(current["level"] as? String == "moderate", "the operator's index in its own words")
        #expect(current["source"] as? String == "gb-carbon-intensity")
        #expect(await live.wait(for: "energyclock/next") { object($0)?["price"] as? Double == 189 } != nil)
        // InfluxDB gets the intensity as its own measurement, stamped at 10:00Z.
        let point = try #require(await live.wait(for: "energyclock/influx") { $0.hasPrefix("grid_carbon,") })
        #expect(
            point
                == "grid_carbon,source=gb-carbon-intensity,area=BH1,unit=gCO2/kWh,band=yellow intensity=193.5,green_max=180,yellow_max=250,"
                + "orange_max=290,stale=false 1796464800000000000")
        let thresholds = try #require(object(await live.wait(for: "energyclock/thresholds") { $0.contains("gCO2/kWh") }))
        #expect(thresholds["unit"] as? String == "gCO2/kWh" && thresholds["green_max"] as? Double == 180)

        // Today's twenty hours from 00:00 to 20:00, each the mean of its two half hours, each
        // marked as the operator's forecast issued at the fetch.
        let today = try ForecastTopicTests.entries(
            try #require(await live.wait(for: "energyclock/prices/today") { (try? ForecastTopicTests.entries($0).count) == 20 }))
        #expect(today.count == 20)
        let expected: [(Double, String)] = [
            (294.5, "red"), (291, "red"), (286, "orange"), (283, "orange"), (275.5, "orange"), (276.5, "orange"), (279.5, "orange"),
            (265.5, "orange"), (226.5, "yellow"), (201, "yellow"), (193.5, "yellow"), (189, "yellow"), (179, "green"),
            (166.5, "green"), (162.5, "green"), (180, "green"), (210, "yellow"), (243, "yellow"), (261.5, "orange"), (274.5, "orange"),
        ]
        #expect(today.map { $0["price"] as? Double ?? -1 } == expected.map(\.0))
        #expect(today.map { $0["band"] as? String ?? "" } == expected.map(\.1))
        #expect(today.allSatisfy { $0["forecast"] as? Bool == true && $0["provider"] as? String == "gb-carbon-intensity" })
        #expect(today.first?["issued"] as? String == "2026-12-05T10:10:00Z")

        // Home Assistant sees an intensity, not a price; the price settings keep their currency.
        let sensor = try #require(object(await live.wait(for: "homeassistant/sensor/energyclock/price/config") { !$0.isEmpty }))
        #expect(sensor["unit_of_measurement"] as? String == "gCO2/kWh" && sensor["name"] as? String == "Carbon intensity")
        let green = try #require(object(await live.wait(for: "homeassistant/number/energyclock/co2_green_max/config") { !$0.isEmpty }))
        #expect(green["unit_of_measurement"] as? String == "gCO2/kWh" && green["max"] as? Double == 5000)
        let priceBox = await live.wait(for: "homeassistant/number/energyclock/green_max/config") { !$0.isEmpty }
        #expect(object(priceBox)?["unit_of_measurement"] as? String == "EUR/kWh")
        #expect(live.last("homeassistant/sensor/energyclock/grid_fee/config") == nil, "a carbon profile has no grid fee")

        // A job on it runs in the cleanest hour of its window: 14:00, at 162.5.
        try live.client.publish("energyclock/settings/set", #"{"jobs":{"dish":{"duration":60,"earliest":"12:00","deadline":"18:00"}}}"#)
        let plan = try #require(object(await live.wait(for: "energyclock/plan/dish") { object($0)?["status"] as? String == "planned" }))
        #expect(plan["start"] as? String == "2026-12-05T14:00:00Z")
        #expect(plan["unit"] as? String == "gCO2/kWh")

        // By the operator's own index instead: 00:00 is high (orange), 10:00 moderate (yellow),
        // and 07:00 has none, its half hours being high and moderate.
        try live.client.publish("energyclock/settings/set", #"{"color_mode":"levels"}"#)
        let rated = try ForecastTopicTests.entries(
            try #require(await live.wait(for: "energyclock/prices/today") { $0.hasPrefix("[") && !$0.contains(#""band":"red""#) }))
        #expect(rated.count == 20)
        #expect(rated[0]["band"] as? String == "orange" && rated[10]["band"] as? String == "yellow")
        #expect(rated[7]["band"] is NSNull || rated[7]["band"] == nil)
        #expect(live.last("energyclock/color") == "yellow")

        // The operator renews its forecast each half hour: the source is asked again by 10:40.
        // Not before: at 10:35 the answer of 10:10 still holds.
        let first = asked.load(ordering: .relaxed)
        #expect(first >= 1)
        #expect(await harness.settle())
        await clock.advance(to: at("2026-12-05T10:35:00Z"))
        #expect(await harness.settle())
        #expect(asked.load(ordering: .relaxed) == first)
        #expect(await harness.advance(until: { asked.load(ordering: .relaxed) > first }, limit: at("2026-12-05T10:40:00Z")))
        await live.stop()
        await harness.stop()
    }

    @Test func theCheapestTheCleanestAndTheCheapestWithCarbonAtAPriceAreThreeHoursOfOneDay() async throws {
        let broker = try await TestBroker.start()
        // Market prices of 5 December in London (UTC in winter): 0.30 EUR/kWh, but from 12:00 to
        // 18:00 0.10, 0.12, 0.15, 0.11, 0.08 and 0.20.
        let midnight = Int(at("2026-12-05T00:00:00Z").timeIntervalSince1970)
        let afternoon: [Int: Double] = [12: 0.10, 13: 0.12, 14: 0.15, 15: 0.11, 16: 0.08, 17: 0.20]
        let list =
            "[" + (0..<24).map { #"{"start":\#(midnight + $0 * 3600),"price":\#(afternoon[$0] ?? 0.30)}"# }.joined(separator: ",") + "]"
        let http = try TestHTTPServer { request in
            request.contains("/regional/intensity/") ? .json(Self.redated) : .json(Array(list.utf8))
        }
        let harness = try ServiceHarness(
            broker: broker, http: http, clock: ManualClock(start: at("2026-12-05T10:10:00Z")),
            settings: [
                .source: .text("custom"), .customURL: .text(http.baseURL.absoluteString + "/prices.json"),
                .carbonSource: .text("gb-carbon-intensity"), .carbonArea: .text("BH1"),
            ],
            allowRemoteURL: true, calendar: LocalCalendar(identifier: "Europe/London")!)
        let live = try await TopicRecorder(port: broker.port, filter: "energyclock/#")
        #expect(await live.wait(for: "energyclock/price") { $0 == "0.363" } != nil, "0.30 with 21 % VAT")
        let window = #""duration":60,"earliest":"12:00","deadline":"18:00""#
        try live.client.publish(
            "energyclock/settings/set",
            #"{"jobs":{"cheap":{\#(window)},"clean":{\#(window),"minimise":"co2"},"both":{\#(window),"minimise":"co2_price","co2_price":1000}}}"#
        )
        #expect(object(await live.wait(for: "energyclock/settings/result"))?["ok"] as? Bool == true)
        func start(_ job: String) async -> String? {
            object(await live.wait(for: "energyclock/plan/\(job)") { object($0)?["status"] as? String == "planned" })?["start"] as? String
        }
        // Worked out by hand. With VAT the six hours cost 0.121, 0.1452, 0.1815, 0.1331, 0.0968 and
        // 0.242: the cheapest is 16:00. Their intensities (the means of the answer's half hours)
        // are 179, 166.5, 162.5, 180, 210 and 243 gCO2/kWh: the cleanest is 14:00. At 1,000 EUR a
        // tonne, a gram adds 0.001 EUR: 0.300, 0.3117, 0.344, 0.3131, 0.3068 and 0.485, so 12:00.
        #expect(await start("cheap") == "2026-12-05T16:00:00Z")
        #expect(await start("clean") == "2026-12-05T14:00:00Z")
        #expect(await start("both") == "2026-12-05T12:00:00Z")
        // Each plan shows the price paid in its hour, whatever it was chosen by.
        #expect(object(live.last("energyclock/plan/clean"))?["mean_price"] as? Double == 0.1815)
        #expect(object(live.last("energyclock/plan/clean"))?["unit"] as? String == "EUR/kWh")
        // And says what it was chosen by.
        let chosenBy = ["cheap", "clean", "both"].map { object(live.last("energyclock/plan/\($0)"))?["minimise"] as? String }
        #expect(chosenBy == ["price", "co2", "co2_price"])

        // A job cannot weigh carbon on a profile that does not know it.
        try live.client.publish("energyclock/settings/set", #"{"carbon_source":""}"#)
        let refused = try #require(
            object(await live.wait(for: "energyclock/settings/result") { $0.contains("needs the profile's carbon_source") }))
        #expect(refused["ok"] as? Bool == false)
        await live.stop()
        await harness.stop()
    }

    /// The BH1 answer moved so that its 21st half hour (index 20, forecast 280, `high`) holds the
    /// real now: what the binary, on the real clock, shows.
    static func redatedAroundNow() throws -> [UInt8] {
        let half = (Date().timeIntervalSince1970 / 1800).rounded(.down) * 1800
        let shift = half - 20 * 1800 - at("2020-05-19T20:00:00Z").timeIntervalSince1970
        var root = try #require(
            try JSONSerialization.jsonObject(with: Data(fixture("carbon/gb_regional_BH1_2020-05-19T2000Z.json"))) as? [String: Any])
        var region = try #require(root["data"] as? [String: Any])
        let rows = try #require(region["data"] as? [[String: Any]])
        let format = DateFormatter()
        format.locale = Locale(identifier: "en_US_POSIX")
        format.timeZone = TimeZone(identifier: "UTC")
        format.dateFormat = "yyyy-MM-dd'T'HH:mm'Z'"
        region["data"] = try rows.map { row in
            var row = row
            for key in ["from", "to"] {
                let text = try #require(row[key] as? String)
                let instant = try #require(format.date(from: text))
                row[key] = format.string(from: instant.addingTimeInterval(shift))
            }
            return row
        }
        root["data"] = region
        return Array(try JSONSerialization.data(withJSONObject: root))
    }

    @Test func theBinaryShowsTheIntensityOfNowFromARecordedAnswer() async throws {
        let broker = try await TestBroker.start()
        // Close to the end of a half hour, the daemon could start in the next one: start after it.
        let left = 1800 - Date().timeIntervalSince1970.truncatingRemainder(dividingBy: 1800)
        if left < 20 { try await Task.sleep(for: .seconds(left + 1)) }
        let answer = try Self.redatedAroundNow()
        let http = try TestHTTPServer { request in
            request.contains("/regional/intensity/") && request.contains("/postcode/BH1") ? .json(answer) : .json([], status: 404)
        }
        let live = try await TopicRecorder(port: broker.port, filter: "energyclock/#")
        let daemon = try ChildProcess(
            ProcessTests.binary,
            [
                "run", "--mqtt-host", "127.0.0.1", "--mqtt-port", "\(broker.port)", "--state-dir", temporaryDirectory().path,
                "--timezone", "Europe/London", "--gb-carbon-intensity-url", http.baseURL.absoluteString, "--settings",
                #"{"signal":"co2","carbon_source":"gb-carbon-intensity","carbon_area":"BH1","resolution":"native"}"#,
            ], environment: daemonEnvironment())
        // Half hour 20 of the answer: 280 gCO2/kWh, above 200 and up to 300 (the default co2
        // thresholds): orange; the operator calls it high. The next is 279.
        #expect(await live.wait(for: "energyclock/price", timeout: 30) { $0 == "280" } != nil, "\(daemon.log.suffix(2000))")
        #expect(await live.wait(for: "energyclock/color") { $0 == "orange" } != nil)
        let current = try #require(object(await live.wait(for: "energyclock/current") { $0.contains("280") }))
        #expect(current["unit"] as? String == "gCO2/kWh" && current["level"] as? String == "high")
        #expect(await live.wait(for: "energyclock/next") { object($0)?["price"] as? Double == 279 } != nil)
        daemon.signal(SIGTERM)
        #expect(await daemon.waitForExit(timeout: 20) == 0, "\(daemon.log.suffix(2000))")
        await live.stop()
    }

    @Test func aFailingOrHostileCarbonSourceKeepsItsCacheMarkedStaleAndNoPriceStandsIn() async throws {
        let broker = try await TestBroker.start()
        // 0: the recorded answer; 1: HTTP 500; 2: the answer with one intensity beyond 5,000.
        let mode = Atomic(0)
        let hostile = Array(
            String(decoding: Self.redated, as: UTF8.self).replacingOccurrences(of: #""forecast": 194"#, with: #""forecast": 6000"#).utf8)
        #expect(hostile != Self.redated)
        let http = try TestHTTPServer { request in
            guard request.contains("/regional/intensity/") else { return .json(ServiceHarness.quarterFixture) }
            switch mode.load(ordering: .relaxed) {
            case 1: return .json(Array(#"{"error":{"code":"500","message":"upstream down"}}"#.utf8), status: 500)
            case 2: return .json(hostile)
            default: return .json(Self.redated)
            }
        }
        let harness = try ServiceHarness(
            broker: broker, http: http, clock: ManualClock(start: at("2026-12-05T10:10:00Z")),
            settings: [
                .signal: .text("co2"), .carbonSource: .text("gb-carbon-intensity"), .carbonArea: .text("BH1"),
                .fallbackSources: .list(["entsoe"]),
            ],
            calendar: LocalCalendar(identifier: "Europe/London")!)
        let live = try await TopicRecorder(port: broker.port, filter: "energyclock/#")
        #expect(await live.wait(for: "energyclock/price") { $0 == "193.5" } != nil)
        #expect(await live.wait(for: "energyclock/stale") { $0 == "false" } != nil)

        // Down at the next half-hourly ask: the cached intensities stay, marked stale, and the
        // price source named as a fallback never stands in for them.
        mode.store(1, ordering: .relaxed)
        #expect(await harness.advance(until: { live.last("energyclock/stale") == "true" }, limit: at("2026-12-05T11:30:00Z")))
        #expect(live.last("energyclock/price").map { ["193.5", "189"].contains($0) } == true, "\(live.last("energyclock/price") ?? "")")
        #expect(object(live.last("energyclock/current"))?["unit"] as? String == "gCO2/kWh")
        #expect(harness.log.messages(atLeast: .warning).contains { $0.contains("gb-carbon-intensity") && $0.contains("upstream down") })
        #expect(!harness.log.messages(atLeast: .info).contains { $0.contains("serving prices from fallback") })

        // An answer with an intensity beyond 5,000 gCO2/kWh is refused whole, with the reason.
        mode.store(2, ordering: .relaxed)
        let refused = { harness.log.messages(atLeast: .warning).contains { $0.contains("6000") } }
        #expect(
            await harness.advance(until: refused, limit: at("2026-12-05T12:00:00Z")), "\(harness.log.messages(atLeast: .info).suffix(12))")
        #expect(live.last("energyclock/stale") == "true")
        #expect(!(live.last("energyclock/prices/today") ?? "").contains("6000"))

        // Healed: fresh again.
        mode.store(0, ordering: .relaxed)
        #expect(await harness.advance(until: { live.last("energyclock/stale") == "false" }, limit: at("2026-12-05T13:00:00Z")))
        await live.stop()
        await harness.stop()
    }

    @Test func aCarbonSettingIsCheckedAgainstTheSourcesAndTheThresholds() async throws {
        let broker = try await TestBroker.start()
        let http = try TestHTTPServer { _ in .json(ServiceHarness.quarterFixture) }
        let harness = try ServiceHarness(broker: broker, http: http, clock: ManualClock(start: at("2025-12-17T10:20:00+01:00")))
        let live = try await TopicRecorder(port: broker.port, filter: "energyclock/#")
        _ = await live.wait(for: "energyclock/price") { !$0.isEmpty }
        let refusals = [
            (#"{"signal":"co2"}"#, "a co2 profile shows the intensity of a carbon_source"),
            (#"{"signal":"co2","carbon_source":"nope"}"#, "carbon_source must be one of gb-carbon-intensity, energinet-co2"),
            (
                #"{"carbon_source":"energinet-co2","carbon_area":"SE3"}"#,
                "energinet-co2 cannot answer for carbon_area: SE3 is not DK1 or DK2"
            ),
            (#"{"carbon_source":"gb-carbon-intensity","carbon_area":"BT1"}"#, "BT1 is in Northern Ireland"),
            (#"{"carbon_area":"RG41 1AA"}"#, "at most 16 letters and digits"),
            (#"{"co2_green_max":300}"#, "co2_green_max 300 < co2_yellow_max 200 < co2_orange_max 300 does not hold"),
            (#"{"co2_orange_max":5001}"#, "co2_orange_max must be"),
        ]
        for (update, reason) in refusals {
            try live.client.publish("energyclock/settings/set", update)
            let result = try #require(object(await live.wait(for: "energyclock/settings/result") { $0.contains(reason) }), "\(update)")
            #expect(result["ok"] as? Bool == false)
        }
        let settings = await live.wait(for: "energyclock/settings") { !$0.isEmpty }
        #expect(object(settings)?["signal"] as? String == "price", "nothing was changed")
        await live.stop()
        await harness.stop()
    }
}
