import Synchronization

/// What the broker holds on one topic, as far as the daemon needs to know it: the payload itself
/// when it is short; for a long one, which rendering of its ``Rendered`` it was, or else its length
/// and a hash of its bytes. Either tells a changed payload from the same one without keeping it.
///
/// A week of quarter-hour forecasts makes `prices/forecast` about 128 KB and `forecast/evcc` about
/// 64 KB per profile; kept as text, forty profiles held megabytes that only ever served to compare
/// the next rendering with. A rendering is numbered, not hashed: on one-second slots the forecasts
/// are rendered anew every second, and hashing them cost a tenth of a boundary. A new rendering
/// counts as changed, as it nearly always is (its input changed). The hash is Swift's `Hasher`
/// (SipHash with a key drawn per process), so no payload can be made to collide on purpose; by
/// chance, two payloads of the same length collide once in 2⁶⁴.
package struct HeldPayload: Hashable, Sendable {
    private enum Form: Hashable {
        case text(String)
        case digest(count: Int, hash: Int)
        case rendering(Int)
    }

    /// The number of the last long rendering, unique in the process.
    private static let renderings = Atomic<Int>(0)

    private let form: Form

    /// Payloads longer than this many bytes are held as a digest: longer than any payload of a
    /// day without a forecast at quarter hours (`prices/today` is about 6 KB), so that those are
    /// compared as before, without hashing them.
    package static let longest = 16 * 1024

    private init(_ form: Form) { self.form = form }

    /// What holding `payload`, a new rendering, keeps: its text when short, else a number no other
    /// rendering has.
    package static func rendering(_ payload: String) -> HeldPayload {
        guard payload.utf8.count > longest else { return HeldPayload(.text(payload)) }
        return HeldPayload(.rendering(renderings.add(1, ordering: .relaxed).newValue))
    }

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
