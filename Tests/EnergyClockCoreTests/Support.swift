import EnergyClockCore
import Foundation
import Testing

/// Europe/Amsterdam, the default zone.
let amsterdam = LocalCalendar(identifier: "Europe/Amsterdam")!

/// Parses an ISO 8601 instant or stops the test.
func at(_ text: String) -> Date {
    guard let date = ISO8601.parse(text) else { fatalError("bad test time \(text)") }
    return date
}

/// A bundled fixture's bytes.
func fixture(_ name: String) throws -> [UInt8] {
    let url = try #require(Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Fixtures"))
    return try [UInt8](Data(contentsOf: url))
}

/// Consecutive slots of `minutes` each from `start`, priced by `price(index)`.
func slots(from start: Date, count: Int, minutes: Int, price: (Int) -> Double) -> [PriceSlot] {
    (0..<count).map { i in
        let s = start.addingTimeInterval(Double(i * minutes * 60))
        return PriceSlot(start: s, end: s.addingTimeInterval(Double(minutes * 60)), market: price(i))
    }
}

