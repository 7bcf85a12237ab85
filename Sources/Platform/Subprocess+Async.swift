#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension Subprocess {
    /// Runs `path` as ``run(_:_:input:limits:cancellation:)`` does, on a thread of its own named
    /// `thread`, so that no task's thread blocks; a cancelled task kills the helper.
    package static func run(
        _ path: String, _ arguments: [String], input: [UInt8], limits: Limits, thread: String
    ) async -> Outcome {
        let cancellation = Cancellation()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let started = DetachedThread.start(name: thread) {
                    continuation.resume(returning: run(path, arguments, input: input, limits: limits, cancellation: cancellation))
                }
                if !started { continuation.resume(returning: Outcome(ending: .notStarted("no thread left"), output: [], errors: [])) }
            }
        } onCancel: {
            cancellation.cancel()
        }
    }

    /// The path of the helper called `name` in the running program's own directory, where the
    /// build, the image and the packages put every program of energyclock.
    package static func besideThisProgram(_ name: String) -> String {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        let program = count > 0 ? String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self) : ""
        let directory = program.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        return (directory.isEmpty ? "." : directory) + "/" + name
    }
}
