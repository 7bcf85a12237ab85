/// Reads the binary TZif format (RFC 8536), versions 1 to 4.
enum TZif {
    /// What ``TimeZoneRules`` keeps from a file.
    struct Contents {
        var transitions: [Int64]
        var offsets: [Int32]
        var initialOffset: Int32
        var rule: PosixTimeZone?
    }

    /// The transitions and rule of a TZif file, or nil when the bytes are not one.
    static func parse(_ bytes: [UInt8]) -> Contents? {
        guard let first = Header(bytes, at: 0) else { return nil }
        guard first.version >= 2 else { return first.contents(bytes, at: 44, timeSize: 4) }
        // Version 2 and later repeat the data with 64-bit times, then a POSIX rule for later instants.
        let second = 44 + first.dataSize(timeSize: 4)
        guard let header = Header(bytes, at: second) else { return nil }
        let data = second + 44
        guard var contents = header.contents(bytes, at: data, timeSize: 8) else { return nil }
        let footer = data + header.dataSize(timeSize: 8)
        if footer < bytes.count, bytes[footer] == 0x0A, let end = bytes[(footer + 1)...].firstIndex(of: 0x0A), end > footer + 1 {
            guard let rule = PosixTimeZone(String(decoding: bytes[(footer + 1)..<end], as: UTF8.self)) else { return nil }
            contents.rule = rule
        }
        return contents
    }

    private struct Header {
        let version: UInt8
        let isUTCCount, isStandardCount, leapCount, timeCount, typeCount, characterCount: Int

        init?(_ bytes: [UInt8], at offset: Int) {
            guard offset + 44 <= bytes.count, bytes[offset..<(offset + 4)].elementsEqual("TZif".utf8) else { return nil }
            version = bytes[offset + 4] == 0 ? 1 : bytes[offset + 4] &- 0x30
            func count(_ index: Int) -> Int { Int(TZif.integer(bytes, at: offset + 20 + 4 * index, size: 4)) }
            (isUTCCount, isStandardCount, leapCount) = (count(0), count(1), count(2))
            (timeCount, typeCount, characterCount) = (count(3), count(4), count(5))
        }

        func dataSize(timeSize: Int) -> Int {
            timeCount * (timeSize + 1) + typeCount * 6 + characterCount + leapCount * (timeSize + 4) + isStandardCount
                + isUTCCount
        }

        func contents(_ bytes: [UInt8], at data: Int, timeSize: Int) -> Contents? {
            guard typeCount > 0, timeCount >= 0, data + dataSize(timeSize: timeSize) <= bytes.count else { return nil }
            let typesAt = data + timeCount * timeSize
            let infoAt = typesAt + timeCount
            var typeOffsets: [Int32] = []
            var typeIsDST: [Bool] = []
            for type in 0..<typeCount {
                typeOffsets.append(Int32(truncatingIfNeeded: TZif.integer(bytes, at: infoAt + 6 * type, size: 4)))
                typeIsDST.append(bytes[infoAt + 6 * type + 4] != 0)
            }
            var transitions: [Int64] = []
            var offsets: [Int32] = []
            for index in 0..<timeCount {
                let type = Int(bytes[typesAt + index])
                guard type < typeCount else { return nil }
                transitions.append(TZif.integer(bytes, at: data + index * timeSize, size: timeSize))
                offsets.append(typeOffsets[type])
            }
            guard zip(transitions, transitions.dropFirst()).allSatisfy({ $0 < $1 }) else { return nil }
            // RFC 8536: type 0 applies before the first transition.
            return Contents(transitions: transitions, offsets: offsets, initialOffset: typeOffsets[0], rule: nil)
        }
    }

    /// A big-endian two's-complement integer of `size` bytes.
    static func integer(_ bytes: [UInt8], at offset: Int, size: Int) -> Int64 {
        var value: UInt64 = 0
        for byte in bytes[offset..<(offset + size)] { value = value << 8 | UInt64(byte) }
        let shift = UInt64(64 - 8 * size)
        return Int64(bitPattern: value << shift) >> shift
    }
}
