/// What the broker holds on one topic, as far as the daemon needs to know it: the payload itself
/// when it is short, else its length and a hash of its bytes, which tell a changed payload from
/// the same one without keeping it.
///
/// A week of quarter-hour forecasts makes `prices/forecast` about 128 KB and `forecast/evcc` about
/// 64 KB per profile; kept as text, forty profiles held megabytes that only ever served to compare
/// the next rendering with. The hash is Swift's `Hasher` (SipHash with a key drawn per process), so
/// no payload can be made to collide on purpose; by chance, two payloads of the same length
/// collide once in 2⁶⁴.
package struct HeldPayload: Hashable, Sendable {
    private enum Form: Hashable {
        case text(String)
        case digest(count: Int, hash: Int)
    }

    private let form: Form

    /// Payloads longer than this many bytes are held as a digest: longer than any payload of a
    /// day without a forecast at quarter hours (`prices/today` is about 6 KB), so that those are
    /// compared as before, without hashing them.
    package static let longest = 16 * 1024

    /// What holding `payload` keeps.
    package init(_ payload: String) {
        let count = payload.utf8.count
        guard count > Self.longest else {
            form = .text(payload)
            return
        }
        var hasher = Hasher()
        var payload = payload
        payload.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        form = .digest(count: count, hash: hasher.finalize())
    }

    /// The payload, when it is short enough to be held as text; nil for a digest.
    package var text: String? {
        if case let .text(text) = form { text } else { nil }
    }
}
