import EnergyClockCore
import FoundationEssentials
import Glibc
import Platform

/// Draws clock faces as PNG and SVG by running the `energyclock-render` helper, so that cairo,
/// its fonts and its buffers live in a short-lived process and never in the daemon.
public struct ClockRenderer: Sendable {
    /// The helper program.
    public var helper: String

    /// Why a picture could not be drawn.
    public struct Failure: Error, CustomStringConvertible {
        /// What went wrong, with the helper's own message.
        public let description: String
    }

    /// The helper next to the running program, where the build and the packages put it.
    public static var besideThisProgram: ClockRenderer {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        let program = count > 0 ? String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self) : ""
        let directory = program.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        return ClockRenderer(helper: (directory.isEmpty ? "." : directory) + "/energyclock-render")
    }

    /// A renderer running `helper`.
    public init(helper: String) {
        self.helper = helper
    }

    /// The PNG and the SVG of `face`, drawn on a thread of their own.
    public func draw(_ face: ClockFace) async throws(Failure) -> (png: [UInt8], svg: [UInt8]) {
        let outcome = await run([], face)
        guard outcome.status == 0, let newline = outcome.output.firstIndex(of: 0x0A),
            let length = Int(String(decoding: outcome.output[..<newline], as: UTF8.self)),
            length >= 0, newline + 1 + length <= outcome.output.count
        else { throw failure(outcome) }
        let png = Array(outcome.output[(newline + 1)..<(newline + 1 + length)])
        let svg = Array(outcome.output[(newline + 1 + length)...])
        return (png, svg)
    }

    /// Writes the PNG and the SVG of `face` to the files given (`-` for standard output).
    public func write(_ face: ClockFace, png: String?, svg: String?) async throws(Failure) {
        let arguments = (png.map { ["--png", $0] } ?? []) + (svg.map { ["--svg", $0] } ?? [])
        let outcome = await run(arguments, face)
        guard outcome.status == 0 else { throw failure(outcome) }
        // With `-`, the helper's standard output is this program's.
        if !outcome.output.isEmpty { FileDescriptor.writeAll(1, outcome.output) }
    }

    private func run(_ arguments: [String], _ face: ClockFace) async -> Subprocess.Outcome {
        let helper = helper
        let input = Array(face.json.utf8)
        return await withCheckedContinuation { continuation in
            let started = DetachedThread.start(name: "render") {
                continuation.resume(returning: Subprocess.run(helper, arguments, input: input))
            }
            if !started { continuation.resume(returning: Subprocess.Outcome(status: -1, output: [], errors: [])) }
        }
    }

    private func failure(_ outcome: Subprocess.Outcome) -> Failure {
        let message = String(decoding: outcome.errors, as: UTF8.self).trimmed
        return Failure(description: message.isEmpty ? "\(helper) ended with status \(outcome.status)" : message)
    }
}
