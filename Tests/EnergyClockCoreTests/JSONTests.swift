import EnergyClockCore
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
}
