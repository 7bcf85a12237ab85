import EnergyClockDomain
import EnergyClockSources
import EnergyClockStore
import EnergyClockSupport
import EnergyClockTesting
import Foundation
import Glibc
import Platform
import Testing

/// Every parse, file read and helper run has a budget in work and time.
@Suite struct WorkBudgetTests {
    /// An element with `count` attributes inside an otherwise real ECB file.
    func ecbFile(attributes count: Int) -> [UInt8] {
        let many = (0..<count).map { " a\($0)='1'" }.joined()
        let real = String(decoding: fixture("ecb/eurofxref-daily_2025-05-09.xml"), as: UTF8.self)
        return Array(real.replacingOccurrences(of: "<Cube time='2025-05-09'>", with: "<Cube time='2025-05-09'\(many)>").utf8)
    }

    @Test func anElementWithManyAttributesIsRefusedAtOnce() throws {
        let started = ContinuousClock.now
        #expect {
            try ExchangeRates.parseECB(ecbFile(attributes: 200_000))
        } throws: { "\($0)".contains("an element with more than 64 attributes") }
        #expect(ContinuousClock.now - started < .seconds(3), "refused before libxml2 spends quadratic time on it")
        // The recorded file itself, with its few attributes, still reads.
        #expect(try ExchangeRates.parseECB(ecbFile(attributes: 10)).rates["SEK"] == 10.92)
    }

    @Test func documentsTooDeepOrTooLargeAreRefused() throws {
        let deep = Array(("<a>" + String(repeating: "<b>", count: 100) + String(repeating: "</b>", count: 100) + "</a>").utf8)
        #expect(deep.withUnsafeBytes { ParseBudget.answer.excess(of: $0) }?.contains("deeper than 64") == true)
        let wide = Array(("<a>" + String(repeating: "<b/>", count: 200_001) + "</a>").utf8)
        #expect(wide.withUnsafeBytes { ParseBudget.answer.excess(of: $0) }?.contains("200000 elements") == true)
        // `<`, `=` and `>` inside quoted values and comments do not make elements or attributes.
        let quoted = Array(#"<a x="<b c=d>" y='=='><!-- <c d=e> --></a>"#.utf8)
        #expect(quoted.withUnsafeBytes { ParseBudget(attributesPerElement: 2).excess(of: $0) } == nil)
        let entsoe = fixture("BE_60M_15M_mix.xml")
        #expect(entsoe.withUnsafeBytes { ParseBudget.answer.excess(of: $0) } == nil, "a real answer fits")
        #expect(JSONValue.parse(Array(("[" + String(repeating: "0,", count: 1_000_000) + "0]").utf8)) == nil)
    }

    @Test func aCancelledParseStops() async throws {
        // Many small elements: a parse that takes long enough to be cancelled half-way.
        let body = Array(("<Envelope>" + String(repeating: "<Cube currency='SEK' rate='11.2'/>", count: 150_000) + "</Envelope>").utf8)
        let parse = Task { () -> String in
            do {
                _ = try ExchangeRates.parseECB(body)
                return "finished"
            } catch {
                return "\(error)"
            }
        }
        parse.cancel()
        #expect(await parse.value.contains("the parse was stopped"))
    }

    @Test func onlyRegularFilesAreRead() async throws {
        let directory = temporaryDirectory()
        let fifo = directory.appendingPathComponent("prices.fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        // Refused as a FIFO, not timed out: opening it did not wait for a writer.
        let result = await RegularFile.read(fifo, limit: 1 << 20, timeout: 1)
        #expect(result == .failure(.notRegular(path: fifo, kind: "a FIFO")))
        #expect(
            await RegularFile.read("/dev/zero", limit: 1 << 20, timeout: 1)
                == .failure(.notRegular(path: "/dev/zero", kind: "a character device")))
        #expect(
            await RegularFile.read(directory.path, limit: 10, timeout: 1)
                == .failure(.notRegular(path: directory.path, kind: "a directory")))
        let big = directory.appendingPathComponent("big.json")
        try Data(repeating: 0x20, count: 2000).write(to: big)
        #expect(await RegularFile.read(big.path, limit: 1000, timeout: 1) == .failure(.tooLarge(path: big.path, limit: 1000)))

        // The custom source refuses a FIFO at once, as a transport failure of its own.
        var settings = Settings.defaults
        settings.customURL = "file://" + fifo
        await #expect {
            try await CustomSource().fetch(day: LocalDay(year: 2026, month: 1, day: 15), calendar: amsterdam, settings: settings)
        } throws: { "\($0)".contains("is a FIFO, not a regular file") }
    }

    @Test func theDaemonsOwnFilesAreNeverWrittenThroughALink() throws {
        let directory = temporaryDirectory()
        let victim = directory.appendingPathComponent("victim")
        try Data("keep".utf8).write(to: victim)
        let state = try StateDirectory(path: directory.path)
        let planted = state.file(HealthRecord.fileName) + ".tmp"
        #expect(symlink(victim.path, planted) == 0)
        try HealthRecord(connected: true, since: Date(timeIntervalSince1970: 1_764_590_000)).write(to: state)
        #expect(try String(contentsOf: victim, encoding: .utf8) == "keep", "the planted link was not followed")
        #expect(HealthRecord.read(from: state)?.connected == true)
        var info = stat()
        #expect(lstat(planted, &info) != 0, "the link is gone, the record renamed into place")
    }
}
