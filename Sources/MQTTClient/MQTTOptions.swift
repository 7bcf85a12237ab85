/// The MQTT protocol version to speak.
public enum MQTTVersion: String, Sendable, CaseIterable {
    /// MQTT 5: response topics and correlation data.
    case v5 = "5"
    /// MQTT 3.1.1, for older brokers.
    case v311 = "3.1.1"
}

/// A message the broker should publish if the client vanishes.
public struct MQTTWill: Sendable {
    /// Topic of the will.
    public var topic: String
    /// Payload of the will.
    public var payload: [UInt8]
    /// Whether the broker retains it.
    public var retain: Bool

    /// A will on `topic`.
    public init(topic: String, payload: [UInt8], retain: Bool = true) {
        self.topic = topic
        self.payload = payload
        self.retain = retain
    }
}

/// TLS for the broker connection; libmosquitto (OpenSSL) does the work.
public struct MQTTTLS: Sendable, Equatable {
    /// PEM file of the CA certificates to trust; with neither this nor ``caPath``, the system's store.
    public var caFile: String?
    /// Directory of hashed CA certificates to trust.
    public var caPath: String?
    /// PEM client certificate, for brokers that ask for one (mutual TLS).
    public var certFile: String?
    /// PEM private key of ``certFile``.
    public var keyFile: String?
    /// Passphrase of an encrypted ``keyFile``; never logged.
    public var keyPassword: String?
    /// Skip the check that the broker's certificate names the host connected to.
    public var insecure: Bool

    /// The system's CA store, trusted when neither ``caFile`` nor ``caPath`` is given.
    public static let systemCAPath = "/etc/ssl/certs"

    /// TLS trusting `caFile`/`caPath` (or the system's store), with an optional client certificate.
    public init(
        caFile: String? = nil, caPath: String? = nil, certFile: String? = nil, keyFile: String? = nil,
        keyPassword: String? = nil, insecure: Bool = false
    ) {
        self.caFile = caFile
        self.caPath = caPath
        self.certFile = certFile
        self.keyFile = keyFile
        self.keyPassword = keyPassword
        self.insecure = insecure
    }
}

/// One broker address.
public struct MQTTBroker: Sendable, Equatable, CustomStringConvertible {
    /// Host name or address.
    public var host: String
    /// Port: 1883 for plain MQTT, 8883 for TLS by convention.
    public var port: Int

    /// The broker at `host`:`port`.
    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    /// `host:port`, with an IPv6 address in brackets.
    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}

/// How to reach and identify with a broker.
public struct MQTTOptions: Sendable {
    /// Broker host name or address: the first one tried.
    public var host: String
    /// Broker port: 1883 for plain MQTT, 8883 for TLS by convention.
    public var port: Int
    /// Further brokers of the same cluster or a standby, tried in turn after ``host`` when a
    /// connection fails or drops; the client stays with the one that answers.
    public var standbys: [MQTTBroker] = []
    /// The client id; unique per connection on one broker.
    public var clientID: String
    /// User name, if the broker requires one.
    public var username: String?
    /// Password, if the broker requires one; never logged.
    public var password: String?
    /// The protocol version to speak; MQTT 5 carries response topics and refusal reasons.
    public var version: MQTTVersion
    /// Keepalive interval in seconds.
    public var keepalive: Int
    /// Last Will.
    public var will: MQTTWill?
    /// First and longest pause between reconnect attempts, in seconds.
    public var reconnectDelay: (min: Int, max: Int)
    /// TLS, or nil for a plain TCP connection.
    public var tls: MQTTTLS?

    /// Every broker in the order tried: ``host`` first, then the ``standbys``.
    public var brokers: [MQTTBroker] { [MQTTBroker(host: host, port: port)] + standbys }

    /// Options with the common defaults: MQTT 5, 60 s keepalive, reconnecting after 1…30 s.
    public init(
        host: String = "localhost", port: Int = 1883, clientID: String, username: String? = nil,
        password: String? = nil, version: MQTTVersion = .v5, keepalive: Int = 60, will: MQTTWill? = nil,
        reconnectDelay: (min: Int, max: Int) = (1, 30), tls: MQTTTLS? = nil
    ) {
        self.tls = tls
        self.host = host
        self.port = port
        self.clientID = clientID
        self.username = username
        self.password = password
        self.version = version
        self.keepalive = keepalive
        self.will = will
        self.reconnectDelay = reconnectDelay
    }
}

/// A received message, copied out of libmosquitto's buffers.
public struct MQTTMessage: Sendable {
    /// The topic it was published on.
    public var topic: String
    /// The payload bytes.
    public var payload: [UInt8]
    /// Whether it came from the broker's retained store.
    public var retain: Bool
    /// MQTT 5 response topic, if the sender wants an answer.
    public var responseTopic: String?
    /// MQTT 5 correlation data to echo in the answer.
    public var correlationData: [UInt8]?

    /// A message from its parts.
    public init(topic: String, payload: [UInt8], retain: Bool = false, responseTopic: String? = nil, correlationData: [UInt8]? = nil) {
        self.topic = topic
        self.payload = payload
        self.retain = retain
        self.responseTopic = responseTopic
        self.correlationData = correlationData
    }

    /// The payload as UTF-8 text.
    public var text: String { String(decoding: payload, as: UTF8.self) }
}

/// What happens on the connection, in order.
@nonexhaustive
public enum MQTTEvent: Sendable {
    /// The broker accepted the connection (first time or after a reconnect).
    case connected
    /// The broker refused the connection, with its reason.
    case refused(String)
    /// There is no connection: it dropped, or could not be made. The client retries by itself.
    case connectionLost(String)
    /// A message arrived on a subscription.
    case message(MQTTMessage)
    /// The broker closed the connection right after accepting it, `count` times in a row: most
    /// often another client with the same client id takes the session over each time.
    case droppedRepeatedly(count: Int)
    /// The broker refused the QoS 1 publish `messageID` (MQTT 5 only: with 3.1.1 a broker that
    /// denies a publish still acknowledges it), for `reason`, e.g. "Not authorized".
    case publishRefused(messageID: Int32, reason: String)
}
