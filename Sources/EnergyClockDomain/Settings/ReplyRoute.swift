/// Where to send the answer to one settings request, besides the common result topic.
public struct ReplyRoute: Sendable, Hashable {
    /// The requester's own reply address.
    public var address: String
    /// Opaque data the requester wants echoed.
    public var correlation: [UInt8]?

    /// A route to `address`, echoing `correlation`.
    public init(address: String, correlation: [UInt8]?) {
        self.address = address
        self.correlation = correlation
    }
}
