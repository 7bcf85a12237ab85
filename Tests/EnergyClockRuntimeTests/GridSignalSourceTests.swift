import EnergyClockDomain
import EnergyClockSources
import EnergyClockSupport
import EnergyClockTesting
import Foundation
import Testing

@testable import EnergyClockSources

/// The grid-signal sources' answers: StromGedacht's recorded ones, Energy-Charts' in its
/// documented shape, and every way one could be wrong.
@Suite struct GridSignalSourceTests {
    let issued = at("2025-09-15T21:31:56Z")
    /// Three days from the day before the 70173 recording, as the feed asks.
    let window = DateInterval(start: at("2025-09-14T22:00:00Z"), duration: 3 * 86_400)

    func stromGedacht(_ text: String) throws(SourceError) -> [SeriesSlot] {
        try StromGedachtSource.parse(Array(text.utf8), within: window, issued: issued)
    }

    func energyCharts(_ text: String) throws(SourceError) -> [SeriesSlot] {
        try EnergyChartsSignalSource.parse(Array(text.utf8), issued: issued)
    }

    /// `slots` as text, one `start–end step` each, in UTC.
    func spans(_ slots: [SeriesSlot]) -> [String] {
        slots.map { "\(ISO8601.utc($0.start).dropFirst(5).prefix(11))–\(ISO8601.utc($0.end).dropFirst(11).prefix(5)) \(Int($0.value))" }
    }

    @Test func stromGedachtsPeriodsAreTrimmedToTheWholeQuarterHoursTheyCover() throws {
        let slots = try StromGedachtSource.parse(
            fixture("signal/stromgedacht_statesRelative_70173_2025-09-16.json"), within: window, issued: issued)
        // By hand, in UTC (the answer is in CEST): green from 23:31:55.98 to midnight keeps only
        // 21:45–22:00; supergreen 00–05, green 05–10, supergreen 10–17; green from 17:00 to
        // 23:31:55.98 ends at the last whole quarter hour, 21:30.
        #expect(
            spans(slots) == [
                "09-15T21:45–22:00 1", "09-15T22:00–03:00 0", "09-16T03:00–08:00 1", "09-16T08:00–15:00 0", "09-16T15:00–21:30 1",
            ])
        #expect(slots.allSatisfy { $0.quantity == .gridSignal(.stromGedacht) })
        #expect(slots.allSatisfy { $0.provenance == .forecast("stromgedacht", issued: issued) })
        #expect(slots.map(\.levelName) == ["green", "supergreen", "green", "supergreen", "green"])
    }

    @Test func theOlderRecordingCrossesMidnightInWinterTime() throws {
        let winter = DateInterval(start: at("2023-12-20T23:00:00Z"), duration: 3 * 86_400)
        let slots = try StromGedachtSource.parse(
            fixture("signal/stromgedacht_statesRelative_72135_2023-12-21.json"), within: winter, issued: issued)
        // 09:53:32.94+01 is 08:53:32Z: green from 09:00Z to 22:00Z, supergreen 22–23Z, green from
        // 23:00Z to 08:45Z, the last whole quarter hour before 08:53:32.
        #expect(spans(slots) == ["12-21T09:00–22:00 1", "12-21T22:00–23:00 0", "12-21T23:00–08:45 1"])
        // Cut to the window asked for: one ending at 02:00Z on the 22nd keeps three hours of the
        // last period.
        let short = try StromGedachtSource.parse(
            fixture("signal/stromgedacht_statesRelative_72135_2023-12-21.json"),
            within: DateInterval(start: at("2023-12-21T20:00:00Z"), end: at("2023-12-22T02:00:00Z")), issued: issued)
        #expect(spans(short) == ["12-21T20:00–22:00 1", "12-21T22:00–23:00 0", "12-21T23:00–02:00 1"])
    }

    @Test func stromGedachtIsAskedForAPostcodeOverThreeDays() throws {
        let source = StromGedachtSource()
        #expect(source.areaProblem("70173") == nil)
        for bad in ["7017", "701730", "DE", "7017a", "", "７０１７３"] { #expect(source.areaProblem(bad) != nil, "\(bad)") }
        let url = source.url(area: "70173", from: at("2026-12-04T23:00:00Z"))
        #expect(url.path == "/v1/states")
        let query = url.query?.removingPercentEncoding ?? ""
        #expect(query == "zip=70173&from=2026-12-04T23:00:00Z&to=2026-12-07T23:00:00Z")
        #expect(source.scale == .stromGedacht && EnergyChartsSignalSource().scale == .energyCharts)
    }

    static let day = #"{"states":[{"from":"2025-09-16T00:00:00+02:00","to":"2025-09-16T01:00:00+02:00","state":"#
    static let period = String(day.dropFirst(11))
    static let century: String = #"{"states":[{"from":"2000-01-01T00:00:00Z","to":"2099-01-01T00:00:00Z","state":1},"# + period + "1}]}"
    static let tooManyPeriods: String = #"{"states":["# + Array(repeating: period + "1}", count: 1001).joined(separator: ",") + "]}"
    static let hostileStromGedacht: [(String, String)] = [
        ("", "empty response body"),
        ("[]", "not a JSON object"),
        (#"{"state":1}"#, "no states"),
        (#"{"states":{}}"#, "no states"),
        (#"{"states":[1]}"#, "states[0] is not an object"),
        (day + "5}]}", "states[0].state 5, not a state of -1, 1, 3, 4"),
        (day + "0}]}", "not a state"),
        (day + "1.5}]}", "not a state"),
        (day + #""1"}]}"#, "not a state"),
        (day + "null}]}", "not a state"),
        (day + "1e300}]}", "not a state"),
        (#"{"states":[{"from":"2025-09-16T00:00:00+02:00","to":"2025-09-16T01:00:00+02:00"}]}"#, "state is missing"),
        (#"{"states":[{"from":"2025-09-16T00:00:00","to":"2025-09-16T01:00:00+02:00","state":1}]}"#, "from is not a time"),
        (#"{"states":[{"from":"2025-09-16T01:00:00+02:00","to":"2025-09-16T00:00:00+02:00","state":1}]}"#, "ends at or before"),
        (#"{"states":[{"from":"2025-09-16T01:00:00+02:00","to":"2025-09-16T01:00:00+02:00","state":1}]}"#, "ends at or before"),
        (day + "1}," + period + "1}]}", "overlaps"),
        // A period of a century is cut to the window; a second one inside it overlaps.
        (century, "overlaps"),
        (tooManyPeriods, "1001 states, more than 1000"),
    ]

    @Test(arguments: hostileStromGedacht)
    func everyHostileStromGedachtAnswerIsRefusedWithItsReason(body: String, reason: String) {
        #expect {
            try stromGedacht(body)
        } throws: { error in
            "\(error)".contains("stromgedacht") && "\(error)".contains(reason)
        }
    }

    @Test func aCenturyLongPeriodGivesOnlyTheWindowsDays() throws {
        let slots = try stromGedacht(#"{"states":[{"from":"2000-01-01T00:00:00Z","to":"2099-01-01T00:00:00Z","state":4}]}"#)
        #expect(slots.count == 3 && slots.allSatisfy { $0.duration == 86_400 && $0.value == 3 && $0.levelName == "red" })
        #expect(slots.first?.start == window.start && slots.last?.end == window.end)
        // The retired yellow (2, bring consumption forward) is read as the supergreen that replaced it.
        #expect(try stromGedacht(Self.day + "2}]}").map(\.levelName) == ["supergreen"])
        // A period inside one quarter hour covers none whole.
        #expect(try stromGedacht(#"{"states":[{"from":"2025-09-16T00:01:00Z","to":"2025-09-16T00:14:00Z","state":1}]}"#).isEmpty)
    }

    @Test func theStromampelIsReadPerQuarterHourWithItsCongestionState() throws {
        let slots = try EnergyChartsSignalSource.parse(
            fixture("signal/energy-charts_signal_DE_2024-12-20_constructed.json"), issued: issued)
        // 96 quarter hours of 20 December (CET) from 2024-12-19T23:00Z; the last two have no signal.
        #expect(slots.count == 94)
        #expect(slots.first?.start == at("2024-12-19T23:00:00Z") && slots.last?.end == at("2024-12-20T22:30:00Z"))
        #expect(slots.allSatisfy { $0.quantity == .gridSignal(.energyCharts) && $0.duration == 900 })
        // 07:30 local is red (code 0, step 2); 11:30 congestion (code -1, step 3); 00:00 green.
        let byStart = Dictionary(uniqueKeysWithValues: slots.map { ($0.start, $0) })
        #expect(byStart[at("2024-12-20T06:30:00Z")].map { ($0.value, $0.levelName) }! == (2, "red"))
        #expect(byStart[at("2024-12-20T10:30:00Z")].map { ($0.value, $0.levelName) }! == (3, "congestion"))
        #expect(byStart[at("2024-12-19T23:00:00Z")].map { ($0.value, $0.levelName) }! == (0, "green"))
        #expect(byStart[at("2024-12-20T04:00:00Z")].map { ($0.value, $0.levelName) }! == (1, "yellow"))
    }

    @Test func anHourOfTheStromampelTakesItsWorstQuarter() throws {
        let slots = try EnergyChartsSignalSource.parse(
            fixture("signal/energy-charts_signal_DE_2024-12-20_constructed.json"), issued: issued)
        let berlin = LocalCalendar(identifier: "Europe/Berlin")!
        let hours = slots.at(.hour, in: berlin)
        // By hand, the answer's signal per local hour: 07:00 is yellow, yellow, red, yellow; 11:00
        // green, green, congestion, congestion; 23:00 green for its first half hour only.
        #expect(hours.count == 24)
        #expect(hours.map(\.value) == [0, 0, 0, 0, 0, 1, 1, 2, 2, 2, 1, 3, 0, 0, 1, 1, 2, 2, 2, 1, 1, 0, 0, 0])
        #expect(hours[7].levelName == "red" && hours[11].levelName == "congestion" && hours[23].duration == 1800)
    }

    @Test func theStromampelIsAskedForGermanyOrAPostcode() throws {
        let source = EnergyChartsSignalSource()
        #expect(source.areaProblem("DE") == nil && source.areaProblem("79110") == nil)
        for bad in ["de", "AT", "7911", ""] { #expect(source.areaProblem(bad) != nil, "\(bad)") }
        #expect(source.url(area: "DE").absoluteString == "https://api.energy-charts.info/signal?country=de")
        #expect(source.url(area: "79110").absoluteString == "https://api.energy-charts.info/signal?country=de&postal_code=79110")
    }

    static let tooManyRows: String =
        #"{"unix_seconds":["# + (0..<673).map { String(1_734_649_200 + $0 * 900) }.joined(separator: ",") + #"],"signal":["#
        + Array(repeating: "2", count: 673).joined(separator: ",") + "]}"
    static let hostileStromampel: [(String, String)] = [
        ("", "empty response body"),
        ("[]", "not a JSON object"),
        (#"{"signal":[2]}"#, "no unix_seconds"),
        (#"{"unix_seconds":[1734649200]}"#, "no signal"),
        (#"{"unix_seconds":[1734649200,1734650100],"signal":[2]}"#, "1 signals for 2 unix_seconds"),
        (#"{"unix_seconds":[1734649200.5],"signal":[2]}"#, "not a whole second"),
        (#"{"unix_seconds":["1734649200"],"signal":[2]}"#, "not a whole second"),
        (#"{"unix_seconds":[99999999999],"signal":[2]}"#, "not a whole second from 2000 to 2100"),
        (#"{"unix_seconds":[1734649200,1734651000],"signal":[2,2]}"#, "1800 s after unix_seconds[0], not 900 or 3600"),
        (#"{"unix_seconds":[1734649200,1734650100,1734651900],"signal":[2,2,2]}"#, "unix_seconds[2] is not 900 s after"),
        (#"{"unix_seconds":[1734650100,1734649200],"signal":[2,2]}"#, "not 900 or 3600"),
        (#"{"unix_seconds":[1734649200],"signal":[3]}"#, "signal[0] 3, not a state of 2, 1, 0, -1"),
        (#"{"unix_seconds":[1734649200],"signal":[-2]}"#, "not a state"),
        (#"{"unix_seconds":[1734649200],"signal":["green"]}"#, "not a state"),
        (#"{"unix_seconds":[1734649200],"signal":[1.0000001]}"#, "not a state"),
        (tooManyRows, "673 rows, more than 672"),
    ]

    @Test(arguments: hostileStromampel)
    func everyHostileStromampelAnswerIsRefusedWithItsReason(body: String, reason: String) {
        #expect {
            try energyCharts(body)
        } throws: { error in
            "\(error)".contains("energy-charts-signal") && "\(error)".contains(reason)
        }
    }

    @Test func anHourlyStromampelAndALoneRowAreRead() throws {
        let hourly = try energyCharts(#"{"unix_seconds":[1734649200,1734652800],"signal":[0,null],"share":[40,null]}"#)
        #expect(hourly.count == 1 && hourly[0].duration == 3600 && hourly[0].value == 2)
        let lone = try energyCharts(#"{"unix_seconds":[1734649200],"signal":[-1]}"#)
        #expect(lone.count == 1 && lone[0].duration == 900 && lone[0].levelName == "congestion")
        #expect(try energyCharts(#"{"unix_seconds":[],"signal":[]}"#).isEmpty)
    }

    @Test func aSourceOfTheWrongKindIsRefusedWithTheOnesThatFit() throws {
        let catalog = SourceRegistry.catalog(baseURLs: [:], tokens: SourceTokens(), http: HTTPClient())
        var settings = Settings.defaults
        settings.carbonSource = "stromgedacht"
        settings.carbonArea = "70173"
        // A price profile may name a grid signal, but none of its jobs may weigh carbon by it.
        try catalog.check(settings)
        var job = Job(duration: 60, window: nil)
        job.minimise = .co2
        settings.jobs["wash"] = job
        let weighing = "stromgedacht gives a grid signal, but its jobs that minimise co2 or co2_price weigh an intensity: "
        #expect {
            try catalog.check(settings)
        } throws: {
            "\($0)".contains(weighing + "choose gb-carbon-intensity or energinet-co2")
        }
        settings.jobs = [:]
        settings.signal = .grid
        try catalog.check(settings)
        settings.carbonSource = "energinet-co2"
        settings.carbonArea = "DK1"
        #expect {
            try catalog.check(settings)
        } throws: {
            "\($0)".contains("energinet-co2 gives an intensity, but a grid profile shows a traffic light")
        }
    }
}
