import EnergyClockDomain
import Testing

/// Refusals quote what they were given once, exactly, and never as something else.
@Suite struct ErrorTextTests {
    func refusal(_ json: String) -> String {
        do {
            _ = try SettingsPatch.parse(object: Array(json.utf8), sources: ["energyzero"])
            return "accepted"
        } catch {
            return error.description
        }
    }

    func plainRefusal(_ field: String, _ value: String) -> String {
        do {
            _ = try SettingsPatch.parse(field: field, plain: Array(value.utf8), sources: ["energyzero"])
            return "accepted"
        } catch {
            return error.description
        }
    }

    @Test func secretsLeaveURLsAndQuotesInEveryEncoding() {
        let cases = [
            ("https://alice:pw@host/p.json?api_key=k1&day=1#top", "https://[redacted]@host/p.json?api_key=[redacted]&day=1#top"),
            (
                "http://host:8080/p?securityToken=t&X-Api-Key=k&api%5Fkey=k2&sig=s",
                "http://host:8080/p?securityToken=[redacted]&X-Api-Key=[redacted]&api%5Fkey=[redacted]&sig=[redacted]"
            ),
            ("https://u@host/a@b?x=1", "https://[redacted]@host/a@b?x=1"),
            ("file:///srv/prices.json", "file:///srv/prices.json"),
            ("custom/https://host/p?password=x", "custom/https://host/p?password=[redacted]"),
            ("no url here", "no url here"),
        ]
        for (url, shown) in cases { #expect(URLRedaction.redacted(url) == shown, "\(url)") }
        var settings = Settings.defaults
        settings.customURL = "https://alice:pw@host/p.json?token=abc"
        #expect(!settings.shownJSON.contains("pw") && !settings.shownJSON.contains("abc"))
        #expect(settings.json.contains("alice:pw@"), "the store keeps the address as given")

        // A server that quotes the request back: the token in every form it may take there.
        let token = "ab/c+d=e f~1"
        let quoted = "as given \(token), encoded ab%2Fc%2Bd%3De%20f~1, lower ab%2fc%2bd%3de%20f~1, form ab%2Fc%2Bd%3De+f~1"
        let cleaned = Quote.redacting([token], in: quoted)
        #expect(cleaned == "as given [redacted], encoded [redacted], lower [redacted], form [redacted]", "\(cleaned)")
    }

    @Test func aKeyGivenTwiceIsRefusedAndNamed() throws {
        let twice = #"{"jobs":{"dishwasher":{"duration":60,"earliest":"08:00","deadline":"18:00"},"dishwasher":{"duration":120}}}"#
        #expect(refusal(twice).hasPrefix(#"the key "jobs.dishwasher" is given twice"#), "\(refusal(twice))")
        #expect(refusal(#"{"green_max":0.1,"green_max":0.2}"#).hasPrefix(#"the key "green_max" is given twice"#))
        #expect(plainRefusal("jobs", #"{"a":{"duration":60},"a":null}"#).hasPrefix(#"the key "a" is given twice"#))
        // Through a profile, and in the first profile's `profiles`.
        for (payload, profile, key) in [
            (#"{"profiles":{"x":{"vat_percent":1},"x":null}}"#, Profiles.firstName, "profiles.x"),
            (#"{"vat_percent":1,"vat_percent":2}"#, "export", "vat_percent"),
        ] {
            #expect {
                try SettingsUpdate.parse(object: Array(payload.utf8), sources: ["energyzero"], profile: profile)
            } throws: { "\($0)".contains(#"the key "\#(key)" is given twice"#) }
        }
        // The same keys in different objects are no duplicates, and every source's answer is held
        // to the rule too.
        #expect(
            refusal(
                #"{"jobs":{"a":{"duration":60,"earliest":"08:00","deadline":"18:00"},"b":{"duration":60,"earliest":"08:00","deadline":"18:00"}}}"#
            ) == "accepted")
        #expect(JSONValue.parse(Array(#"[{"a":1},{"a":1,"b":{"a":2,"a":3}}]"#.utf8)) == nil)
        #expect(JSONValue.duplicateKey(in: Array(#"[{"a":1},{"a":1,"b":{"a":2,"a":3}}]"#.utf8)) == "b.a")
    }

    @Test func valuesAreQuotedOnceAndExactly() {
        let day = refusal(#"{"grid_fee":{"default":0.05,"periods":[{"from":"17:00","to":"21:00","fee":0.1,"days":["monday"]}]}}"#)
        #expect(day.contains(#"got "monday""#) && !day.contains(#"""monday"""#), "\(day)")
        let whole = refusal(#"{"history_days":7.0000001}"#)
        #expect(whole.contains("got 7.0000001"), "\(whole)")
        let huge = refusal(#"{"grid_fee":{"default":0.05,"periods":[{"from":"17:00","to":"21:00","fee":0.1,"months":[1e400]}]}}"#)
        #expect(huge.contains("got a number too large to hold") && !huge.contains("null"), "\(huge)")
        let beyond = refusal(#"{"green_max":10.00000049}"#)
        #expect(beyond == "accepted", "rounds to 10, within range")
        let over = refusal(#"{"green_max":10.0000006}"#)
        #expect(over.contains("got 10.0000006"), "\(over)")
        #expect(plainRefusal("green_max", "0x1p3").contains(#"got "0x1p3""#))
        #expect(plainRefusal("green_max", "1e400") == "green_max must be a finite number")
        let time = refusal(#"{"grid_fee":{"default":0.05,"periods":[{"from":"7\"pm","to":"21:00","fee":0.1}]}}"#)
        #expect(time.contains(#"got "7\"pm""#), "\(time)")
    }
}
