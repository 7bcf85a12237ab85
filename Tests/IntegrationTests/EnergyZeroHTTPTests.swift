import EnergyClockDomain
import EnergyClockSources
import EnergyClockSupport
import EnergyClockTesting
import Foundation
import Testing

/// The EnergyZero source over real HTTP on loopback: what each kind of bad answer becomes.
@Suite(.timeLimit(.minutes(1)))
struct EnergyZeroHTTPTests {
    let day = LocalDay(year: 2025, month: 12, day: 17)
    let calendar = LocalCalendar(identifier: "Europe/Amsterdam")!

    func fetch(_ response: TestHTTPServer.Response, timeout: Double = 2, maxBody: Int = 1 << 20) async throws -> Result<
        [SeriesSlot], SourceError
    > {
        let server = try TestHTTPServer { _ in response }
        let source = EnergyZeroSource(baseURL: server.baseURL, http: HTTPClient(timeout: timeout, maxBodyBytes: maxBody))
        do { return .success(try await source.fetch(day: day, calendar: calendar, settings: .defaults)) } catch { return .failure(error) }
    }

    @Test func aRealAnswerParsesAndTheRequestIsWellFormed() async throws {
        let server = try fixtureServer()
        let slots = try await EnergyZeroSource(baseURL: server.baseURL).fetch(day: day, calendar: calendar, settings: .defaults)
        #expect(slots.count == 288)
        #expect(server.requests == ["/public/v1/prices?energyType=ENERGY_TYPE_ELECTRICITY&date=17-12-2025&interval=INTERVAL_QUARTER"])
    }

    @Test func notFoundMeansNotPublishedYet() async throws {
        #expect(try await fetch(.json(Array(#"{"code":3,"message":"not found"}"#.utf8), status: 404)).get().isEmpty)
    }

    @Test func badRequestCarriesTheServersMessage() async throws {
        let result = try await fetch(.json(fixture("error_response.json"), status: 400))
        guard case let .failure(error) = result, case let .httpStatus(400, detail) = error.problem else {
            Issue.record("expected HTTP 400, got \(result)")
            return
        }
        #expect(detail.hasPrefix("invalid DailyEnergyPricesRequest.Date"))
        #expect(error.description.hasPrefix("energyzero: HTTP 400: invalid"))
    }

    @Test func serverErrorsTimeOutsAndGarbageAreErrorsThatNameTheSource() async throws {
        let cases: [(TestHTTPServer.Response, SourceError.Problem)] = [
            (TestHTTPServer.Response(status: 500, body: []), .httpStatus(500, detail: "")),
            (TestHTTPServer.Response(body: []), .emptyBody),
            (TestHTTPServer.Response(body: Array("{\"base\": [".utf8)), .malformed("not valid JSON")),
            (TestHTTPServer.Response(contentType: "text/html", body: Array("<html>".utf8)), .contentType("text/html")),
            (TestHTTPServer.Response(body: Array("{}".utf8), delay: 3), .timeout(seconds: 1)),
        ]
        for (response, problem) in cases {
            let result = try await fetch(response, timeout: 1)
            #expect(result.failure == SourceError(source: "energyzero", problem: problem))
        }
        let huge = try await fetch(.json(ServiceHarness.quarterFixture), maxBody: 10_000)
        #expect(huge.failure == SourceError(source: "energyzero", problem: .tooLarge(limit: 10_000)))
    }

    @Test func aClosedPortIsAConnectionFailure() async throws {
        let port = try TestBroker.freePort()
        let source = EnergyZeroSource(baseURL: URL(string: "http://127.0.0.1:\(port)")!, http: HTTPClient(timeout: 2))
        await #expect(throws: SourceError(source: "energyzero", problem: .transport("connection refused"))) {
            try await source.fetch(day: day, calendar: calendar, settings: .defaults)
        }
    }
}
