import EnergyClockSources
import EnergyClockTesting
import Foundation
import Testing

/// Every input the fuzzers (fuzz/run.sh) found to crash a parser or exhaust its memory: each is
/// now refused with an error.
@Suite struct FuzzFindingTests {
    @Test(arguments: [
        // The XML reader once crashed on an element name that is not UTF-8.
        ("entsoe-invalid-utf8-name.xml", "not UTF-8"),
        // A period of years in tiny steps asked for gigabytes. The fuzzer's own input is not
        // well-formed, which the XML reader now catches first; the second copy is well-formed.
        ("entsoe-huge-period.xml", "not well-formed XML"),
        ("entsoe-huge-period-well-formed.xml", "longer than any day-ahead answer"),
    ])
    func entsoeFindingsAreRefused(file: String, reason: String) throws {
        let body = fixture("fuzz-findings/\(file)")
        #expect { try EntsoeSource.parse(body) } throws: { "\($0)".hasPrefix("entsoe: ") && "\($0)".contains(reason) }
    }
}
