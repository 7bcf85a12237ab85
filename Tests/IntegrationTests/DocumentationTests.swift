import Foundation
import Testing

/// The README stays a front page, the results page stays a page, and every link between the
/// documents leads somewhere: a file that exists and, after `#`, a heading it has.
@Suite
struct DocumentationTests {
    static let root = ReferenceTests.root

    static func text(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    /// The documents a reader moves between: the README, docs/ and the guides beside them.
    static func documents() throws -> [String] {
        let docs = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("docs").path)
            .filter { $0.hasSuffix(".md") }.sorted().map { "docs/\($0)" }
        return ["README.md", "CONTRIBUTING.md"] + docs
    }

    /// Words as `wc -w` counts them: runs of characters between white space.
    static func words(_ text: String) -> Int {
        text.split(whereSeparator: { $0.isWhitespace }).count
    }

    /// The anchor a Markdown renderer gives a heading: lower case, punctuation dropped, spaces as
    /// hyphens.
    static func anchor(_ heading: String) -> String {
        String(
            heading.lowercased().compactMap { character -> Character? in
                if character == " " { return "-" }
                if character.isLetter || character.isNumber || character == "-" || character == "_" { return character }
                return nil
            })
    }

    /// The relative link targets of `text`: `[label](target)` with no scheme.
    static func links(in text: String) -> [String] {
        var targets: [String] = []
        var rest = text[...]
        while let open = rest.range(of: "](") {
            let after = rest[open.upperBound...]
            guard let close = after.firstIndex(of: ")") else { break }
            let target = String(after[..<close])
            if !target.contains("://"), !target.hasPrefix("mailto:"), !target.contains(" ") { targets.append(target) }
            rest = after[close...]
        }
        return targets
    }

    @Test func theReadmeIsAFrontPage() throws {
        let readme = try Self.text("README.md")
        #expect(Self.words(readme) <= 2_000, "\(Self.words(readme)) words")
        // The two commands, the picture and a first automation, near the top.
        #expect(readme.contains("./scripts/run.sh "))
        #expect(readme.contains("./scripts/test.sh "))
        #expect(readme.contains("](docs/clock.png)"))
        #expect(readme.contains("## A first automation"))
        #expect(FileManager.default.fileExists(atPath: Self.root.appendingPathComponent("docs/clock.png").path))
    }

    @Test func theResultsPageStaysAPage() throws {
        let page = try Self.text("docs/performance.md")
        #expect(Self.words(page) <= 3_000, "\(Self.words(page)) words")
    }

    @Test func everyLinkBetweenTheDocumentsLeadsSomewhere() throws {
        var checked = 0
        for document in try Self.documents() {
            let base = URL(fileURLWithPath: document).deletingLastPathComponent().relativePath
            for link in Self.links(in: try Self.text(document)) {
                let parts = link.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
                let file = parts[0].isEmpty ? document : (base == "." ? parts[0] : "\(base)/\(parts[0])")
                let path = Self.root.appendingPathComponent(file).standardized.path
                #expect(FileManager.default.fileExists(atPath: path), "\(document): \(link)")
                if parts.count == 2, file.hasSuffix(".md"), let target = try? String(contentsOfFile: path, encoding: .utf8) {
                    let anchors = target.split(separator: "\n").filter { $0.hasPrefix("#") }.map {
                        Self.anchor($0.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces))
                    }
                    #expect(anchors.contains(parts[1]), "\(document): \(link)")
                }
                checked += 1
            }
        }
        #expect(checked > 40)
    }

    @Test func theAnchorIsTheOneARendererMakes() {
        #expect(Self.anchor("The LED ring (`wled-ring`)") == "the-led-ring-wled-ring")
        #expect(Self.anchor("What you pay") == "what-you-pay")
        #expect(Self.links(in: "see [a](b.md#c) and [d](https://e/f)") == ["b.md#c"])
    }
}
