import FoundationEssentials

/// The slot length that prices are shown and banded at.
public enum Resolution: String, Sendable, CaseIterable, Codable {
    /// One slot per local hour: the time-weighted mean of the source's slots in that hour (for a
    /// grid signal, the worst step).
    case hour
    /// The source's own slots, whatever their length.
    case native
}

extension Array where Element == SeriesSlot {
    /// These slots at `resolution`; `hour` averages shorter slots per local hour of `calendar`.
    public func at(_ resolution: Resolution, in calendar: LocalCalendar) -> [SeriesSlot] {
        switch resolution {
        case .native: self
        case .hour: hourly(in: calendar)
        }
    }

    /// The slots cut at local hour boundaries and merged per local hour into their time-weighted
    /// mean; a grid signal's hour takes its worst step instead.
    ///
    /// Every row lies within one local hour, whatever the slots' length: 40-minute slots are split
    /// where an hour ends, and a two-hour slot gives two rows. An hour that is only partly covered
    /// keeps its real span, so no price is claimed for time the source said nothing about.
    func hourly(in calendar: LocalCalendar) -> [SeriesSlot] {
        var result: [SeriesSlot] = []
        result.reserveCapacity(count / 4 + 1)
        // The group's first piece carries its quantity, basis, level and provenance; a piece quoted
        // otherwise, or from elsewhere (a forecast beside an official price), starts a group of its
        // own, and a level the pieces disagree on is left out.
        var group: (hour: Date, first: SeriesSlot, end: Date, weighted: Double, seconds: Double)?

        func flush() {
            if let g = group {
                var slot = g.first
                slot.end = g.end
                // A step has no mean: a grid signal's hour keeps its worst step, so that it says
                // "use power now" only when all of it does.
                if slot.quantity.gridScale == nil { slot.value = g.weighted / g.seconds }
                result.append(slot)
            }
            group = nil
        }

        for slot in self {
            var pieceStart = slot.start
            while pieceStart < slot.end {
                let hour = calendar.hourStart(containing: pieceStart)
                let pieceEnd = Swift.min(slot.end, hour.addingTimeInterval(3600))
                let length = pieceEnd.timeIntervalSince(pieceStart)
                if var g = group, g.hour == hour, g.end == pieceStart, g.first.quantity == slot.quantity, g.first.basis == slot.basis,
                    g.first.provenance == slot.provenance
                {
                    if g.first.level != slot.level { g.first.level = nil }
                    g.first.value = Swift.max(g.first.value, slot.value)  // the worst so far; flush means the rest
                    group = (hour, g.first, pieceEnd, g.weighted + slot.value * length, g.seconds + length)
                } else {
                    flush()
                    var first = slot
                    first.start = pieceStart
                    group = (hour, first, pieceEnd, slot.value * length, length)
                }
                pieceStart = pieceEnd
            }
        }
        flush()
        return result
    }
}
