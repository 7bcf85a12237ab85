import EnergyClockDomain
import EnergyClockSources
import EnergyClockSupport
import EnergyClockTesting
import Foundation
import Testing

/// What every source holds an upstream to, through the real fetch helper: no redirect away from
/// its host, a JSON answer where JSON is due, no price carried into a gap, no slot end mended.
@Suite(.timeLimit(.minutes(1)))
struct UpstreamRulesTests {
    let day = LocalDay(year: 2024, month: 8, day: 22)
    let berlin = LocalCalendar(identifier: "Europe/Berlin")!

    func settings(_ change: (inout Settings) -> Void) -> Settings {
        var settings = Settings.defaults
        change(&settings)
        return settings
    }

    func failure(_ fetch: () async throws(SourceError) -> [SeriesSlot]) async -> String? {
        do {
            _ = try await fetch()
            return nil
        } catch {
            return error.description
        }
    }

    @Test func aRedirectIsFollowedOnlyWithinItsOwnHostAndPort() async throws {
        let elsewhere = try TestHTTPServer { _ in .json(fixture("octopus/agile_region-L_2023-11-07_to_09_page1.json")) }
        let moved = "/moved" + SupplierSourceTests.agilePath
        let http = try TestHTTPServer { target in
            if target.hasPrefix(SupplierSourceTests.agilePath) {
                // Away to another port of the same host: not followed.
                return TestHTTPServer.Response(status: 302, location: elsewhere.baseURL.absoluteString + target)
            }
            return .json(fixture("octopus/agile_region-L_2023-11-07_to_09_page1.json"))
        }
        let octopus = OctopusSource(baseURL: http.baseURL, http: HTTPClient(timeout: 5))
        let settings = settings {
            $0.zone = "GB"
            $0.octopusRegion = "L"
        }
        let refused = await failure { () async throws(SourceError) in
            try await octopus.fetch(day: day, calendar: berlin, settings: settings)
        }
        #expect(refused?.contains("redirected to another host, port or scheme") == true, "\(refused ?? "followed")")
        #expect(elsewhere.requests.isEmpty, "the other port was never asked")

        // Within the same host and port, it is followed.
        http.respond { target in
            target.hasPrefix(SupplierSourceTests.agilePath)
                ? TestHTTPServer.Response(status: 301, location: moved)
                : .json(fixture("octopus/agile_region-L_2023-11-07_to_09_page1.json"))
        }
        let followed = await failure { () async throws(SourceError) in
            try await octopus.fetch(day: day, calendar: berlin, settings: settings)
        }
        #expect(followed == nil || followed?.contains("redirect") == false, "\(followed ?? "")")
        #expect(http.requests.contains { $0.hasPrefix("/moved") })

        // Tibber's POST is never redirected, not even to its own host.
        let tibber = TibberSource(url: http.baseURL.appendingPathComponent("gql"), token: "t0ken-value", http: HTTPClient(timeout: 5))
        http.respond { _ in TestHTTPServer.Response(status: 307, location: "/elsewhere") }
        let posted = await failure { () async throws(SourceError) in try await tibber.fetch(day: day, calendar: berlin, settings: .defaults)
        }
        #expect(posted?.contains("redirected a POST") == true, "\(posted ?? "followed")")
    }

    @Test func tibberRefusesAnAnswerServedAsHTML() async throws {
        let answer = fixture("tibber/PriceInfoToday_2024-08-22.json")
        let http = try TestHTTPServer { _ in TestHTTPServer.Response(contentType: "text/html", body: answer) }
        let tibber = TibberSource(url: http.baseURL, token: "t0ken-value", http: HTTPClient(timeout: 5))
        let refused = await failure { () async throws(SourceError) in
            try await tibber.fetch(day: day, calendar: berlin, settings: .defaults)
        }
        #expect(refused == #"tibber: unexpected content type "text/html""#, "\(refused ?? "taken")")
        // The same body as JSON is read.
        http.respond { _ in .json(answer) }
        #expect(
            await failure { () async throws(SourceError) in try await tibber.fetch(day: day, calendar: berlin, settings: .defaults) } == nil
        )
    }
}
