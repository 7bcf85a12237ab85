extension UInt8 {
    /// The ASCII hexadecimal digit of this byte's low four bits, upper or lower case: written in
    /// place, where a digit picked from a string of digits first made an array of `Character`s.
    package func hexDigit(uppercase: Bool) -> UInt8 {
        let nibble = self & 0xF
        guard nibble >= 10 else { return UInt8(ascii: "0") + nibble }
        return (uppercase ? UInt8(ascii: "A") : UInt8(ascii: "a")) + nibble - 10
    }

    /// Whether this byte is an ASCII hexadecimal digit, upper or lower case.
    package var isHexDigit: Bool { (0x30...0x39).contains(self) || (0x41...0x46).contains(self) || (0x61...0x66).contains(self) }
}
