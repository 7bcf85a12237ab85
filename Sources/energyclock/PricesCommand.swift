import EnergyClockDomain
import EnergyClockPublisher
import EnergyClockRuntime
import EnergyClockSources
import EnergyClockStore
import EnergyClockSupport
import FoundationEssentials
import Glibc

/// `energyclock prices`: today's and tomorrow's slots with their band, from the cache or the source.
enum PricesCommand {
    /// Prints the prices; returns the exit status.
    static func run(_ config: DayConfiguration) async -> Int32 {
        let snapshot: Snapshot
        switch await load(config, label: "prices") {
        case let .success(loaded): snapshot = loaded
        case let .failure(status): return status.code
        }
        print(config.json ? json(snapshot) : table(snapshot, colored: isatty(STDOUT_FILENO) == 1, dated: config.date != nil))
        return snapshot.today.isEmpty && snapshot.stale ? 1 : 0
    }

    /// An exit status as an error, for a command that could not load its prices.
    struct Status: Error {
        let code: Int32
    }

    /// The snapshot a one-shot command shows: from the cache, fetched when it lacks something.
    static func load(_ config: DayConfiguration, label: String) async -> Result<Snapshot, Status> {
        let logger = config.common.logger(label)
        let snapshot: Snapshot
        do {
            let catalog = config.common.catalog
            let directory = try StateDirectory(path: config.common.stateDirectory.path)
            let manager = try config.common.makeManager(directory: directory, output: SilentOutput(), logger: logger)
            if let source = config.source, catalog[source] == nil {
                throw UsageError("--source must be one of \(catalog.ids.joined(separator: ", ")), got \"\(source)\"")
            }
            if config.date != nil || config.source != nil || config.profile != nil {
                let day = config.date ?? config.common.calendar.day(containing: Date())
                snapshot = try await manager.snapshot(of: day, source: config.source, profile: config.profile ?? Profiles.firstName)
            } else {
                snapshot = await manager.loadAndFetchIfNeeded()
            }
            await manager.close()
        } catch  where error is UsageError || error is SettingsError {
            StandardError.write("energyclock: \(error)\n")
            return .failure(Status(code: 2))
        } catch {
            logger.error("\(error)")
            return .failure(Status(code: ExitStatus.forStart(error)))
        }
        return .success(snapshot)
    }

    static func json(_ snapshot: Snapshot) -> String {
        var w = JSONWriter()
        w.beginObject()
        w.field("timezone", snapshot.timeZone.identifier)
        w.field("source", snapshot.source)
        w.field("stale", snapshot.stale)
        w.field("resolution", snapshot.settings.resolution.rawValue)
        w.field("unit", snapshot.settings.unit)
        w.key("thresholds")
        w.raw(Payloads.thresholds(snapshot))
        w.key("today")
        w.raw(Payloads.slotArray(snapshot.today, snapshot.calendar))
        w.key("tomorrow")
        w.raw(Payloads.slotArray(snapshot.tomorrow, snapshot.calendar))
        w.endObject()
        return w.output
    }

    static func table(_ snapshot: Snapshot, colored: Bool, dated: Bool) -> String {
        let calendar = snapshot.calendar
        let today = calendar.day(containing: snapshot.now)
        var lines = [
            "energyclock prices: \(snapshot.source), \(snapshot.settings.resolution.rawValue) slots, \(snapshot.timeZone.identifier), \(snapshot.settings.unit)"
                + (snapshot.settings.signal == .price ? " incl. VAT" : "") + (snapshot.stale ? " (stale: the last fetch failed)" : "")
        ]
        let titles = dated ? ["", "Next day "] : ["Today ", "Tomorrow "]
        for (title, day, slots) in [(titles[0], today, snapshot.today), (titles[1], today.adding(days: 1), snapshot.tomorrow)] {
            lines.append("")
            lines.append("\(title)\(day)")
            if slots.isEmpty { lines.append("  no \(snapshot.settings.signal.plural) known yet") }
            for slot in slots {
                // Each row is one slot from its local start (with the offset, which tells the two
                // 02:00 hours of an autumn night apart); it lasts until the next row begins.
                let start = ISO8601.local(slot.slot.start, in: calendar)
                let band = slot.band?.rawValue ?? "-"
                // A grid signal's step beside the operator's name for it: `0 supergreen`.
                let grid = slot.slot.quantity.gridScale != nil
                let price =
                    grid
                    ? "\(DecimalFormat.string(slot.price)) \(slot.slot.levelName ?? "")" : DecimalFormat.string(slot.price, decimals: 4)
                let mark = !dated && slot.slot.contains(snapshot.now) ? "  <- now" : ""
                let minutes = Int(slot.slot.duration / 60)
                let length = minutes == 60 ? "" : "  (\(minutes) min)"
                var text =
                    "  \(start.dropFirst(11).prefix(5)) \(start.suffix(6))  \(padded(price, grid ? 12 : 8))  \(padded(band, 6))\(length)\(mark)"
                while text.hasSuffix(" ") { text.removeLast() }
                lines.append(colored ? ansi(slot.band) + text + "\u{1B}[0m" : text)
            }
        }
        return lines.joined(separator: "\n")
    }

    /// `text` filled with spaces to `width` characters.
    private static func padded(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }

    private static func ansi(_ band: Band?) -> String {
        guard let color = band?.defaultColor else { return "" }
        return "\u{1B}[38;2;\(color.red);\(color.green);\(color.blue)m"
    }
}

/// Discards the manager's output; the `prices` command reads the snapshot directly.
struct SilentOutput: ManagerOutput {
    func publish(_ snapshot: Snapshot) async {}
    func removed(profile name: String) async {}
    func report(_ outcome: SettingsOutcome) async {}
}
