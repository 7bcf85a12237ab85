import EnergyClockDomain
import EnergyClockSupport
import EnergyClockTesting
import Foundation
import Testing

@Suite struct JSONTests {
    @Test(arguments: [
        ("true", JSONValue.bool(true)), ("null", .null), ("-0.5e2", .number(-50)), ("0", .number(0)),
        (#""a\"b\\c\/\n\u00e9\ud83d\ude00""#, .string("a\"b\\c/\né😀")),
        (#" { "k" : [1, "x", false, {}] } "#, .object(["k": .array([.number(1), .string("x"), .bool(false), .object([:])])])),
        ("[]", .array([])),
    ])
    func parsesValidJSON(text: String, expected: JSONValue) {
        #expect(JSONValue.parse(Array(text.utf8)) == expected)
    }

    @Test(arguments: [
        "", "tru", "01", "1.", ".5", "+1", "[1,]", "{\"a\":1,}", "{a:1}", "\"\u{1}\"", "[1] 2", "\"\\x\"",
        "\"\\ud83d\"", "NaN", "[" + String(repeating: "[", count: 300) + String(repeating: "]", count: 301),
    ])
    func rejectsInvalidJSON(text: String) {
        #expect(JSONValue.parse(Array(text.utf8)) == nil)
    }

    @Test func quotedStringsReadBackAsWrittenWhateverTheyHold() throws {
        // Runs of plain bytes are copied whole between escapes: escapes first, last, side by side
        // and alone, control characters, quotes, backslashes and multi-byte characters.
        let pieces = ["a", "plain text", "\"", "\\", "\n", "\r", "\t", "\u{0}", "\u{1F}", "\u{7F}", "é", "😀", "/", " "]
        var random = SeededRandom(seed: 23)
        var strings = ["", "\"", "\"\"", "\\x\\", "x\u{1}", "\u{1}x"]
        for _ in 0..<500 {
            strings.append((0..<Int.random(in: 1...8, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined())
        }
        for string in strings {
            let quoted = JSONWriter.quoted(string)
            #expect(JSONValue.parse(Array(quoted.utf8)) == .string(string), "\(quoted)")
            let theirs = try JSONSerialization.jsonObject(with: Data("[\(quoted)]".utf8)) as? [String]
            #expect(theirs == [string], "\(quoted)")
            #expect(!quoted.utf8.dropFirst().dropLast().contains { $0 < 0x20 }, "\(quoted)")
        }
        #expect(JSONWriter.quoted("\u{0}\u{1}\u{B}\u{1F}") == #""\u0000\u0001\u000b\u001f""#)
    }

    @Test func everyByteIsEscapedOrNotAtEveryPlaceInAWord() {
        // The search reads eight bytes at a time: each ASCII byte and a multi-byte character, at
        // every place of three words and the bytes after them, alone and after a control character
        // whose borrow could mark the bytes above it.
        func escaped(_ text: String) -> String {
            var out = "\""
            for scalar in text.unicodeScalars {
                switch scalar {
                case "\"": out += "\\\""
                case "\\": out += "\\\\"
                case "\n": out += "\\n"
                case "\r": out += "\\r"
                case "\t": out += "\\t"
                case _ where scalar.value < 0x20: out += "\\u00" + (scalar.value < 0x10 ? "0" : "") + String(scalar.value, radix: 16)
                default: out.unicodeScalars.append(scalar)
                }
            }
            return out + "\""
        }
        let characters = (0..<0x80).map { String(UnicodeScalar(UInt8($0))) } + ["é", "😀", "\u{80}", "\u{FF}"]
        for character in characters {
            for length in [1, 7, 8, 9, 15, 16, 17, 24, 27] {
                for place in 0..<length {
                    for before in ["", "\u{0}", "\u{1F}"] where place > 0 || before.isEmpty {
                        var pieces = Array(repeating: "a", count: length)
                        pieces[place] = character
                        if !before.isEmpty { pieces[place - 1] = before }
                        let text = pieces.joined()
                        #expect(JSONWriter.quoted(text) == escaped(text), "\(Array(text.utf8)) at \(place)")
                    }
                }
            }
        }
    }

    @Test func agreesWithFoundationOnTheFixtures() throws {
        for name in ["electricity_quarter_response.json", "electricity_hour_response.json", "gas_day_response.json", "error_response.json"]
        {
            let bytes = fixture(name)
            let ours = try #require(JSONValue.parse(bytes))
            let theirs = try JSONSerialization.jsonObject(with: Data(bytes))
            #expect(Self.same(ours, theirs), "\(name)")
        }
    }

    static func same(_ ours: JSONValue, _ theirs: Any) -> Bool {
        switch ours {
        case .null: return theirs is NSNull
        case let .string(s): return (theirs as? String) == s
        case let .number(n): return (theirs as? NSNumber)?.doubleValue == n
        case let .bool(b): return (theirs as? Bool) == b
        case let .array(items):
            guard let list = theirs as? [Any], list.count == items.count else { return false }
            return zip(items, list).allSatisfy { same($0, $1) }
        case let .object(members):
            guard let dict = theirs as? [String: Any], dict.count == members.count else { return false }
            return members.allSatisfy { key, value in dict[key].map { same(value, $0) } ?? false }
        }
    }

    /// Times written straight into a JSON text read as `ISO8601.local` writes them, round a
    /// daylight-saving night, at the first and last writable instants (year 0 or 10000 in local
    /// time falls back to seconds), and for instants that are no time at all.
    @Test func timesWrittenInPlaceAreTheISOTextEscapedAsAString() throws {
        let tokyo = try #require(LocalCalendar(identifier: "Asia/Tokyo"))
        let honolulu = try #require(LocalCalendar(identifier: "Pacific/Honolulu"))
        let instants = [
            at("2026-10-25T00:00:00Z"), at("2026-10-25T01:00:00Z"), at("2026-03-29T00:59:59Z"), at("2026-03-29T01:00:00Z"),
            at("1970-01-01T00:00:00Z"), at("1969-12-31T23:59:59Z"), Date(timeIntervalSince1970: 1_765_839_600.75),
            Date(timeIntervalSince1970: -62_135_596_800), Date(timeIntervalSince1970: 253_402_300_799),
            Date(timeIntervalSince1970: .nan), Date(timeIntervalSince1970: .infinity), Date(timeIntervalSince1970: -1e300),
        ]
        for calendar in [amsterdam, tokyo, honolulu, LocalCalendar(identifier: "UTC")!] {
            for instant in instants {
                var writer = JSONWriter()
                writer.beginArray()
                writer.time(instant, in: calendar)
                writer.time(nil, in: calendar)
                writer.endArray()
                let expected = ISO8601.local(instant, in: calendar)
                #expect(writer.output == "[\(JSONWriter.quoted(expected)),null]", "\(instant) in \(calendar)")
                #expect(JSONValue.parse(Array(writer.output.utf8)) == .array([.string(expected), .null]))
            }
        }
        #expect(ISO8601.local(Date(timeIntervalSince1970: 253_402_300_799), in: tokyo).hasSuffix("s since 1970-01-01T00:00:00Z"))
        #expect(ISO8601.local(Date(timeIntervalSince1970: -62_135_596_800), in: tokyo) == "0001-01-01T09:18:59+09:18")
        #expect(ISO8601.local(Date(timeIntervalSince1970: -62_135_596_800), in: honolulu).hasSuffix("s since 1970-01-01T00:00:00Z"))
        #expect(ISO8601.local(at("2026-10-25T00:30:00Z"), in: amsterdam) == "2026-10-25T02:30:00+02:00")
    }
}
