import EnergyClockDomain
import EnergyClockFace
import EnergyClockSupport
import FoundationEssentials
import Glibc

/// `energyclock clock` and `energyclock render`: the 24-hour clock in the terminal, or as SVG and PNG.
enum ClockCommand {
    /// The face to draw: today's with the hand at now, tomorrow's, or that of the `--date` asked
    /// for, with the hand only when that day is today.
    static func face(_ snapshot: Snapshot, _ config: DayConfiguration) -> ClockFace {
        guard let date = config.date else { return ClockFace(snapshot, tomorrow: config.tomorrow) }
        return ClockFace(snapshot, showsNow: date == config.common.calendar.day(containing: Date()))
    }

    /// Draws the clock in the terminal; returns the exit status.
    static func terminal(_ config: DayConfiguration, environment: [String: String]) async -> Int32 {
        if let problem = dateProblem(config) { return usage(problem) }
        let snapshot: Snapshot
        switch await PricesCommand.load(config, label: "clock") {
        case let .success(loaded): snapshot = loaded
        case let .failure(status): return status.code
        }
        let colors = TerminalClock.Colors.detect(environment: environment, isTerminal: isatty(STDOUT_FILENO) == 1)
        print(TerminalClock(face(snapshot, config), colors: colors).render())
        return snapshot.today.isEmpty && snapshot.stale ? 1 : 0
    }

    /// Writes the SVG and the PNG asked for; returns the exit status.
    static func render(_ config: DayConfiguration) async -> Int32 {
        guard config.svgPath != nil || config.pngPath != nil else {
            return usage("render needs --svg FILE or --png FILE (- for standard output)")
        }
        if let problem = dateProblem(config) { return usage(problem) }
        let snapshot: Snapshot
        switch await PricesCommand.load(config, label: "render") {
        case let .success(loaded): snapshot = loaded
        case let .failure(status): return status.code
        }
        do {
            try await ClockRenderer.besideThisProgram.write(face(snapshot, config), png: config.pngPath, svg: config.svgPath)
        } catch {
            StandardError.write("energyclock: \(error)\n")
            return 1
        }
        return 0
    }

    /// Why `--date` cannot be used as given, or nil.
    private static func dateProblem(_ config: DayConfiguration) -> String? {
        config.date != nil && config.tomorrow ? "--date and --tomorrow cannot be used together; give the day with --date" : nil
    }

    private static func usage(_ problem: String) -> Int32 {
        StandardError.write("energyclock: \(problem)\n")
        return 2
    }
}
