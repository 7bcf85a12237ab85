import EnergyClockFace
import EnergyClockRender
import Glibc
import Platform

// energyclock-render: draws a clock face given as JSON on standard input.
//
//   energyclock-render [--png FILE] [--svg FILE]
//
// With files (`-` for standard output) it writes those. Without, it writes the PNG's length in
// decimal and a newline, the PNG, then the SVG: the form the daemon reads. The daemon runs it for
// each drawing, so cairo and its fonts never stay in the daemon's memory.

func fail(_ message: String) -> Never {
    FileDescriptor.writeAll(2, "energyclock-render: \(message)\n".utf8)
    exit(2)
}

func readInput() -> [UInt8] {
    let limit = 4 << 20
    guard let bytes = FileDescriptor.readAll(0, limit: limit + 1) else { fail("cannot read standard input") }
    guard bytes.count <= limit else { fail("the face is larger than 4 MiB") }
    return bytes
}

func output(_ bytes: [UInt8], to path: String) {
    let fd = path == "-" ? 1 : open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard fd >= 0, FileDescriptor.writeAll(fd, bytes) else { fail("cannot write \(path): \(String(cString: strerror(errno)))") }
    if path != "-" { close(fd) }
}

var arguments = Array(CommandLine.arguments.dropFirst())
var pngPath: String?
var svgPath: String?
while let flag = arguments.first {
    arguments.removeFirst()
    guard let value = arguments.first else { fail("\(flag) needs a file") }
    arguments.removeFirst()
    switch flag {
    case "--png": pngPath = value
    case "--svg": svgPath = value
    default: fail("unknown option \(flag); use --png FILE and --svg FILE")
    }
}
guard let face = ClockFace(json: readInput()) else { fail("standard input is not a clock face") }
do {
    if pngPath == nil, svgPath == nil {
        let png = try CairoClock.png(face)
        output(Array("\(png.count)\n".utf8) + png + (try CairoClock.svg(face)), to: "-")
    } else {
        if let pngPath { output(try CairoClock.png(face), to: pngPath) }
        if let svgPath { output(try CairoClock.svg(face), to: svgPath) }
    }
} catch {
    fail("\(error)")
}
