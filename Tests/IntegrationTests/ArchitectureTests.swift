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
    static let effects: Set<Substring> = [
        "FileManager", "FileHandle", "fopen", "ProcessInfo", "getenv", "ContinuousClock", "SuspendingClock", "URLSession", "print",
    ]

    /// Texts that do the same: `Date()`, `.now`, `Data(contentsOf:)` and `Task.sleep`, each not part
    /// of a longer name.
    static let effectTexts = ["Date()", ".now", "(contentsOf", "Task.sleep"]

    /// The effects `line` names, as whole names or texts.
    static func effects(in line: Substring) -> [String] {
        func isName(_ character: Character?) -> Bool { character.map { $0.isLetter || $0.isNumber || $0 == "_" } ?? false }
        let names = line.split { !isName($0) }.filter { effects.contains($0) }.map(String.init)
        let texts = effectTexts.filter { text in
            var rest = line[...]
            while let found = rest.range(of: text) {
                let before = found.lowerBound == line.startIndex ? nil : line[line.index(before: found.lowerBound)]
                let after = found.upperBound == line.endIndex ? nil : line[found.upperBound]
                // `.now` ends a name; `Date()` begins one; `(contentsOf` follows `Data` or `String`.
                if (text == ".now" && !isName(after)) || (text != ".now" && text != "(contentsOf" && !isName(before))
                    || (text == "(contentsOf"
                        && (line[..<found.lowerBound].hasSuffix("Data") || line[..<found.lowerBound].hasSuffix("String")))
                {
                    return true
                }
                rest = line[found.upperBound...]
            }
            return false
        }
        return names + texts
    }

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
        for file in files {
            let text = try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
            let code = text.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }
            for line in code where line.hasPrefix("import ") || line.hasPrefix("@testable import ") {
                let module = String(line.split(separator: " ").last ?? "")
                #expect(Self.domainImports.contains(module), "\(file) imports \(module)")
            }
            for line in code {
                for effect in Self.effects(in: line) {
                    Issue.record("\(file) uses \(effect): \(line.trimmingCharacters(in: .whitespaces))")
                }
            }
        }
    }
}
