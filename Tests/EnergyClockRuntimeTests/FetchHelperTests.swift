import EnergyClockTesting
import Foundation
import Platform
import Testing

@testable import EnergyClockDomain
@testable import EnergyClockSources

/// HTTP transfers run in `energyclock-fetch`: what the daemon tells it, and what it makes of
/// whatever a broken or replaced helper writes.
@Suite(.timeLimit(.minutes(1)))
struct FetchHelperTests {
    /// A client whose helper is a shell script, with the daemon's own limits.
    func client(_ script: String, timeout: Double = 2, maxBody: Int = 1000) throws -> HTTPClient {
        let path = temporaryDirectory().appendingPathComponent("fetch").path
        try writeExecutable("#!/bin/sh\n" + script + "\n", to: path)
        return HTTPClient(timeout: timeout, maxBodyBytes: maxBody, helper: path)
    }

    func failure(_ client: HTTPClient) async -> HTTPError? {
        do {
            _ = try await client.get(URL(string: "http://127.0.0.1:9/")!)
            return nil
        } catch {
            return error
        }
    }

    @Test func theRequestGoesOnStandardInputAndNeverInTheArguments() async throws {
        // The helper answers with its argument count and the request it read.
        let echo = try client(#"printf 'ok 200\nText/Plain; charset=utf-8\n'; echo "arguments: $#"; cat"#, timeout: 1.5, maxBody: 4000)
        let url = URL(string: "http://127.0.0.1:9/prices?securityToken=secret")!
        let got = try await echo.get(url, headers: ["Accept: text/plain"])
        #expect(got.status == 200)
        #expect(got.contentType == "text/plain")
        let user = "User-Agent: energyclock/\(EnergyClockVersion.string)"
        #expect(
            String(decoding: got.body, as: UTF8.self)
                == "arguments: 0\nGET \(url.absoluteString)\ntimeout-ms 1500\nmax-body 4000\nheader Accept: text/plain\nheader \(user)\n\n")

        let posted = try await echo.post(url, body: Array("m v=1\n".utf8), headers: [])
        #expect(String(decoding: posted.body, as: UTF8.self).hasSuffix("max-body 4000\nheader \(user)\n\nm v=1\n"))
    }

    @Test func aHeaderWithALineBreakIsRefusedBeforeAnythingRuns() async throws {
        let ran = temporaryDirectory().appendingPathComponent("ran").path
        let never = try client("touch \(ran); printf 'ok 200\\n\\n'")
        for header in ["X-Evil: a\r\nHost: elsewhere", "X-Evil: a\nb", "X-Nul: a\u{0}b"] {
            await #expect(throws: HTTPError.self) { try await never.get(URL(string: "http://127.0.0.1:9/")!, headers: [header]) }
        }
        #expect(!FileManager.default.fileExists(atPath: ran))
        // The refusal names the header, never its value, which may be a token.
        do {
            _ = try await never.get(URL(string: "http://127.0.0.1:9/")!, headers: ["Authorization: Bearer secret\r\nX: y"])
            Issue.record("a header with a line break was sent")
        } catch {
            #expect(error.description.contains("Authorization") && !error.description.contains("secret"), "\(error)")
        }
        // The same client runs its helper for a good header.
        _ = try await never.get(URL(string: "http://127.0.0.1:9/")!, headers: ["Accept: */*"])
        #expect(FileManager.default.fileExists(atPath: ran))
    }

    @Test func whatTheHelperWritesIsChecked() throws {
        func parse(_ text: String, limit: Int = 10) -> Result<HTTPResponse, HTTPError> {
            Result { () throws(HTTPError) in try HTTPClient.response(fromHelperOutput: Array(text.utf8), maxBodyBytes: limit, seconds: 7) }
        }
        let good = try parse("ok 404\napplication/json\n{}").get()
        #expect((good.status, good.contentType, good.body) == (404, "application/json", Array("{}".utf8)))
        #expect(try parse("ok 200\n\n").get().body.isEmpty)
        #expect(parse("error timeout no answer in time\n").failure == .timeout(seconds: 7))
        #expect(parse("error too-large the body is larger\n").failure == .tooLarge(limit: 10))
        #expect(parse("error transport connection refused\n").failure == .transport("connection refused"))
        #expect(parse("error other\n").failure == .transport("no reason given"))
        #expect(parse("ok 200\ntext/plain\n12345678901").failure == .tooLarge(limit: 10))
        // Broken or hostile: never a response, and a bounded message.
        for text in [
            "", "ok 200", "ok 200\n", "ok 2000\n\n", "ok 20\n\n", "ok -20\n\n", "ok +200\n\n", "ok 2e2\n\n", "OK 200\n\n", "okay\n\n",
            "\n\n", "ok 200" + String(repeating: " ", count: 600) + "\n\n", "ok 200\n" + String(repeating: "x", count: 600) + "\n",
            "\u{0}\u{0}\u{0}\n\n", "ok \u{FF10}\u{FF10}\u{FF10}\n\n",
        ] {
            guard case let .failure(error) = parse(text) else {
                Issue.record("accepted \(text.debugDescription)")
                continue
            }
            #expect(error.description.count < 200, "\(error)")
        }
    }

    @Test func aHelperThatHangsFailsOrIsMissingIsReportedAndNeverAnswers() async throws {
        // Its own time-out does not end it: the leash does, a short while after the request's.
        #expect(await failure(try client("cat >/dev/null; sleep 30", timeout: 0.2)) == .timeout(seconds: 0.2))
        #expect(await failure(try client("cat >/dev/null; head -c 3000000 /dev/zero")) == .tooLarge(limit: 1000))
        let failed = await failure(try client("cat >/dev/null; echo 'energyclock-fetch: no timeout-ms line' >&2; exit 2"))
        #expect(
            failed?.description.hasSuffix("ended with status 2: energyclock-fetch: no timeout-ms line") == true,
            "\(String(describing: failed))")
        let killed = await failure(try client("cat >/dev/null; kill -9 $$"))
        #expect(killed?.description.hasSuffix("was ended by signal 9") == true, "\(String(describing: killed))")
        let missing = await failure(HTTPClient(helper: "/nonexistent/energyclock-fetch"))
        #expect(missing?.description.hasPrefix("connection failed: cannot run /nonexistent/energyclock-fetch") == true)
    }

    @Test func aCancelledRequestKillsItsHelper() async throws {
        // Left alone, the helper would end after 30 s with nothing written: a transport error.
        let pidFile = temporaryDirectory().appendingPathComponent("pid").path
        let slow = try client("echo $$ > \(pidFile); cat >/dev/null; sleep 30", timeout: 30)
        let request = Task { await failure(slow) }
        var pid: Int32?
        while pid == nil {
            try await Task.sleep(for: .milliseconds(20))
            pid = (try? String(contentsOfFile: pidFile, encoding: .utf8)).flatMap {
                Int32($0.trimmingCharacters(in: .whitespacesAndNewlines))
            }
        }
        request.cancel()
        #expect(await request.value == .cancelled)
        // Killed and reaped before the request returned.
        #expect(kill(pid!, 0) == -1 && errno == ESRCH)
    }

    @Test func theRealHelperRefusesARequestItCannotRead() async throws {
        let helper = builtExecutable("energyclock-fetch")
        for request in [
            "", "DELETE http://x/\ntimeout-ms 1\nmax-body 1\n\n", "GET http://x/\ntimeout-ms 0\nmax-body 1\n\n",
            "GET http://x/\ntimeout-ms 99999999999\nmax-body 1\n\n", "GET http://x/\ntimeout-ms 1\nmax-body -1\n\n",
            "GET http://x/\ntimeout-ms 1\nmax-body 1\nheader a\r\n\n", "GET http://x/\ntimeout-ms 1\nmax-body 1\n",
            "GET http://x/\ntimeout-ms 1\nmax-body 1\nsurprise\n\n", "GET http://x/\ntimeout-ms 1\nmax-body 1\n\nbody for a GET",
            "GET http://x/\ntimeout-ms 1\nmax-body 1\n" + String(repeating: "header a: b\n", count: 65) + "\n",
        ] {
            let outcome = await Subprocess.run(
                helper, [], input: Array(request.utf8), limits: .init(seconds: 10, outputBytes: 4096), thread: "test")
            #expect(outcome.ending == .exited(2), "\(request.debugDescription): \(outcome.ending)")
            #expect(outcome.output.isEmpty)
            #expect(String(decoding: outcome.errors, as: UTF8.self).hasPrefix("energyclock-fetch: "))
        }
    }
}
