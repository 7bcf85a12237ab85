import Foundation
import Testing

/// The layers stay layers: the domain links no C module and does no I/O, and every target depends
/// only on the layers beneath it.
@Suite
struct ArchitectureTests {
    static let root = ReferenceTests.root

    /// Our Swift targets from the innermost out; a target may depend only on those before it.
    static let layers = [
        "EnergyClockDomain", "EnergyClockSupport", "EnergyClockSources", "EnergyClockStore", "EnergyClockRuntime", "EnergyClockFace",
        "EnergyClockRender", "EnergyClockPublisher", "energyclock",
    ]

    /// Modules the domain may import: the standard library's neighbours without I/O of their own.
    static let domainImports: Set<String> = ["FoundationEssentials", "Synchronization"]

    /// Names that read files, the environment, the clock or the network, or start processes.
    static let effects = [
        #"\bFileManager\b"#, #"\bFileHandle\b"#, #"\bfopen\("#, #"\bProcessInfo\b"#, #"\bgetenv\("#, #"\bDate\(\)"#, #"\.now\b"#,
        #"\bContinuousClock\b"#, #"\bSuspendingClock\b"#, #"\bURLSession\b"#, #"\b(Data|String)\(contentsOf"#, #"\bTask\.sleep\b"#,
        #"\bprint\("#,
    ]

    /// Each target's declaration in Package.swift and the names in its `dependencies` list.
    static func targets() throws -> [String: [String]] {
        let manifest = try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
        var result: [String: [String]] = [:]
        for piece in manifest.components(separatedBy: "Target(").dropFirst() + manifest.components(separatedBy: ".target(").dropFirst() {
            guard let nameStart = piece.range(of: "name: \"") else { continue }
            let name = String(piece[nameStart.upperBound...].prefix { $0 != "\"" })
            // The declaration ends where the next one begins.
            let body = piece.components(separatedBy: "\n        .").first ?? piece
            var dependencies: [String] = []
            if let list = body.range(of: "dependencies: [") {
                let inside = body[list.upperBound...].prefix { $0 != "]" }
                dependencies = inside.split(separator: "\"").enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
            }
            result[name] = dependencies
        }
        return result
    }

    @Test func theDomainDependsOnNothing() throws {
        let targets = try Self.targets()
        let domain = try #require(targets["EnergyClockDomain"])
        #expect(domain.isEmpty, "the domain target depends on \(domain)")
    }

    @Test func dependenciesPointInward() throws {
        let targets = try Self.targets()
        for (index, name) in Self.layers.enumerated() {
            let dependencies = try #require(targets[name], "\(name) is not declared")
            for dependency in dependencies where Self.layers.contains(dependency) {
                let rank = try #require(Self.layers.firstIndex(of: dependency))
                #expect(rank < index, "\(name) depends on \(dependency), an outer layer")
            }
        }
    }

    @Test func theDomainImportsNoCAndDoesNoIO() throws {
        let directory = Self.root.appendingPathComponent("Sources/EnergyClockDomain")
        let files = try #require(FileManager.default.enumerator(atPath: directory.path)).compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") }
        #expect(files.count > 50)
        let patterns = try Self.effects.map { ($0, try Regex($0)) }
        for file in files {
            let text = try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
            let code = text.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }
            for line in code where line.hasPrefix("import ") || line.hasPrefix("@testable import ") {
                let module = String(line.split(separator: " ").last ?? "")
                #expect(Self.domainImports.contains(module), "\(file) imports \(module)")
            }
            for line in code {
                for (effect, pattern) in patterns where line.contains(pattern) {
                    Issue.record("\(file) uses \(effect): \(line.trimmingCharacters(in: .whitespaces))")
                }
            }
        }
    }
}
