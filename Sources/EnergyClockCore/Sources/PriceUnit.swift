/// A price unit a source may send, normalised to EUR/kWh.
enum PriceUnit {
    /// EUR/kWh.
    case perKWh
    /// EUR/MWh.
    case perMWh

    /// Reads `Eur/MWh`, `EUR / MWh`, `EUR/kWh` and the like; nil for anything else.
    init?(_ text: String) {
        switch text.lowercased().filter({ !$0.isWhitespace }) {
        case "eur/kwh", "€/kwh": self = .perKWh
        case "eur/mwh", "€/mwh": self = .perMWh
        default: return nil
        }
    }

    /// `value` in EUR/kWh.
    func perKWh(_ value: Double) -> Double { self == .perMWh ? value / 1000 : value }
}

/// A price with its start and, where the source says so, its end.
struct PricePoint {
    var start: Date
    var end: Date?
    var price: Double
}

extension Array where Element == PricePoint {
    /// Slots from points whose missing ends are the next start; the last one lasts as long as the
    /// slot before it. Points out of time order are refused, not sorted: a list that is not in
    /// order cannot be trusted to mean what it seems to.
    func slots(source: String) throws(SourceError) -> [PriceSlot] {
        let points = self
        var slots: [PriceSlot] = []
        slots.reserveCapacity(points.count)
        for (index, point) in points.enumerated() {
            let end: Date
            if let given = point.end {
                end = given
            } else if index + 1 < points.count {
                end = points[index + 1].start
            } else if let previous = slots.last {
                // The last slot lasts as long as the one before it, not as long as the gap before it.
                end = point.start.addingTimeInterval(previous.duration)
            } else {
                throw SourceError(source: source, problem: .malformed("a single price without an end has no known length"))
            }
            slots.append(PriceSlot(start: point.start, end: end, market: point.price))
        }
        do {
            return try slots.validated()
        } catch {
            throw SourceError(source: source, problem: .invalidSlots(error))
        }
    }
}

import Foundation
