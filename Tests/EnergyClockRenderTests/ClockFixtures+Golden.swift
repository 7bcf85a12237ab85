import EnergyClockTesting
import Foundation
import Testing

extension ClockFixtures {
    /// The golden file `name`, compared with `actual`; `ENERGYCLOCK_UPDATE_GOLDEN=1` writes it instead.
    static func expectGolden(_ actual: [UInt8], _ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(try actual == golden(name, actual: actual), "\(name) differs from its golden file", sourceLocation: sourceLocation)
    }
}
