import EnergyClockDomain
import EnergyClockSupport
import FoundationEssentials
import Platform

/// Draws clock faces as PNG and SVG by running the `energyclock-render` helper, so that cairo,
/// its fonts and its buffers live in a short-lived process and never in the daemon.
public struct ClockRenderer: Sendable {
    /// The helper program.
    public var helper: String

    /// How long one drawing may take and how much it may write: a helper that hangs or floods
    /// is killed, and the daemon draws again later.
    package var limits = Subprocess.Limits(seconds: 10, outputBytes: 8 << 20)

    /// Why a picture could not be drawn.
    public struct Failure: Error, CustomStringConvertible {
        /// The kind of failure, for logging each kind once: `notStarted`, `timedOut`,
        /// `outputTooLarge`, `failed` or `badOutput`.
        public let kind: String
        /// What went wrong, with the helper's own message.
        public let description: String
    }

    /// The helper next to the running program, where the build and the packages put it.
    public static var besideThisProgram: ClockRenderer {
        ClockRenderer(helper: Subprocess.besideThisProgram("energyclock-render"))
    }

    /// A renderer running `helper`.
    public init(helper: String) {
        self.helper = helper
    }

    /// The PNG and the SVG of `face`, drawn on a thread of their own and checked by
    /// ``pictures(fromHelperOutput:)`` before anything is published.
    public func draw(_ face: ClockFace) async throws(Failure) -> (png: [UInt8], svg: [UInt8]) {
        let outcome = await run([], face)
        guard outcome.ending == .exited(0) else { throw failure(outcome) }
        do {
            return try Self.pictures(fromHelperOutput: outcome.output)
        } catch {
            throw Failure(kind: error.kind, description: "\(helper) wrote \(error.description)")
        }
    }

    /// The PNG and the SVG in what the helper wrote: the PNG's length in decimal and a newline,
    /// the PNG, then the SVG. Throws a `badOutput` failure unless the length is a plain number
    /// that fits, the PNG has its signature and a header of a sensible size, and the SVG is an
    /// `<svg>` document.
    public static func pictures(fromHelperOutput output: [UInt8]) throws(Failure) -> (png: [UInt8], svg: [UInt8]) {
        guard let newline = output.prefix(16).firstIndex(of: 0x0A), newline > 0,
            output[..<newline].allSatisfy({ (0x30...0x39).contains($0) }),
            let length = Int(String(decoding: output[..<newline], as: UTF8.self)), length <= output.count - newline - 1
        else { throw Failure(kind: "badOutput", description: "no PNG length line") }
        let png = Array(output[(newline + 1)..<(newline + 1 + length)])
        let svg = Array(output[(newline + 1 + length)...])
        if let problem = problem(png: png) ?? problem(svg: svg) { throw Failure(kind: "badOutput", description: problem) }
        return (png, svg)
    }

    /// The eight bytes every PNG starts with.
    package static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// What is wrong with `png` as a picture to publish, or nil: the PNG signature, then an `IHDR`
    /// chunk of a picture 1 to 4096 pixels on each side.
    package static func problem(png: [UInt8]) -> String? {
        guard png.count > 8 + 25, png.starts(with: pngSignature) else { return "a PNG without the PNG signature" }
        func word(_ at: Int) -> Int { png[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) } }
        guard Array(png[12..<16]) == Array("IHDR".utf8), word(8) == 13 else { return "a PNG that does not start with its header" }
        guard (1...4096).contains(word(16)), (1...4096).contains(word(20)) else {
            return "a PNG of \(word(16))×\(word(20)) pixels"
        }
        return nil
    }

    /// What is wrong with `svg` as a picture to publish, or nil: it must be UTF-8 whose root is `<svg`.
    package static func problem(svg: [UInt8]) -> String? {
        guard let text = String(validating: svg, as: UTF8.self) else { return "an SVG that is not UTF-8" }
        var rest = Substring(text.trimmed)
        if rest.hasPrefix("<?xml"), let end = rest.firstRange(of: "?>") { rest = rest[end.upperBound...].drop { $0.isWhitespace } }
        guard rest.hasPrefix("<svg"), rest.hasSuffix("</svg>") else { return "an SVG whose root is not <svg>" }
        return nil
    }

    /// Writes the PNG and the SVG of `face` to the files given (`-` for standard output).
    public func write(_ face: ClockFace, png: String?, svg: String?) async throws(Failure) {
        let arguments = (png.map { ["--png", $0] } ?? []) + (svg.map { ["--svg", $0] } ?? [])
        let outcome = await run(arguments, face)
        guard outcome.ending == .exited(0) else { throw failure(outcome) }
        // With `-`, the helper's standard output is this program's.
        if !outcome.output.isEmpty { FileDescriptor.writeAll(1, outcome.output) }
    }

    /// Runs the helper on a thread of its own; a cancelled task kills it.
    private func run(_ arguments: [String], _ face: ClockFace) async -> Subprocess.Outcome {
        await Subprocess.run(helper, arguments, input: Array(face.json.utf8), limits: limits, thread: "render")
    }

    private func failure(_ outcome: Subprocess.Outcome) -> Failure {
        let detail = outcome.words
        switch outcome.ending {
        case let .notStarted(reason): return Failure(kind: "notStarted", description: reason)
        case let .timedOut(seconds):
            return Failure(kind: "timedOut", description: "\(helper) took longer than \(Quote.number(seconds)) s and was stopped\(detail)")
        case let .outputTooLarge(limit):
            return Failure(kind: "outputTooLarge", description: "\(helper) wrote more than \(limit) bytes and was stopped")
        case .cancelled: return Failure(kind: "cancelled", description: "the drawing was stopped")
        case let .exited(status): return Failure(kind: "failed", description: "\(helper) ended with status \(status)\(detail)")
        case let .signalled(signal): return Failure(kind: "failed", description: "\(helper) was ended by signal \(signal)\(detail)")
        }
    }
}
