import EnergyClockCore
import EnergyClockFace
import FoundationEssentials
import Glibc

/// `energyclock clock` and `energyclock render`: the 24-hour clock in the terminal, or as SVG and PNG.
enum ClockCommand {
    /// Draws the clock in the terminal; returns the exit status.
    static func terminal(_ config: Configuration, environment: [String: String]) async -> Int32 {
        let snapshot: Snapshot
        switch await PricesCommand.load(config, label: "clock") {
        case let .success(loaded): snapshot = loaded
        case let .failure(status): return status.code
        }
        let colors = TerminalClock.Colors.detect(environment: environment, isTerminal: isatty(STDOUT_FILENO) == 1)
        print(TerminalClock(ClockFace(snapshot, tomorrow: config.tomorrow), colors: colors).render())
        return snapshot.today.isEmpty && snapshot.stale ? 1 : 0
    }

    /// Writes the SVG and the PNG asked for; returns the exit status.
    static func render(_ config: Configuration) async -> Int32 {
        guard config.svgPath != nil || config.pngPath != nil else {
            StandardError.write("energyclock: render needs --svg FILE or --png FILE (- for standard output)\n")
            return 2
        }
        let snapshot: Snapshot
        switch await PricesCommand.load(config, label: "render") {
        case let .success(loaded): snapshot = loaded
        case let .failure(status): return status.code
        }
        let face = ClockFace(snapshot, tomorrow: config.tomorrow)
        do {
            try await ClockRenderer.besideThisProgram.write(face, png: config.pngPath, svg: config.svgPath)
        } catch {
            StandardError.write("energyclock: \(error)\n")
            return 1
        }
        return 0
    }
}
