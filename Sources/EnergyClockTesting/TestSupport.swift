import EnergyClockDomain
import EnergyClockSupport
import Foundation
import Platform

/// Europe/Amsterdam, the default zone.
package let amsterdam = LocalCalendar(identifier: "Europe/Amsterdam")!

/// The instant an ISO 8601 text names; a test with a malformed time stops at once.
package func at(_ text: String) -> Date {
    guard let date = ISO8601.parse(text) else { fatalError("bad test time \(text)") }
    return date
}

/// The bytes of a recorded answer in `Fixtures/` (see PROVENANCE in the shared fixtures).
package func fixture(_ name: String) -> [UInt8] {
    guard let url = Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Fixtures"),
        let data = try? Data(contentsOf: url)
    else { fatalError("no fixture \(name)") }
    return [UInt8](data)
}

/// A fresh, empty directory under the temporary folder.
package func temporaryDirectory() -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("energyclock-test-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// Consecutive slots of `minutes` each from `start`, priced by `price(index)`.
package func slots(from start: Date, count: Int, minutes: Int, price: (Int) -> Double) -> [SeriesSlot] {
    (0..<count).map { i in
        let s = start.addingTimeInterval(Double(i * minutes * 60))
        return SeriesSlot(start: s, end: s.addingTimeInterval(Double(minutes * 60)), value: price(i))
    }
}

/// Three local days of quarter-hour prices around `day`: price = hour-of-slot index / 100.
package func quarterDays(around day: LocalDay, calendar: LocalCalendar = amsterdam, days: Int = 3) -> [SeriesSlot] {
    let start = calendar.start(of: day.adding(days: -1))
    let end = calendar.start(of: day.adding(days: days - 1))
    let count = Int(end.timeIntervalSince(start) / 900)
    return slots(from: start, count: count, minutes: 15) { Double($0 / 4 % 24) / 100 }
}

/// The path of the executable `name` that SwiftPM built beside the test bundles.
package func builtExecutable(_ name: String) -> String {
    Bundle.module.bundleURL.deletingLastPathComponent().appendingPathComponent(name).path
}

/// Writes an executable script to `path` through `install(1)`, in a process of its own.
///
/// A script written by this process can fail to run with "Text file busy" while another test's
/// spawn briefly holds an inherited copy of the writing descriptor; written by a child, it
/// never is.
package func writeExecutable(_ script: String, to path: String) throws {
    let source = temporaryDirectory().appendingPathComponent("script")
    try Data(script.utf8).write(to: source)
    let install = Subprocess.run(
        "/usr/bin/install", ["-m", "755", source.path, path], input: [], limits: Subprocess.Limits(seconds: 10, outputBytes: 4096))
    guard install.ending == .exited(0) else { throw CocoaError(.fileWriteUnknown) }
}

/// The golden file `name` in the `Golden` folder beside `file`, to compare `actual` with;
/// `ENERGYCLOCK_UPDATE_GOLDEN=1` writes `actual` there first.
package func golden(_ name: String, beside file: String = #filePath, actual: [UInt8]) throws -> [UInt8] {
    let url = URL(fileURLWithPath: file).deletingLastPathComponent().appendingPathComponent("Golden/\(name)")
    if ProcessInfo.processInfo.environment["ENERGYCLOCK_UPDATE_GOLDEN"] == "1" { try Data(actual).write(to: url) }
    return try [UInt8](Data(contentsOf: url))
}

/// Decodes a JSON object payload for assertions.
package func object(_ payload: String?) -> [String: Any]? {
    guard let payload, let data = payload.data(using: .utf8) else { return nil }
    return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
}

/// Decodes a JSON array-of-objects payload for assertions.
package func array(_ payload: String?) -> [[String: Any]]? {
    guard let payload, let data = payload.data(using: .utf8) else { return nil }
    return (try? JSONSerialization.jsonObject(with: data)) as? [[String: Any]]
}

extension Result {
    /// The error of a failed result, or nil, for comparing failures in assertions.
    package var failure: Failure? {
        if case let .failure(error) = self { return error }
        return nil
    }
}
