internal import CCairo
import EnergyClockDomain
import EnergyClockFace
import FoundationEssentials
import Glibc

/// The clock as SVG or PNG, drawn once through cairo for both.
public enum CairoClock {
    /// The side of the square picture, in pixels (PNG) or user units (SVG).
    public static let size = 512.0

    /// Why a picture could not be made.
    public struct Failure: Error, CustomStringConvertible {
        /// cairo's own explanation.
        public let description: String
    }

    /// The clock as an SVG document.
    public static func svg(_ face: ClockFace) throws(Failure) -> [UInt8] {
        let sink = Sink()
        let surface = cairo_svg_surface_create_for_stream(Sink.write, Unmanaged.passUnretained(sink).toOpaque(), size, size)
        cairo_svg_surface_restrict_to_version(surface, CAIRO_SVG_VERSION_1_1)
        try draw(face, on: surface)
        cairo_surface_finish(surface)
        let status = cairo_surface_status(surface)
        cairo_surface_destroy(surface)
        guard status == CAIRO_STATUS_SUCCESS else { throw Failure(description: String(cString: cairo_status_to_string(status))) }
        return stableSurfaceID(sink.bytes)
    }

    /// cairo numbers its surfaces across the process (`id="surface5"`); one name makes the same
    /// clock the same document every time.
    static func stableSurfaceID(_ svg: [UInt8]) -> [UInt8] {
        let marker = Array(#"id="surface"#.utf8)
        guard let start = svg.firstRange(of: marker)?.upperBound else { return svg }
        var end = start
        while end < svg.count, svg[end] >= 0x30, svg[end] <= 0x39 { end += 1 }
        return Array(svg[..<start]) + Array("1".utf8) + Array(svg[end...])
    }

    /// The clock as a PNG image, `size` pixels square.
    public static func png(_ face: ClockFace) throws(Failure) -> [UInt8] {
        let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(size), Int32(size))
        defer { cairo_surface_destroy(surface) }
        try draw(face, on: surface)
        cairo_surface_flush(surface)
        let sink = Sink()
        let status = cairo_surface_write_to_png_stream(surface, Sink.write, Unmanaged.passUnretained(sink).toOpaque())
        guard status == CAIRO_STATUS_SUCCESS else { throw Failure(description: String(cString: cairo_status_to_string(status))) }
        return sink.bytes
    }

    /// Collects what a cairo surface writes.
    private final class Sink {
        var bytes: [UInt8] = []

        static let write: cairo_write_func_t = { closure, data, length in
            let sink = Unmanaged<Sink>.fromOpaque(closure!).takeUnretainedValue()
            if let data { sink.bytes.append(contentsOf: UnsafeBufferPointer(start: data, count: Int(length))) }
            return CAIRO_STATUS_SUCCESS
        }
    }

    static let background = RGBColor(red: 0x1C, green: 0x1C, blue: 0x1E)
    static let unknown = RGBColor(red: 0x3A, green: 0x3A, blue: 0x3C)
    static let text = RGBColor(red: 0xF2, green: 0xF2, blue: 0xF7)
    static let dimText = RGBColor(red: 0x8E, green: 0x8E, blue: 0x93)
    static let warning = RGBColor(red: 0xFF, green: 0x45, blue: 0x3A)

    /// The centre of the ring.
    public static let center = (x: size / 2, y: size / 2 + 6)
    /// The ring's outer radius.
    public static let outer = 188.0
    /// The ring's inner radius.
    public static let inner = 122.0

    private static func draw(_ face: ClockFace, on surface: OpaquePointer?) throws(Failure) {
        guard let cr = cairo_create(surface) else { throw Failure(description: "no drawing context") }
        defer { cairo_destroy(cr) }
        func color(_ c: RGBColor, alpha: Double = 1) {
            cairo_set_source_rgba(cr, Double(c.red) / 255, Double(c.green) / 255, Double(c.blue) / 255, alpha)
        }
        func font(_ points: Double, bold: Bool = false) {
            cairo_select_font_face(cr, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL, bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL)
            cairo_set_font_size(cr, points)
        }
        /// Writes `text` with its anchor (0 left, 0.5 centre, 1 right) at `x`, baseline at `y`.
        func write(_ text: String, x: Double, y: Double, anchor: Double = 0.5) {
            var extents = cairo_text_extents_t()
            cairo_text_extents(cr, text, &extents)
            cairo_move_to(cr, x - (extents.x_advance * anchor), y)
            cairo_show_text(cr, text)
        }
        func angle(_ fraction: Double) -> Double { -Double.pi / 2 + 2 * Double.pi * fraction }

        color(background)
        cairo_rectangle(cr, 0, 0, size, size)
        cairo_fill(cr)

        // The ring: one wedge per part of each hour.
        let count = Double(max(face.sectors.count, 1))
        for (index, sector) in face.sectors.enumerated() {
            let parts = Double(sector.parts.count)
            for (part, band) in sector.parts.enumerated() {
                let from = angle((Double(index) + Double(part) / parts) / count)
                let to = angle((Double(index) + Double(part + 1) / parts) / count)
                cairo_new_path(cr)
                cairo_arc(cr, center.x, center.y, outer, from, to)
                cairo_arc_negative(cr, center.x, center.y, inner, to, from)
                cairo_close_path(cr)
                // A forecast part is paler: its colour over the background at 40 %.
                color(band.flatMap { face.palette[$0] } ?? unknown, alpha: sector.isForecast(part) ? 0.4 : 1)
                cairo_fill(cr)
            }
        }
        // Thin gaps between the hours.
        color(background)
        cairo_set_line_width(cr, 2)
        for index in face.sectors.indices {
            let a = angle(Double(index) / count)
            cairo_move_to(cr, center.x + (inner - 1) * cos(a), center.y + (inner - 1) * sin(a))
            cairo_line_to(cr, center.x + (outer + 1) * cos(a), center.y + (outer + 1) * sin(a))
            cairo_stroke(cr)
        }
        // The current hour, outlined.
        if let index = face.sectors.firstIndex(where: \.isCurrent) {
            let from = angle(Double(index) / count)
            let to = angle(Double(index + 1) / count)
            cairo_new_path(cr)
            cairo_arc(cr, center.x, center.y, outer + 3, from, to)
            cairo_arc_negative(cr, center.x, center.y, inner - 3, to, from)
            cairo_close_path(cr)
            color(text)
            cairo_set_line_width(cr, 3)
            cairo_stroke(cr)
        }
        // Hour labels inside the ring; on a 25-hour day the repeated hour is labelled twice.
        for (index, sector) in face.sectors.enumerated() {
            let a = angle((Double(index) + 0.5) / count)
            font(13, bold: sector.isCurrent)
            color(sector.isCurrent ? text : dimText)
            write(sector.label, x: center.x + (inner - 17) * cos(a), y: center.y + (inner - 17) * sin(a) + 4.5)
        }
        // The hand at now, across the ring.
        if let hand = face.hand {
            let a = angle(hand)
            color(text)
            cairo_set_line_width(cr, 4)
            cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
            cairo_move_to(cr, center.x + (inner + 2) * cos(a), center.y + (inner + 2) * sin(a))
            cairo_line_to(cr, center.x + (outer + 14) * cos(a), center.y + (outer + 14) * sin(a))
            cairo_stroke(cr)
            cairo_arc(cr, center.x + (outer + 14) * cos(a), center.y + (outer + 14) * sin(a), 5, 0, 2 * Double.pi)
            cairo_fill(cr)
        }
        // Now, in the middle.
        if let now = face.now {
            if let band = face.band, let c = face.palette[band] {
                font(16, bold: true)
                color(c)
                write(band.rawValue, x: center.x, y: center.y - 30)
            }
            // A state's name (`supergreen`) is wider than a price: smaller, to stay inside the hours.
            font(min(36, 260 / Double(max(now.value.count, 1))), bold: true)
            color(text)
            write(now.value, x: center.x, y: center.y + 12)
            font(14)
            color(dimText)
            write(now.caption, x: center.x, y: center.y + 36)
        } else {
            font(16)
            color(dimText)
            if let caption = face.hand == nil ? face.caption : face.nothingNow { write(caption, x: center.x, y: center.y + 6) }
        }
        // The date and source, top left; stale data, top right.
        font(15, bold: true)
        color(text)
        write(face.day.description, x: 16, y: 26, anchor: 0)
        font(12)
        color(dimText)
        write(face.source.isEmpty ? "no source" : face.source, x: 16, y: 44, anchor: 0)
        if face.sectors.count != 24 {
            write("\(face.sectors.count)-hour day", x: 16, y: 60, anchor: 0)
        }
        if face.stale {
            font(14, bold: true)
            color(warning)
            write("STALE", x: size - 16, y: 26, anchor: 1)
            font(11)
            write("last fetch failed", x: size - 16, y: 42, anchor: 1)
        }
        // The thresholds, bottom.
        let legend = face.legend
        if !legend.isEmpty {
            font(12)
            let spacing = (size - 32) / Double(legend.count)
            for (index, entry) in legend.enumerated() {
                let x = 16 + Double(index) * spacing
                color(face.palette[entry.band] ?? unknown)
                cairo_rectangle(cr, x, size - 28, 12, 12)
                cairo_fill(cr)
                color(text)
                write("\(entry.text)", x: x + 18, y: size - 17.5, anchor: 0)
            }
            color(dimText)
            font(11)
            write(face.unit, x: size - 16, y: size - 36, anchor: 1)
            if let note = face.forecastNote { write(note, x: 16, y: size - 36, anchor: 0) }
        }
    }
}
