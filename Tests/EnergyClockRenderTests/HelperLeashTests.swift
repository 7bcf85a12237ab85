import EnergyClockFace
import EnergyClockTesting
import Foundation
import Platform
import Testing

@testable import EnergyClockPublisher

/// A misbehaving clock helper: what it writes is checked before it is published, a failure is
/// logged once per kind and tried again after a pause, never in a loop.
@Suite struct HelperLeashTests {
    /// A renderer running a shell script as its helper, with short limits.
    func renderer(_ script: String, seconds: Double = 20) throws -> ClockRenderer {
        let path = temporaryDirectory().appendingPathComponent("helper").path
        try writeExecutable("#!/bin/sh\n" + script + "\n", to: path)
        var renderer = ClockRenderer(helper: path)
        renderer.limits = Subprocess.Limits(seconds: seconds, outputBytes: 1 << 20, errorBytes: 4096)
        return renderer
    }

    func kind(_ renderer: ClockRenderer) async -> String? {
        do {
            _ = try await renderer.draw(ClockFace(ClockFixtures.normal))
            return nil
        } catch {
            return error.kind
        }
    }

    @Test func whatTheHelperWritesIsCheckedAndItsFailuresNamed() async throws {
        #expect(await kind(try renderer("cat >/dev/null; sleep 30", seconds: 1)) == "timedOut")
        #expect(await kind(try renderer("cat >/dev/null; printf '10\\nnot a png!<svg></svg>'")) == "badOutput")
        #expect(await kind(try renderer("cat >/dev/null; printf '3\\nabc'")) == "badOutput")
        #expect(await kind(try renderer("cat >/dev/null; head -c 500000 /dev/zero")) == "badOutput")
        #expect(await kind(try renderer("cat >/dev/null; printf '5\\n'; head -c 3000000 /dev/zero")) == "outputTooLarge")
        #expect(await kind(ClockRenderer(helper: "/nonexistent/energyclock-render")) == "notStarted")
        // A helper that writes 64 KiB of errors and fails: one bounded line of its words.
        let noisy = try renderer("cat >/dev/null; head -c 70000 /dev/zero | tr '\\\\0' x >&2; exit 4")
        do {
            _ = try await noisy.draw(ClockFace(ClockFixtures.normal))
            Issue.record("a failing helper must fail the drawing")
        } catch {
            #expect(error.kind == "failed")
            #expect(error.description.contains("ended with status 4"))
            #expect(error.description.utf8.count < 500)
        }
        // A real PNG signature and an SVG root pass.
        let header: [UInt8] = [0, 0, 0, 13] + Array("IHDR".utf8) + [0, 0, 2, 0, 0, 0, 2, 0, 8, 2, 0, 0, 0, 0, 0, 0, 0]
        #expect(ClockRenderer.problem(png: ClockRenderer.pngSignature + header + [0, 0, 0, 0]) == nil)
        var huge = ClockRenderer.pngSignature + header + [0, 0, 0, 0]
        huge[16..<20] = [0, 1, 0, 0]  // 65,536 pixels wide
        #expect(ClockRenderer.problem(png: huge)?.contains("65536×512") == true)
        #expect(ClockRenderer.problem(png: ClockRenderer.pngSignature + [UInt8](repeating: 0, count: 40))?.contains("header") == true)
        #expect(ClockRenderer.problem(svg: Array("<?xml version=\"1.0\"?>\n<svg xmlns='x'></svg>\n".utf8)) == nil)
        #expect(ClockRenderer.problem(svg: Array("<html><svg></svg></html>".utf8)) != nil)
        #expect(ClockRenderer.problem(svg: Array(" \r\n\t<svg>é</svg>\r\n".utf8)) == nil)
        #expect(ClockRenderer.problem(svg: Array("<svg></svg> x".utf8)) != nil)
        #expect(ClockRenderer.problem(svg: Array("<?xml version=\"1.0\"?><html/>".utf8)) != nil)
        #expect(ClockRenderer.problem(svg: Array("<?xml never closed <svg></svg>".utf8)) != nil)
        #expect(ClockRenderer.problem(svg: Array("<svg></svg".utf8) + [0xFF]) == "an SVG that is not UTF-8")
        #expect(ClockRenderer.problem(svg: []) != nil)
        #expect(ClockRenderer.problem(svg: Array("  ".utf8)) != nil)
    }
}
