import EnergyClockFace
import EnergyClockRender
import Glibc

// energyclock-render: draws a clock face given as JSON on standard input.
//
//   energyclock-render [--png FILE] [--svg FILE]
//
// With files (`-` for standard output) it writes those. Without, it writes the PNG's length in
// decimal and a newline, the PNG, then the SVG: the form the daemon reads. The daemon runs it for
// each drawing, so cairo and its fonts never stay in the daemon's memory.

func fail(_ message: String) -> Never {
    let line = Array("energyclock-render: \(message)\n".utf8)
    _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    exit(2)
}

func readInput() -> [UInt8] {
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 64 << 10)
    while true {
        let count = read(0, &chunk, chunk.count)
        if count < 0, errno == EINTR { continue }
        guard count > 0 else { return bytes }
        guard bytes.count + count <= 4 << 20 else { fail("the face is larger than 4 MiB") }
        bytes += chunk[..<count]
    }
}

func output(_ bytes: [UInt8], to path: String) {
    let fd = path == "-" ? 1 : open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard fd >= 0 else { fail("cannot write \(path): \(String(cString: strerror(errno)))") }
    var rest = bytes[...]
    while !rest.isEmpty {
        let count = rest.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        if count < 0, errno == EINTR { continue }
        guard count > 0 else { fail("cannot write \(path): \(String(cString: strerror(errno)))") }
        rest = rest.dropFirst(count)
    }
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
