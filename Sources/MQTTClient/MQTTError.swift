import CMosquitto

/// A libmosquitto call that failed, with the library's own explanation.
public struct MQTTError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The operation, e.g. `publish to energyclock/price`.
    public var operation: String
    /// libmosquitto's error code.
    public var code: Int32
    /// `mosquitto_strerror` of the code.
    public var message: String

    init(_ operation: String, code: Int32) {
        self.operation = operation
        self.code = code
        message = String(cString: mosquitto_strerror(code))
    }

    /// The client is not connected, so the call did nothing.
    public var isNotConnected: Bool { code == Int32(MOSQ_ERR_NO_CONN.rawValue) }

    /// `mqtt: could not <operation>: <message>`.
    public var description: String { "mqtt: could not \(operation): \(message)" }
}
