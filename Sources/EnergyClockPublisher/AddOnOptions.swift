import EnergyClockDomain
import EnergyClockSources
import EnergyClockSupport
import FoundationEssentials
import Platform

/// A Home Assistant add-on's options: its `/data/options.json`, and the broker the Supervisor's
/// MQTT service names, read as `ENERGYCLOCK_*` variables; variables already set and flags win.
public enum AddOnOptions {
    /// Why options could not be read; `description` says what to fix.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        /// What is wrong.
        public let description: String

        init(_ description: String) { self.description = description }
    }

    /// The file's keys and the variables they set; `settings` keys become one `ENERGYCLOCK_SETTINGS` object.
    package static let variables: [String: String] = [
        "mqtt_host": "ENERGYCLOCK_MQTT_HOST", "mqtt_port": "ENERGYCLOCK_MQTT_PORT", "mqtt_username": "ENERGYCLOCK_MQTT_USERNAME",
        "mqtt_password": "ENERGYCLOCK_MQTT_PASSWORD", "mqtt_tls": "ENERGYCLOCK_MQTT_TLS", "topic_prefix": "ENERGYCLOCK_TOPIC_PREFIX",
        "timezone": "ENERGYCLOCK_TIMEZONE", "entsoe_token": "ENERGYCLOCK_ENTSOE_TOKEN",
        "tibber_token": "ENERGYCLOCK_TIBBER_TOKEN", "energyforecast_token": "ENERGYCLOCK_ENERGYFORECAST_TOKEN",
        "energypriceforecast_key": "ENERGYCLOCK_ENERGYPRICEFORECAST_KEY", "leds": "ENERGYCLOCK_LED",
        "ha_discovery": "ENERGYCLOCK_HA_DISCOVERY", "log_level": "ENERGYCLOCK_LOG_LEVEL", "clock_image": "ENERGYCLOCK_CLOCK_IMAGE",
        "state_dir": "ENERGYCLOCK_STATE_DIR",
    ]
    /// The largest options file read.
    package static let maxFileBytes = 1 << 20

    /// Keys that are settings, applied at start as on `settings/set`.
    package static let settings = Set(SettingDescriptor.all.filter(\.inAddOnOptions).map(\.field.rawValue))

    /// `environment` with what the file at `path` sets added; an empty value in the file is left out.
    package static func merge(_ path: String, into environment: [String: String]) throws(Failure) -> [String: String] {
        switch RegularFile.read(path, limit: maxFileBytes, timeout: 2) {
        case let .success(bytes):
            do {
                return try Self.environment(fromOptions: bytes, into: environment)
            } catch {
                throw Failure("the options file \(path): \(error)")
            }
        case let .failure(failure): throw Failure("cannot read the options file: \(failure)")
        }
    }

    /// `environment` with what the options document `data` sets added; an empty value is left out.
    public static func environment(fromOptions data: [UInt8], into environment: [String: String]) throws(Failure) -> [String: String] {
        guard case let .object(members)? = JSONValue.parse(data) else { throw Failure("not a JSON object") }
        var merged = environment
        var initial: [String: JSONValue] = [:]
        for (key, value) in members.sorted(by: { $0.key < $1.key }) {
            if settings.contains(key) {
                if value != .null, value != .string("") { initial[key] = value }
                continue
            }
            guard let variable = variables[key] else { throw Failure("unknown option \(Quote.json(key, limit: 60))") }
            let text: String
            switch value {
            case .null: continue
            case let .string(s): text = s
            case let .number(n): text = n == n.rounded() && abs(n) < 1e15 ? String(Int(n)) : String(n)
            case let .bool(b): text = b ? "true" : "false"
            case let .array(items):
                text = items.compactMap { if case let .string(s) = $0 { s } else { nil } }.joined(separator: ",")
            case .object: throw Failure("\(Quote.json(key, limit: 60)) must not be an object")
            }
            if !text.isEmpty, merged[variable] == nil { merged[variable] = text }
        }
        // Home Assistant gives add-ons the system's zone in TZ.
        if merged["ENERGYCLOCK_TIMEZONE"] == nil, let zone = environment["TZ"], LocalCalendar(identifier: zone) != nil {
            merged["ENERGYCLOCK_TIMEZONE"] = zone
        }
        if !initial.isEmpty, merged["ENERGYCLOCK_SETTINGS"] == nil {
            var w = JSONWriter()
            w.beginObject()
            for (key, value) in initial.sorted(by: { $0.key < $1.key }) {
                w.key(key)
                w.raw(value.json)
            }
            w.endObject()
            merged["ENERGYCLOCK_SETTINGS"] = w.output
        }
        return merged
    }

    /// With a Supervisor token and no broker given, the broker of Home Assistant's MQTT service.
    ///
    /// `GET <supervisor>/services/mqtt` answers `{"result":"ok","data":{"host","port","ssl","username","password"}}`.
    package static func supervisorBroker(into environment: [String: String]) async throws(Failure) -> [String: String] {
        guard let token = environment["SUPERVISOR_TOKEN"], !token.isEmpty, environment["ENERGYCLOCK_MQTT_HOST"] == nil else {
            return environment
        }
        let base = environment["ENERGYCLOCK_SUPERVISOR_URL"] ?? "http://supervisor"
        guard let url = URL(string: base + "/services/mqtt") else { throw Failure("ENERGYCLOCK_SUPERVISOR_URL is not a URL") }
        var answer: HTTPResponse?
        var lastError: HTTPError?
        // The Supervisor may still be starting when the add-on does: three tries, two seconds apart.
        for attempt in 1...3 {
            do {
                answer = try await HTTPClient(timeout: 10, maxBodyBytes: 64 << 10).get(url, headers: ["Authorization: Bearer \(token)"])
                break
            } catch {
                lastError = error
                if attempt < 3 { await MonotonicSleep.pause(seconds: 2) }
            }
        }
        guard let response = answer else {
            throw Failure(
                "could not ask the Supervisor for the MQTT broker: \(lastError.map { "\($0)" } ?? "no answer"); set mqtt_host in the options"
            )
        }
        return try broker(fromSupervisorAnswer: response.body, status: response.status, into: environment)
    }

    /// `environment` with the broker that the Supervisor's answer `body` (with HTTP `status`)
    /// names: host, a port from 1 to 65535, TLS, and a login unless one is set already.
    public static func broker(fromSupervisorAnswer body: [UInt8], status: Int, into environment: [String: String]) throws(Failure)
        -> [String: String]
    {
        guard status == 200, case let .object(root)? = JSONValue.parse(body), case let .object(data)? = root["data"],
            case let .string(host)? = data["host"], !host.isEmpty
        else {
            throw Failure(
                "the Supervisor has no MQTT service (HTTP \(status)); install the Mosquitto add-on or set mqtt_host in the options")
        }
        var merged = environment
        merged["ENERGYCLOCK_MQTT_HOST"] = host
        switch data["port"] {
        case nil, .null?: break
        case let .number(number)?:
            guard let port = Bounded.integer(number, in: 1...65_535) else {
                throw Failure("the Supervisor's MQTT service gave the port \(Quote.number(number)), not a port from 1 to 65535")
            }
            merged["ENERGYCLOCK_MQTT_PORT"] = String(port)
        case let other?:
            throw Failure("the Supervisor's MQTT service gave \(other.typeName) as the port, not a number")
        }
        if case let .string(user)? = data["username"], !user.isEmpty, merged["ENERGYCLOCK_MQTT_USERNAME"] == nil {
            merged["ENERGYCLOCK_MQTT_USERNAME"] = user
        }
        if case let .string(password)? = data["password"], !password.isEmpty, merged["ENERGYCLOCK_MQTT_PASSWORD"] == nil {
            merged["ENERGYCLOCK_MQTT_PASSWORD"] = password
        }
        if case .bool(true)? = data["ssl"] { merged["ENERGYCLOCK_MQTT_TLS"] = "true" }
        return merged
    }
}
