import Foundation

/// The slot length that prices are shown and banded at.
public enum Resolution: String, Sendable, CaseIterable, Codable {
    /// One slot per local hour: the time-weighted mean of the source's slots in that hour.
    case hour
    /// The source's own slots, whatever their length.
    case native
}

extension Array where Element == PriceSlot {
    /// These slots at `resolution`; `hour` averages shorter slots per local hour of `calendar`.
    public func at(_ resolution: Resolution, in calendar: LocalCalendar) -> [PriceSlot] {
        switch resolution {
        case .native: self
        case .hour: hourly(in: calendar)
        }
    }

    /// Slots shorter than an hour are merged per local hour into their time-weighted mean.
    ///
    /// An hour that is only partly covered keeps its real span, so no price is claimed for
    /// time the source said nothing about. Slots of an hour or longer pass through unchanged.
    func hourly(in calendar: LocalCalendar) -> [PriceSlot] {
        var result: [PriceSlot] = []
        result.reserveCapacity(count / 4 + 1)
        var group: (hour: Date, start: Date, end: Date, weighted: Double, seconds: Double)?

        func flush() {
            if let g = group {
                result.append(PriceSlot(start: g.start, end: g.end, market: g.weighted / g.seconds))
            }
            group = nil
        }

        for slot in self {
            let length = slot.duration
            if length >= 3600 {
                flush()
                result.append(slot)
                continue
            }
            let hour = calendar.hourStart(containing: slot.start)
            if let g = group, g.hour == hour, g.end == slot.start {
                group = (hour, g.start, slot.end, g.weighted + slot.market * length, g.seconds + length)
            } else {
                flush()
                group = (hour, slot.start, slot.end, slot.market * length, length)
            }
        }
        flush()
        return result
    }
}
