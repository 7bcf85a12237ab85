import EnergyClockDomain
import EnergyClockPublisher
import EnergyClockSources
import EnergyClockTesting
import Foundation
import MQTTClient
import Testing

@testable import energyclock

/// The source registry is the one list of sources: the command line, the add-on and the docs follow it.
@Suite struct RegistryTests {
    /// The repository's root, above this file.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test func theCommandLineTheAddOnAndTheReadmeListEverySourceOfTheRegistry() throws {
        let ids = SourceRegistry.ids
        for id in ids {
            #expect(id.utf8.count <= SourceName.capacity && SourceName(id).description == id, "\(id) fits a slot's provenance")
        }
        #expect(ids == ["energyzero", "entsoe", "awattar", "energycharts", "nordpool", "octopus", "tibber", "custom"])
        let catalog = SourceRegistry.catalog(baseURLs: [:], tokens: SourceTokens(), http: HTTPClient())
        #expect(catalog.ids == ids)

        // Every source with an API has its address option, with its default in the help.
        let names = Set(RunConfiguration.specs.map(\.name))
        for entry in SourceRegistry.entries {
            guard let option = entry.urlOption else { continue }
            #expect(names.contains(option), "\(option)")
            #expect(DayConfiguration.pricesSpecs.contains { $0.name == option }, "\(option) for prices too")
        }

        // The add-on offers exactly these sources.
        let config = try String(contentsOf: Self.root.appendingPathComponent("homeassistant/energyclock/config.yaml"), encoding: .utf8)
        let line = try #require(config.split(separator: "\n").first { $0.trimmingCharacters(in: .whitespaces).hasPrefix("source: list(") })
        let offered = line.split(separator: "(").last?.split(separator: ")").first?.split(separator: "|").map(String.init)
        #expect(offered == ids)

        // The table of sources in docs/sources.md has a row for each.
        let reference = try String(contentsOf: Self.root.appendingPathComponent("docs/sources.md"), encoding: .utf8)
        for id in ids { #expect(reference.contains("| `\(id)` |"), "\(id)") }
    }

    @Test func theCommandLineAndTheDocsListEveryCarbonSource() throws {
        let ids = CarbonRegistry.ids
        #expect(ids == ["gb-carbon-intensity", "energinet-co2", "energy-charts-signal", "stromgedacht"])
        for id in ids { #expect(SourceName(id).description == id, "\(id) fits a slot's provenance") }
        let catalog = SourceRegistry.catalog(baseURLs: [:], tokens: SourceTokens(), http: HTTPClient())
        #expect(catalog.carbonIDs == ids)
        #expect(Set(ids).isDisjoint(with: catalog.ids + catalog.forecastIDs), "a carbon source's id is its own")
        let names = Set(RunConfiguration.specs.map(\.name))
        for entry in CarbonRegistry.entries {
            let option = try #require(entry.urlOption)
            #expect(names.contains(option) && DayConfiguration.pricesSpecs.contains { $0.name == option }, "\(option)")
        }
        let reference = try String(contentsOf: Self.root.appendingPathComponent("docs/sources.md"), encoding: .utf8)
        for id in ids { #expect(reference.contains("| `\(id)` |"), "\(id)") }
    }

    /// The add-on's defaults checked as the Supervisor checks options: a `list(…)` option by the
    /// text of its YAML value (an unquoted `true` is Python's `True`), a `port` as a whole number.
    /// The `options:` or `schema:` block of the add-on's config.yaml, key by key, values as written.
    static func addOnBlock(_ name: String) throws -> [String: String] {
        let config = try String(contentsOf: root.appendingPathComponent("homeassistant/energyclock/config.yaml"), encoding: .utf8)
        let lines = config.components(separatedBy: "\n\(name):\n")[1].split(separator: "\n")
        var values: [String: String] = [:]
        for line in lines {
            guard line.hasPrefix("  ") else { break }
            guard !line.hasPrefix("    "), !line.trimmingCharacters(in: .whitespaces).hasPrefix("#") else { continue }
            let parts = line.trimmingCharacters(in: .whitespaces).split(separator: ":", maxSplits: 1)
            values[String(parts[0])] = parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces) : ""
        }
        return values
    }

    /// The options file the Supervisor writes for an add-on left at its defaults: energyclock takes
    /// it, knows every option, and starts with what it says.
    @Test func anOptionsFileOfTheDefaultsIsAccepted() throws {
        let options = try Self.addOnBlock("options")
        for key in options.keys {
            #expect(AddOnOptions.variables[key] != nil || AddOnOptions.settings.contains(key), "\(key) is read by energyclock")
        }
        // YAML scalars as the Supervisor stores them in options.json.
        let members = options.sorted { $0.key < $1.key }.map { key, raw -> String in
            let value: String
            if raw == "[]" {
                value = "[]"
            } else if raw.hasPrefix("\"") {
                value = raw
            } else if ["true", "false"].contains(raw) || Int(raw) != nil {
                value = raw
            } else {
                value = "\"\(raw)\""
            }
            return "\"\(key)\":\(value)"
        }
        let file = "{" + members.joined(separator: ",") + "}"
        let environment = try AddOnOptions.environment(fromOptions: Array(file.utf8), into: ["HOME": "/tmp"])
        let parsed = try ParsedOptions(arguments: [], specs: RunConfiguration.specs, environment: environment)
        let config = try RunConfiguration(parsed, environment: environment)
        #expect(config.discoveryMode == .on && config.common.logLevel == .info && config.mqtt.port == 1883, "\(file)")
    }

    @Test func theAddOnsDefaultsPassItsOwnSchema() throws {
        let options = try Self.addOnBlock("options")
        let schema = try Self.addOnBlock("schema")
        #expect(Set(options.keys) == Set(schema.keys))
        for (key, rule) in schema {
            let raw = try #require(options[key], "\(key) has a default")
            let quoted = raw.hasPrefix("\"") && raw.hasSuffix("\"") && raw.count >= 2
            let text = quoted ? String(raw.dropFirst().dropLast()) : raw
            // What Python's str() makes of the YAML value.
            let python =
                !quoted && ["true", "yes", "on"].contains(raw.lowercased())
                ? "True" : !quoted && ["false", "no", "off"].contains(raw.lowercased()) ? "False" : text
            if rule.hasPrefix("list(") {
                let choices = rule.dropFirst(5).prefix { $0 != ")" }.split(separator: "|").map(String.init)
                #expect(choices.contains(python), "\(key): the Supervisor reads \(raw) as \(python), not one of \(choices)")
            } else if rule == "port" {
                #expect(!quoted && (Int(text).map { (1...65535).contains($0) } ?? false), "\(key): \(raw) is not a port")
            }
        }
    }

    @Test func anAddressOptionMovesItsSourceOnly() throws {
        let options = try ParsedOptions(
            arguments: ["--energycharts-url", "http://127.0.0.1:9/ec"], specs: RunConfiguration.specs, environment: ["HOME": "/tmp"])
        let config = try RunConfiguration(options, environment: ["HOME": "/tmp"])
        #expect(config.common.sourceURLs == ["energycharts": URL(string: "http://127.0.0.1:9/ec")!])
        let charts = try #require(config.common.catalog["energycharts"] as? EnergyChartsSource)
        #expect(charts.baseURL.absoluteString == "http://127.0.0.1:9/ec")
        let zero = try #require(config.common.catalog["energyzero"] as? EnergyZeroSource)
        #expect(zero.baseURL == EnergyZeroSource.defaultBaseURL)
    }
}
