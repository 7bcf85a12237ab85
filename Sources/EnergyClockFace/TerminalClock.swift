import EnergyClockDomain
import FoundationEssentials
import Glibc

/// The clock as text for an 80×24 terminal: the ring of hours, now in the middle, a legend below.
public struct TerminalClock: Sendable {
    /// How bands are shown.
    public enum Colors: Sendable, Equatable {
        /// 24-bit ANSI colours.
        case truecolor
        /// The nearest of the 256 xterm colours.
        case palette256
        /// Letters G, Y, O and R, for `NO_COLOR` and for output that is not a terminal.
        case letters

        /// What the environment asks for: letters unless standard output is a terminal and
        /// `NO_COLOR` is unset; truecolor when `COLORTERM` says so, else 256 colours.
        public static func detect(environment: [String: String], isTerminal: Bool) -> Colors {
            if !isTerminal || !(environment["NO_COLOR"] ?? "").isEmpty { return .letters }
            let colorTerm = (environment["COLORTERM"] ?? "").lowercased()
            return colorTerm.contains("truecolor") || colorTerm.contains("24bit") ? .truecolor : .palette256
        }
    }

    /// The width and height drawn in.
    static let width = 80
    static let height = 24

    let face: ClockFace
    let colors: Colors

    /// A renderer of `face` in `colors`.
    public init(_ face: ClockFace, colors: Colors) {
        self.face = face
        self.colors = colors
    }

    /// The clock, 24 lines at most 80 columns wide, without trailing spaces.
    public func render() -> String {
        var grid = Grid(width: Self.width, height: Self.height)
        let title =
            "energyclock \(face.day) \u{00B7} \(face.source.isEmpty ? "no source" : face.source) \u{00B7} \(face.unit)"
            + (face.forecastProvider.map { " \u{00B7} forecast by \($0)" } ?? "")
            + (face.stale ? " \u{00B7} STALE: the last fetch failed" : "")
        grid.put(title, row: 0, column: 0)

        let count = face.sectors.count
        let centerX = 39.5
        let centerY = 11.0
        for (index, sector) in face.sectors.enumerated() {
            let angle = 2 * Double.pi * (Double(index) + 0.5) / Double(max(count, 1))
            let blockX = Int((centerX + 25 * sin(angle) - 2).rounded())
            let blockY = Int((centerY - 8.4 * cos(angle)).rounded())
            for cell in 0..<4 {
                let part = cell * sector.parts.count / 4
                let band = sector.parts[part]
                grid.put(
                    cell: Cell(text: symbol(band, forecast: sector.isForecast(part)), band: band, bold: sector.isCurrent), row: blockY,
                    column: blockX + cell)
            }
            let labelX = Int((centerX + 32 * sin(angle)).rounded())
            let labelY = Int((centerY - 10 * cos(angle)).rounded())
            if sector.isCurrent {
                grid.put("[\(sector.label)]", row: labelY, column: labelX - 2, bold: true)
            } else {
                grid.put(sector.label, row: labelY, column: labelX - 1)
            }
        }

        var middle: [String] = []
        if let current = face.sectors.first(where: \.isCurrent) {
            let next = face.sectors.first { $0.start >= current.end }
            middle.append("now \(current.label):00\(next.map { "\u{2013}\($0.label):00" } ?? "")")
        } else if face.hand == nil, let caption = face.caption {
            middle.append(caption)
        }
        if let now = face.now {
            middle.append("\(now.value) \(now.caption)")
        } else if face.hand != nil {
            middle.append("no \(face.noun) known now")
        }
        if let band = face.band { middle.append(band.rawValue) }
        if face.sectors.count != 24 { middle.append("\(face.sectors.count)-hour day") }
        for (offset, line) in middle.enumerated() {
            let row = Int(centerY) - middle.count / 2 + offset
            grid.put(line, row: row, column: Int(centerX) - line.count / 2, band: offset == 2 ? face.band : nil)
        }

        var column = 0
        for (band, text) in face.legend {
            grid.put(cell: Cell(text: symbol(band), band: band, bold: false), row: 22, column: column)
            grid.put(" \(text)", row: 22, column: column + 1)
            column += 2 + text.count + 3
        }
        grid.put(face.unit, row: 22, column: column)
        let note = face.forecastProvider == nil ? "" : "; \u{2592} forecast"
        let key = "each hour is 4 cells, one per quarter-hour when known; \u{00B7} no \(face.noun)" + note
        grid.put(key, row: 23, column: 0)
        return grid.lines(colors: colors, palette: face.palette).joined(separator: "\n")
    }

    private func letter(_ band: Band) -> String { String(band.rawValue.prefix(1)).uppercased() }

    /// A part's cell: a full block, or a shaded one for a forecast; in letters, lower case for a forecast.
    private func symbol(_ band: Band?, forecast: Bool = false) -> String {
        guard let band else { return "\u{00B7}" }
        if colors == .letters { return forecast ? letter(band).lowercased() : letter(band) }
        return forecast ? "\u{2592}" : "\u{2588}"
    }

    /// One character cell: its text, and the band that colours it.
    struct Cell {
        var text: String
        var band: Band?
        var bold: Bool
    }

    /// A fixed grid of cells.
    struct Grid {
        var cells: [[Cell]]

        init(width: Int, height: Int) {
            cells = Array(repeating: Array(repeating: Cell(text: " ", band: nil, bold: false), count: width), count: height)
        }

        mutating func put(cell: Cell, row: Int, column: Int) {
            guard cells.indices.contains(row), cells[row].indices.contains(column) else { return }
            cells[row][column] = cell
        }

        mutating func put(_ text: String, row: Int, column: Int, bold: Bool = false, band: Band? = nil) {
            for (offset, character) in text.enumerated() {
                put(cell: Cell(text: String(character), band: band, bold: bold), row: row, column: column + offset)
            }
        }

        func lines(colors: Colors, palette: [Band: RGBColor]) -> [String] {
            cells.map { row in
                var line = ""
                for cell in row {
                    var style: [String] = []
                    if cell.bold, colors != .letters { style.append("1") }
                    if let band = cell.band, let color = palette[band], colors != .letters {
                        style.append(
                            colors == .truecolor
                                ? "38;2;\(color.red);\(color.green);\(color.blue)" : "38;5;\(Self.xterm256(color))")
                    }
                    line += style.isEmpty ? cell.text : "\u{1B}[\(style.joined(separator: ";"))m\(cell.text)\u{1B}[0m"
                }
                while line.hasSuffix(" ") { line.removeLast() }
                return line
            }
        }

        /// The nearest colour of the xterm 6×6×6 cube.
        static func xterm256(_ color: RGBColor) -> Int {
            func level(_ value: UInt8) -> Int {
                let steps = [0, 95, 135, 175, 215, 255]
                return steps.indices.min { abs(steps[$0] - Int(value)) < abs(steps[$1] - Int(value)) }!
            }
            return 16 + 36 * level(color.red) + 6 * level(color.green) + level(color.blue)
        }
    }
}
