import EnergyClockDomain
import EnergyClockFace
import EnergyClockPublisher
import EnergyClockSources
import EnergyClockStore
import Foundation

/// The parsers under test, by the name given in `ENERGYCLOCK_FUZZ_TARGET`.
///
/// Each must return or throw its own typed error for any input; a crash, a sanitizer report or
/// a time-out is a finding.
enum FuzzTarget: String, CaseIterable {
    case settings, profiles, plans, plannote, energyzero, entsoe, awattar, energycharts, custom, nordpool, octopus, tibber, ecb, options,
        supervisor, health, helper, fetch, redaction, nordpoolpredict, energyforecast, epexpredictor, energypriceforecast, gbcarbon,
        energinetco2, stromgedacht, stromampel

    static let sources = ["energyzero", "entsoe", "awattar", "energycharts", "custom"]
    static let calendar = LocalCalendar(identifier: "Europe/Amsterdam")!
    /// Real sources that are never asked: only their checks of settings run.
    static let catalog = SourceRegistry.catalog(baseURLs: [:], tokens: SourceTokens(), http: HTTPClient(timeout: 1))

    func run(_ bytes: [UInt8]) {
        switch self {
        case .settings:
            _ = try? SettingsPatch.parse(object: bytes, sources: Self.sources)
            // The first line names a field; the rest is its plain value.
            let split = bytes.firstIndex(of: 0x0A) ?? bytes.endIndex
            let name = String(decoding: bytes[..<split], as: UTF8.self)
            _ = try? SettingsPatch.parse(field: name, plain: Array(bytes[min(split + 1, bytes.endIndex)...]), sources: Self.sources)
            _ = Settings.restore(json: String(decoding: bytes, as: UTF8.self), sources: Self.sources)
        case .profiles:
            // The first profile's form and another's, each folded onto the profiles so far.
            var profiles = Profiles(first: .defaults)
            for name in [Profiles.firstName, "export"] {
                guard let update = try? SettingsUpdate.parse(object: bytes, sources: Self.sources, profile: name) else { continue }
                if let next = try? profiles.merged(update, reserved: ["prices", "settings"], catalog: Self.catalog) { profiles = next }
            }
        case .plans:
            // Jobs from the input planned over two days of quarter hours priced from the input too,
            // at midnight, at 13:00 and at the last quarter, with the first two days' memory kept.
            // The profile pairs a carbon source, so that jobs may weigh an intensity from the
            // input too, over half hours that leave the second day partly unknown.
            var paired = Settings.defaults
            paired.carbonSource = "gb-carbon-intensity"
            guard let patch = try? SettingsPatch.parse(object: bytes, sources: Self.sources),
                let settings = try? paired.merged(patch), !settings.jobs.isEmpty
            else { return }
            let start = Self.calendar.start(of: LocalDay(year: 2026, month: 3, day: 29))
            let slots = (0..<(23 * 4 + 96)).map { i in
                let begin = start.addingTimeInterval(Double(i) * 900)
                let price = Double(Int(bytes[i % bytes.count]) - 100) / 1000
                return PricedSlot(
                    slot: SeriesSlot(start: begin, end: begin.addingTimeInterval(900), value: price),
                    components: PriceComponents(market: price, markup: 0, surcharge: 0, gridFee: 0, vat: 0), band: nil)
            }
            let intensity = (0..<70).map { i in
                let begin = start.addingTimeInterval(Double(i) * 1800)
                return SeriesSlot(
                    start: begin, end: begin.addingTimeInterval(1800), value: Double(bytes[(i * 7) % bytes.count]) * 4,
                    quantity: .carbonIntensity)
            }
            var book = PlanBook()
            for offset: TimeInterval in [0, 13 * 3600, 47 * 3600 - 900] {
                _ = book.plans(
                    settings.jobs, slots: slots, knownUntil: slots.last?.slot.end, now: start.addingTimeInterval(offset),
                    calendar: Self.calendar, intensity: intensity)
            }
        case .plannote:
            // The store's note of started blocks, read back at start: one item per line.
            let lines = Set(String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init))
            let job = Job(duration: 60, window: Job.Window(earliest: 480, deadline: 1080))
            _ = PlanBook(restoring: lines, jobs: ["wash": job, "car": Job(duration: 120, window: nil, repeats: .once)]).startedLines
        case .energyzero: _ = try? EnergyZeroSource.parse(bytes)
        case .entsoe: _ = try? EntsoeSource.parse(bytes)
        case .awattar: _ = try? AwattarSource.parse(bytes)
        case .energycharts: _ = try? EnergyChartsSource.parse(bytes)
        case .custom: _ = try? CustomSource.parse(bytes)
        case .nordpool: _ = try? NordPoolSource.parse(bytes, area: "SE3")
        case .octopus: _ = try? OctopusSource.parse(bytes)
        case .tibber:
            _ = try? TibberSource.parse(bytes)
            _ = try? TibberSource.parse(bytes, status: 400)
        case .ecb: _ = try? ExchangeRates.parseECB(bytes)
        case .options: _ = try? AddOnOptions.environment(fromOptions: bytes, into: ["TZ": "Europe/Amsterdam"])
        case .supervisor: _ = try? AddOnOptions.broker(fromSupervisorAnswer: bytes, status: 200, into: ["SUPERVISOR_TOKEN": "t"])
        case .health: _ = HealthRecord.parse(bytes)
        case .helper: _ = try? ClockRenderer.pictures(fromHelperOutput: bytes)
        case .fetch: _ = try? HTTPClient.response(fromHelperOutput: bytes, maxBodyBytes: 4096, seconds: 1)
        case .redaction: Self.redaction(bytes)
        case .nordpoolpredict: _ = try? NordPoolPredictProvider.parse(bytes, issued: Date())
        case .energyforecast: _ = try? EnergyForecastProvider.parse(bytes, issued: Date())
        case .epexpredictor: _ = try? EpexPredictorProvider.parse(bytes, issued: Date())
        case .energypriceforecast:
            _ = try? EnergyPriceForecastProvider.parse(bytes, issued: Date())
            _ = try? EnergyPriceForecastProvider.parse(bytes, issued: Date(), keyGiven: true)
        case .gbcarbon:
            _ = try? GBCarbonIntensitySource.parse(bytes, issued: Date())
            _ = GBCarbonIntensitySource().areaProblem(String(decoding: bytes.prefix(64), as: UTF8.self))
        case .energinetco2: _ = try? EnerginetCO2Source.parse(bytes, area: "DK1", issued: Date())
        case .stromgedacht:
            // Three days around each recording, as the feed asks, so that their periods give slots.
            for start in [1_703_113_200.0, 1_757_887_200] {
                let window = DateInterval(start: Date(timeIntervalSince1970: start), duration: 3 * 86_400)
                _ = try? StromGedachtSource.parse(bytes, within: window, issued: Date())
            }
            _ = StromGedachtSource().areaProblem(String(decoding: bytes.prefix(64), as: UTF8.self))
        case .stromampel:
            _ = try? EnergyChartsSignalSource.parse(bytes, issued: Date())
            _ = EnergyChartsSignalSource().areaProblem(String(decoding: bytes.prefix(64), as: UTF8.self))
        }
    }

    /// The first line is a secret, the rest a server's answer that may quote it in any encoding.
    /// Whatever the redaction makes of the answer, the secret as given is not in it: a finding
    /// otherwise. (A secret with `[` or `]` is left out of that check: next to the mask it could
    /// be spelt by the mask's own brackets.)
    static func redaction(_ bytes: [UInt8]) {
        let split = bytes.firstIndex(of: 0x0A) ?? bytes.endIndex
        let secret = String(decoding: bytes[..<split], as: UTF8.self)
        let text = String(decoding: bytes[min(split + 1, bytes.endIndex)...], as: UTF8.self)
        let redacted = SourceError(source: "fuzz", problem: .malformed(text)).redacting(secret)
        guard case let .malformed(kept) = redacted.problem else { fatalError("the redaction changed the kind of problem") }
        let pattern = Array(secret.utf8)
        guard pattern.count >= 4, !pattern.contains(UInt8(ascii: "[")), !pattern.contains(UInt8(ascii: "]")) else { return }
        if Array(kept.utf8).firstRange(of: pattern) != nil {
            fatalError("the secret \(secret.debugDescription) survived in \(kept.debugDescription)")
        }
    }

    static let chosen: FuzzTarget = {
        let name = ProcessInfo.processInfo.environment["ENERGYCLOCK_FUZZ_TARGET"] ?? ""
        guard let target = FuzzTarget(rawValue: name) else {
            fatalError("set ENERGYCLOCK_FUZZ_TARGET to one of \(allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return target
    }()
}
