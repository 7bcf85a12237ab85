import Foundation
import Testing

@testable import EnergyClockDomain

/// A secret is masked in whatever form a server writes it back, and only the secret is.
@Suite struct SecretRedactionTests {
    static let token = "Tk+/x=y&z~ä 1"

    /// The token as it is sent: each name and value percent-encoded strictly.
    @Test func queryValuesAreEncodedStrictly() {
        #expect(QueryString.component(Self.token) == "Tk%2B%2Fx%3Dy%26z~%C3%A4%201")
        #expect(
            QueryString.encoded([("securityToken", Self.token), ("a b", "c:d@e")])
                == "securityToken=Tk%2B%2Fx%3Dy%26z~%C3%A4%201&a%20b=c%3Ad%40e")
        // Every unreserved byte stays, every other is encoded.
        let all = String(decoding: (0x20...0x7E).map { UInt8($0) }, as: UTF8.self)
        let encoded = QueryString.component(all)
        #expect(encoded.utf8.allSatisfy { QueryString.isUnreserved($0) || $0 == UInt8(ascii: "%") })
        #expect(URLRedaction.percentDecoded(encoded) == all)
    }

    @Test func everyFormAServerMayQuoteIsMasked() {
        let forms = [
            Self.token,  // as given
            "Tk%2B%2Fx%3Dy%26z~%C3%A4%201",  // as sent
            "Tk%2b%2fx%3dy%26z~%c3%a4%201",  // lower-case hex
            "Tk+/x%3Dy%26z~%C3%A4+1",  // Foundation's query encoding, with + for the space
            "Tk%252B%252Fx%253Dy%2526z~%25C3%25A4%25201",  // encoded twice
            #"Tk+\/x=y\u0026z~ä 1"#,  // JSON
            "Tk&#43;/x=y&amp;z~ä&#x20;1",  // HTML
            "Tk%2B/x=y&amp;z\\u007E%C3%A4+1",  // all of them at once
        ]
        for form in forms {
            let text = "Bad request /api?securityToken=\(form)&documentType=A44 with \(form)."
            let cleaned = Quote.redacting([Self.token], in: text)
            #expect(cleaned == "Bad request /api?securityToken=[redacted]&documentType=A44 with [redacted].", "\(form) → \(cleaned)")
        }
    }

    @Test func aSecretCutShortIsMaskedWhereItBegins() {
        let token = "abcdefgh12345678"
        #expect(Quote.redacting([token], in: "the token abcdefgh1") == "the token [redacted]")
        #expect(Quote.redacting([token], in: "Quoted: abcdefgh12… (300 bytes)") == "Quoted: [redacted]… (300 bytes)")
        #expect(Quote.redacting([token], in: "Quoted: ab… (300 bytes)") == "Quoted: [redacted]… (300 bytes)", "a cut marks it")
        #expect(
            Quote.redacting([token], in: Quote.clip("x" + String(repeating: " ", count: 185) + token, limit: 194)).contains("[redacted]"))
        // A short beginning elsewhere is ordinary text, and a secret too short is not looked for.
        #expect(Quote.redacting([token], in: "abc is not it; abcdefg1 neither") == "abc is not it; abcdefg1 neither")
        #expect(Quote.redacting(["abc"], in: "abc") == "abc")
        #expect(Quote.redacting([nil, token], in: "x \(token) y") == "x [redacted] y")
    }

    @Test func theWorstTextsCostLittle() {
        // Every byte an introducer of some form: each position is tried and given up at once.
        for text in [String(repeating: "%", count: 20_000), String(repeating: "%25", count: 6_000), String(repeating: "&#", count: 10_000)]
        {
            let started = ContinuousClock.now
            // Nothing of it is the secret but, at most, a beginning of it where the text ends.
            #expect(Quote.redacting(["%%%%%%%x"], in: text).hasPrefix(text.dropLast(24)))
            #expect(ContinuousClock.now - started < .seconds(5))
        }
        // A secret of introducers, in a text of them: masked, nothing left of it.
        let secret = "%&\\+%&\\+"
        let text = "a " + QueryString.component(secret) + " b " + secret
        #expect(Quote.redacting([secret], in: text) == "a [redacted] b [redacted]")
    }
}
