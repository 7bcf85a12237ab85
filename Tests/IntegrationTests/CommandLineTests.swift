import EnergyClockPublisher
import EnergyClockRuntime
import EnergyClockTesting
import Foundation
import MQTTClient
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
        #expect(Help.commands.map(\.name) == ["run", "prices", "clock", "render", "health"])
        let specs = RunConfiguration.specs + DayConfiguration.pricesSpecs + DayConfiguration.renderSpecs + HealthConfiguration.specs
        // Each option with its whole help line, so its range and default are there too.
        for spec in specs { #expect(help.contains("--\(spec.name)") && help.contains(spec.help), "--\(spec.name)") }
        #expect(help.contains("--max-offline SECONDS") && help.contains("10-86400 (default: 120)"))
        // Each command's own help lists every option it takes.
        for command in Help.commands {
            let (status, own) = try await run([command.name, "--help"])
            #expect(status == 0)
            #expect(own.hasPrefix("Usage: energyclock \(command.name) [options]"), "\(command.name)")
            for spec in command.specs { #expect(own.contains(spec.help), "\(command.name) --\(spec.name)") }
        }
    }

    @Test func theOptionsTableHasEveryOptionWithItsVariableAndDefault() throws {
        let reference = try String(contentsOf: ReferenceTests.root.appendingPathComponent("docs/options.md"), encoding: .utf8)
        let section = reference.components(separatedBy: "# Options")[1]
        // A row may name several flags (`--svg`, `--png`) and say where they apply.
        var rows: [String: [String]] = [:]
        for line in section.split(separator: "\n") where line.hasPrefix("| `--") {
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            for flag in cells[0].split(separator: "`") where flag.hasPrefix("--") {
                #expect(rows[String(flag)] == nil, "\(flag) has one row")
                rows[String(flag)] = cells
            }
        }
        let specs = Help.commands.flatMap(\.specs)
        for spec in specs {
            guard let row = rows["--\(spec.name)"] else {
                Issue.record("--\(spec.name) has no row in docs/options.md")
                continue
            }
            #expect(row[1].contains("`\(spec.environmentName)`"), "--\(spec.name)")
            // A plain default (a number, a word, a URL) is written as the declaration says.
            if let shown = spec.shownDefault, !shown.contains(" "), shown != "off" {
                #expect(row[2].contains("`\(shown)`") || row[2].contains(shown), "--\(spec.name): \(row[2]) lacks \(shown)")
            }
        }
    }

    @Test func theDefaultsInTheHelpAreTheDefaultsInForce() throws {
        let options = try ParsedOptions(arguments: [], specs: RunConfiguration.specs, environment: ["HOME": "/tmp"])
        let config = try RunConfiguration(options, environment: ["HOME": "/tmp"])
        #expect(BrokerOptions.port.spec.help.hasSuffix("(default: 1883)") && config.mqtt.port == 1883)
        #expect(BrokerOptions.keepalive.spec.help.hasSuffix("(default: 60)") && config.mqtt.keepalive == 60)
        // Not given, each source polls from its own hour (13:00 for the European markets).
        #expect(DaemonOptions.tomorrowHour.spec.help.hasSuffix("(default: 13)") && config.policy.tomorrowHour == nil)
        #expect(DaemonOptions.pollInterval.spec.help.hasSuffix("(default: 300)") && config.policy.pollInterval == 300)
        #expect(SourceOptions.fetchTimeout.spec.help.hasSuffix("(default: 20)") && config.common.fetchTimeout == 20)
        #expect(OutputOptions.cheapestHours.spec.help.hasSuffix("(default: 1,2,3,4)") && config.cheapestHours == [1, 2, 3, 4])
        #expect(OutputOptions.clockImage.spec.help.hasSuffix("(default: on)") && config.clockImage)
        #expect(OutputOptions.topicPrefix.spec.help.hasSuffix("(default: energyclock)") && config.topics.prefix == "energyclock")
        // A value out of its declared range is refused with that range.
        let bad = try ParsedOptions(arguments: ["--mqtt-keepalive", "2"], specs: RunConfiguration.specs, environment: ["HOME": "/tmp"])
        #expect(throws: UsageError.self) { try RunConfiguration(bad, environment: ["HOME": "/tmp"]) }
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
