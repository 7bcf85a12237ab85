import EnergyClockDomain
import EnergyClockPublisher
import EnergyClockTesting
import Foundation
import MQTTClient
import Testing

/// The topic and settings references in docs/ and the README against what the daemon really does.
@Suite(.timeLimit(.minutes(1)))
struct ReferenceTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The backticked topics in the first column of the table under `heading` in `file`.
    static func topics(in file: String, under heading: String) throws -> Set<String> {
        let text = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
        let section = text.components(separatedBy: heading)[1].components(separatedBy: "\n## ")[0]
        return Set(
            section.split(separator: "\n").compactMap { line -> String? in
                guard line.hasPrefix("| `") else { return nil }
                return line.dropFirst(3).components(separatedBy: "`")[0]
            })
    }

    /// A topic as the reference writes it: concrete window lengths become `<N>h`, job names
    /// `<name>`, and every topic of
    /// the profile `export` is `energyclock/<profile>/…`.
    static func generic(_ topic: String) -> String {
        if topic.hasPrefix("energyclock/export/") { return "energyclock/<profile>/…" }
        return topic.replacingOccurrences(of: #"cheapest/[0-9]+h"#, with: "cheapest/<N>h", options: .regularExpression)
            .replacingOccurrences(of: #"plan/[a-z0-9_-]+"#, with: "plan/<name>", options: .regularExpression)
    }

    @Test func everyPublishedTopicIsDocumentedAndEveryDocumentedOneIsPublished() async throws {
        let documented = try Self.topics(in: "docs/topics.md", under: "## Published")
        let broker = try await TestBroker.start()
        let options = PublisherOptions(cheapestHours: [2, 5], discovery: HADiscovery(sources: ["energyzero"]))
        let harness = try ServiceHarness(
            broker: broker, http: try fixtureServer(), clock: ManualClock(start: at("2025-12-17T10:20:00+01:00")),
            options: options)
        let live = try await TopicRecorder(port: broker.port, filter: "energyclock/#")
        _ = await live.wait(for: "energyclock/next") { !$0.isEmpty }
        try live.client.publish(
            "energyclock/settings/set",
            #"{"history_days":8,"forecast_provider":"epex-predictor","jobs":{"dish":{"duration":60,"earliest":"18:00","deadline":"07:00"}},"profiles":{"export":{"kind":"export"}}}"#
        )
        _ = await live.wait(for: "energyclock/settings/result")
        _ = await live.wait(for: "energyclock/plan/dish/active")
        _ = await live.wait(for: "energyclock/forecast/accuracy")
        _ = await live.wait(for: "energyclock/export/next") { !$0.isEmpty }
        // The pictures come from a helper process, after the topics the publish sends itself.
        _ = await live.wait(for: "energyclock/clock/svg")
        _ = await live.wait(for: "energyclock/clock/png")
        let published = Set(live.messages.map { Self.generic($0.topic) }).subtracting(Self.commands)
        #expect(
            published == documented,
            "published but not documented: \(published.subtracting(documented)); documented but not published: \(documented.subtracting(published))"
        )
        await live.stop()
        await harness.stop()
    }

    /// The command topics the test itself publishes to.
    static let commands: Set<String> = ["energyclock/settings/set"]

    @Test func everySubscriptionIsDocumented() throws {
        let documented = try Self.topics(in: "docs/topics.md", under: "## Subscribed")
        let code =
            TopicTree().subscriptions.map {
                $0.replacingOccurrences(of: "energyclock/+/", with: "energyclock/<profile>/").replacingOccurrences(
                    of: "/+/", with: "/<field>/")
            } + [HADiscovery(sources: []).statusTopic]
        #expect(Set(code) == documented)
    }

    @Test func theReadmeNamesOnlyTopicsOfTheReference() throws {
        let readme = try Self.topics(in: "README.md", under: "## What it publishes")
        let reference = try Self.topics(in: "docs/topics.md", under: "## Published").union(
            Self.topics(in: "docs/topics.md", under: "## Subscribed"))
        #expect(readme.count >= 8)
        #expect(readme.isSubset(of: reference), "README only: \(readme.subtracting(reference))")
    }

    /// The table of grid signals in docs/settings.md is the one the code declares, row by row.
    @Test func theGridSignalTableIsTheDeclaredOne() throws {
        let text = try String(contentsOf: Self.root.appendingPathComponent("docs/settings.md"), encoding: .utf8)
        let section = text.components(separatedBy: "## Grid signals")[1].components(separatedBy: "\n## ")[0]
        let rows = section.split(separator: "\n").filter { $0.hasPrefix("| ") && $0.first(where: \.isNumber) == $0.dropFirst(2).first }
        func cell(_ state: GridScale.State) -> String { "`\(state.code)` `\(state.name)`: \(state.band.rawValue)" }
        let declared = GridScale.meanings.indices.map { step in
            "| \(step) | \(GridScale.meanings[step]) | "
                + [GridScale.energyCharts, .stromGedacht].map { cell($0.states[step]) }.joined(separator: " | ") + " |"
        }
        #expect(rows.map(String.init) == declared)
        #expect(section.contains("| step | meaning | `energy-charts-signal` | `stromgedacht` |"))
    }

    @Test func everySettingsFieldIsDocumentedInTheSettingsReference() throws {
        let text = try String(contentsOf: Self.root.appendingPathComponent("docs/settings.md"), encoding: .utf8)
        let section = text.components(separatedBy: "## Fields")[1].components(separatedBy: "\n## ")[0]
        for field in SettingsField.allCases { #expect(section.contains("`\(field.rawValue)`"), "\(field.rawValue)") }
    }
}
