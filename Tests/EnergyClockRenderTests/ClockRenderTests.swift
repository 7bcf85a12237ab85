import CCairo
import EnergyClockDomain
import EnergyClockFace
import EnergyClockRender
import EnergyClockTesting
import Foundation
import Testing

/// The clock as pictures and as terminal text.
@Suite struct ClockRenderTests {
    @Test func theFaceHasAnHourPerElapsedHour() {
        let normal = ClockFace(ClockFixtures.normal)
        #expect(normal.sectors.count == 24)
        #expect(normal.sectors.map(\.label) == (0..<24).map { $0 < 10 ? "0\($0)" : "\($0)" })
        #expect(normal.sectors.firstIndex(where: \.isCurrent) == 13)
        #expect(normal.sectors[13].parts == [.orange])
        #expect(normal.price == 0.25 && normal.band == .orange)
        #expect(abs(normal.hand! - 13.5 / 24) < 1e-9)
        let short = ClockFace(ClockFixtures.short)
        #expect(short.sectors.count == 23)
        #expect(!short.sectors.map(\.label).contains("02"))
        let long = ClockFace(ClockFixtures.long)
        #expect(long.sectors.count == 25)
        #expect(long.sectors.map(\.label).filter { $0 == "02" }.count == 2, "the repeated hour is two hours")
        // A day drawn for the record: no hand, no current slot, its weekday in the middle.
        let record = ClockFace(ClockFixtures.long, showsNow: false)
        #expect(record.hand == nil && record.price == nil && !record.sectors.contains(where: \.isCurrent))
        #expect(record.caption == "Sunday" && record.sectors.count == 25)
        #expect(ClockFace(ClockFixtures.normal, tomorrow: true).caption == "tomorrow")
        #expect(ClockFace(json: Array(record.json.utf8)) == record, "the caption reaches the helper")
        let quarters = ClockFace(
            ClockFixtures.snapshot(day: LocalDay(year: 2026, month: 1, day: 14), now: at("2026-01-14T05:10:00+01:00"), quarters: true))
        // 05:00–06:00: 0.05, 0.076, 0.102, 0.128 EUR/kWh.
        #expect(quarters.sectors[5].parts == [.green, .green, .yellow, .yellow])
        let tomorrow = ClockFace(ClockFixtures.normal, tomorrow: true)
        #expect(tomorrow.hand == nil && tomorrow.price == nil && tomorrow.day == LocalDay(year: 2026, month: 1, day: 15))
    }

    @Test(arguments: ["normal", "short", "long"])
    func svgMatchesItsGoldenFile(name: String) throws {
        let snapshot = ["normal": ClockFixtures.normal, "short": ClockFixtures.short, "long": ClockFixtures.long][name]!
        let svg = try CairoClock.svg(ClockFace(snapshot))
        #expect(try CairoClock.svg(ClockFace(snapshot)) == svg, "the same face draws the same bytes")
        #expect(String(decoding: svg, as: UTF8.self).hasPrefix("<?xml"))
        try ClockFixtures.expectGolden(svg, "clock-\(name).svg")
    }

    @Test func terminalTextMatchesItsGoldenFile() throws {
        for (name, snapshot) in [("normal", ClockFixtures.normal), ("short", ClockFixtures.short), ("long", ClockFixtures.long)] {
            let text = TerminalClock(ClockFace(snapshot), colors: .letters).render()
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            #expect(lines.count <= 24 && lines.allSatisfy { $0.count <= 80 }, "fits 80×24")
            #expect(!text.contains("\u{1B}"), "no escape codes without colour")
            try ClockFixtures.expectGolden(Array((text + "\n").utf8), "clock-\(name).txt")
        }
    }

    @Test func theNegativeBandLeadsTheLegendAndReachesTheHelper() {
        var snapshot = ClockFixtures.normal
        #expect(ClockFace(snapshot).legend.map(\.band) == [.green, .yellow, .orange, .red])
        snapshot.settings.negativeBand = true
        let face = ClockFace(snapshot)
        #expect(face.legend.map(\.band) == [.negative, .green, .yellow, .orange, .red])
        #expect(face.legend.first?.text == "< 0")
        #expect(ClockFace(json: Array(face.json.utf8)) == face)
        #expect(face.palette[.negative]?.hex == "#0A84FF")
    }

    @Test func theHelperDrawsWhatTheDaemonHandsIt() async throws {
        for snapshot in [ClockFixtures.normal, ClockFixtures.short, ClockFixtures.long] {
            let face = ClockFace(snapshot)
            #expect(ClockFace(json: Array(face.json.utf8)) == face, "the face survives its JSON form")
        }
        let face = ClockFace(ClockFixtures.long)
        let drawn = try await ClockRenderer.besideThisProgram.draw(face)
        // The same drawing: the SVG byte for byte, the PNG as an image of the same size.
        #expect(drawn.svg == (try CairoClock.svg(face)))
        let image = try decode(drawn.png)
        #expect(image.width == 512 && image.height == 512)
        let broken = ClockRenderer(helper: "/nonexistent/energyclock-render")
        await #expect(throws: ClockRenderer.Failure.self) { _ = try await broken.draw(face) }
        #expect(ClockFace(json: Array("{}".utf8)) == nil)
    }

    @Test func colourModesFollowTheEnvironment() {
        #expect(TerminalClock.Colors.detect(environment: ["COLORTERM": "truecolor"], isTerminal: true) == .truecolor)
        #expect(TerminalClock.Colors.detect(environment: [:], isTerminal: true) == .palette256)
        #expect(TerminalClock.Colors.detect(environment: ["NO_COLOR": "1", "COLORTERM": "truecolor"], isTerminal: true) == .letters)
        #expect(TerminalClock.Colors.detect(environment: ["COLORTERM": "truecolor"], isTerminal: false) == .letters)
        let face = ClockFace(ClockFixtures.normal)
        #expect(TerminalClock(face, colors: .truecolor).render().contains("\u{1B}[38;2;52;199;89m\u{2588}"))
        #expect(TerminalClock(face, colors: .palette256).render().contains("\u{1B}[38;5;"))
    }

    /// Decodes `png` with cairo's PNG reader: width, height and the ARGB pixels.
    func decode(_ png: [UInt8]) throws -> (width: Int, height: Int, pixel: (Int, Int) -> RGBColor) {
        final class Source {
            var bytes: [UInt8]
            var offset = 0
            init(_ bytes: [UInt8]) { self.bytes = bytes }
        }
        let source = Source(png)
        let read: cairo_read_func_t = { closure, data, length in
            let source = Unmanaged<Source>.fromOpaque(closure!).takeUnretainedValue()
            guard source.offset + Int(length) <= source.bytes.count, let data else { return CAIRO_STATUS_READ_ERROR }
            for i in 0..<Int(length) { data[i] = source.bytes[source.offset + i] }
            source.offset += Int(length)
            return CAIRO_STATUS_SUCCESS
        }
        let surface = cairo_image_surface_create_from_png_stream(read, Unmanaged.passUnretained(source).toOpaque())
        defer { cairo_surface_destroy(surface) }
        try #require(cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS)
        let width = Int(cairo_image_surface_get_width(surface))
        let height = Int(cairo_image_surface_get_height(surface))
        let stride = Int(cairo_image_surface_get_stride(surface))
        let data = cairo_image_surface_get_data(surface)!
        let copy = Array(UnsafeBufferPointer(start: data, count: stride * height))
        return (
            width, height,
            { x, y in
                // ARGB32 in native (little-endian) order: B, G, R, A.
                let i = y * stride + x * 4
                return RGBColor(red: copy[i + 2], green: copy[i + 1], blue: copy[i])
            }
        )
    }

    @Test func thePNGDecodesAndEachSectorHasItsBandColour() throws {
        let snapshot = ClockFixtures.normal
        let png = try CairoClock.png(ClockFace(snapshot))
        #expect(Array(png.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        let image = try decode(png)
        #expect(image.width == 512 && image.height == 512)
        let radius = (CairoClock.outer + CairoClock.inner) / 2
        for (hour, band) in [(1, Band.green), (7, .yellow), (16, .orange), (20, .red)] {
            let angle = -Double.pi / 2 + 2 * Double.pi * (Double(hour) + 0.5) / 24
            let x = Int((CairoClock.center.x + radius * cos(angle)).rounded())
            let y = Int((CairoClock.center.y + radius * sin(angle)).rounded())
            #expect(image.pixel(x, y) == snapshot.settings.color(of: band), "hour \(hour)")
        }
        // Hours with no price are dark grey, never a band's colour.
        let empty = ClockFixtures.snapshot(day: LocalDay(year: 2026, month: 1, day: 14), now: at("2026-01-14T13:30:00+01:00"))
        var sparse = empty
        sparse.today = Array(sparse.today.prefix(12))
        let dark = try decode(try CairoClock.png(ClockFace(sparse)))
        let angle = -Double.pi / 2 + 2 * Double.pi * 20.5 / 24
        let color = dark.pixel(
            Int((CairoClock.center.x + radius * cos(angle)).rounded()), Int((CairoClock.center.y + radius * sin(angle)).rounded()))
        #expect(color == RGBColor(red: 0x3A, green: 0x3A, blue: 0x3C))
    }
}
