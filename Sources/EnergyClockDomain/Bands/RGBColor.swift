/// A 24-bit colour.
public struct RGBColor: Sendable, Hashable {
    /// Red, 0…255.
    public var red: UInt8
    /// Green, 0…255.
    public var green: UInt8
    /// Blue, 0…255.
    public var blue: UInt8

    /// A colour from its three channels.
    public init(red: UInt8, green: UInt8, blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// `#RRGGBB`, upper case.
    public var hex: String {
        // Seven bytes: a small string, made without an allocation (it is written for every slot
        // of a day's payloads).
        String(unsafeUninitializedCapacity: 7) { text in
            text[0] = UInt8(ascii: "#")
            for (index, channel) in [red, green, blue].enumerated() {
                text[1 + 2 * index] = (channel >> 4).hexDigit(uppercase: true)
                text[2 + 2 * index] = channel.hexDigit(uppercase: true)
            }
            return 7
        }
    }

    /// `r,g,b` without spaces.
    public var rgb: String { "\(red),\(green),\(blue)" }

    /// A colour from `#RRGGBB` (upper or lower case), or nil.
    public init?(hex text: String) {
        let digits = Array(text.utf8)
        guard digits.count == 7, digits[0] == UInt8(ascii: "#"), digits.dropFirst().allSatisfy({ $0.isHexDigit }) else { return nil }
        var channels: [UInt8] = []
        for i in stride(from: 1, to: 7, by: 2) {
            guard let value = UInt8(String(decoding: digits[i...(i + 1)], as: UTF8.self), radix: 16) else { return nil }
            channels.append(value)
        }
        self.init(red: channels[0], green: channels[1], blue: channels[2])
    }
}
