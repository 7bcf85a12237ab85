import EnergyClockCore
import EnergyClockTesting
import Foundation
import Testing

@testable import energyclock

/// The one-shot commands as a user types them: quiet, for any day, and all in `--help`.
@Suite(.timeLimit(.minutes(1)))
struct CommandLineTests {
    /// A price list of the user's own for 25 October 2026, the 25-hour day, in quarter-hours.
    func autumnFile() throws -> URL {
        let start = at("2026-10-24T22:00:00Z").timeIntervalSince1970
        let items = (0..<100).map { #"{"start":\#(Int(start) + $0 * 900),"price":\#(0.05 + Double($0) / 400)}"# }
        let file = temporaryDirectory().appendingPathComponent("prices.json")
        try ("[" + items.joined(separator: ",") + "]").write(to: file, atomically: true, encoding: .utf8)
        return file
    }

    func run(_ arguments: [String]) async throws -> (status: Int32?, log: String) {
        let process = try ChildProcess(ProcessTests.binary, arguments, environment: daemonEnvironment())
        return (await process.waitForExit(timeout: 30), process.log)
    }

    @Test func theHelpListsEveryCommandAndEveryOption() async throws {
        let (status, help) = try await run(["--help"])
        #expect(status == 0)
        for command in ["run", "prices", "clock", "render", "health"] {
            #expect(help.contains("energyclock \(command) [options]"), "\(command)")
        }
        let specs = Configuration.runSpecs + Configuration.pricesSpecs + Configuration.renderSpecs + Configuration.healthSpecs
        for spec in specs { #expect(help.contains("--\(spec.name)"), "--\(spec.name)") }
        #expect(help.contains("--max-offline SECONDS"))
    }

    @Test func oneShotCommandsAreQuietAndDrawAnyDay() async throws {
        let file = try autumnFile()
        let state = temporaryDirectory().path
        let common = ["--custom-url", file.absoluteString, "--state-dir", state, "--timezone", "Europe/Amsterdam"]
        // The price list becomes the source through prices --source; the store keeps the URL.
        let prices = try await run(["prices", "--date", "2026-10-25", "--source", "custom"] + common)
        #expect(prices.status == 0, "\(prices.log)")
        #expect(!prices.log.contains(" INFO "), "prices logs warnings and errors only: \(prices.log)")

        let clock = try await run(["clock", "--date", "2026-10-25", "--log-level", "error"] + common)
        #expect(clock.status == 0 || clock.status == 1, "\(clock.log)")
        #expect(!clock.log.contains(" INFO ") && !clock.log.contains("now "), "\(clock.log)")
        #expect(clock.log.contains("Sunday") && clock.log.contains("25-hour day"), "\(clock.log)")
        #expect(clock.log.split(separator: "\n").count <= 24, "fits a 24-line terminal")

        // The picture of that day: cairo writes its text as glyph outlines, so the drawing itself is
        // checked by ClockRenderTests; here the command draws it, quietly.
        let render = try await run(["render", "--date", "2026-10-25", "--svg", "-"] + common)
        #expect(render.status == 0, "\(render.log.prefix(500))")
        #expect(render.log.contains("<svg") && render.log.contains("</svg>"))
        #expect(!render.log.contains(" INFO "))

        let both = try await run(["clock", "--date", "2026-10-25", "--tomorrow"] + common)
        #expect(both.status == 2)
        #expect(both.log.contains("--date and --tomorrow cannot be used together"))
    }
}
