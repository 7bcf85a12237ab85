import FoundationEssentials
import MQTTClient

extension Configuration {
    /// TLS from the `--mqtt-tls…` options: on when asked for, on port 8883, or when a CA or a
    /// certificate is given; every named file must be readable now, not at the first connect.
    static func tls(_ options: ParsedOptions, port: Int, environment: [String: String]) throws(UsageError) -> MQTTTLS? {
        let caFile = try readable(options, "mqtt-ca-file", directory: false)
        let caPath = try readable(options, "mqtt-ca-path", directory: true)
        let certFile = try readable(options, "mqtt-cert-file", directory: false)
        let keyFile = try readable(options, "mqtt-key-file", directory: false)
        let insecure = try options.flag("mqtt-tls-insecure")
        let named = [caFile, caPath, certFile, keyFile].contains { $0 != nil } || insecure
        let enabled = options["mqtt-tls"] != nil ? try options.flag("mqtt-tls") : port == 8883 || named
        guard enabled else {
            if named { throw UsageError("\(options.origin("mqtt-tls")) is false, but TLS options are given; remove one or the other") }
            return nil
        }
        guard (certFile == nil) == (keyFile == nil) else {
            throw UsageError("--mqtt-cert-file and --mqtt-key-file go together: give both, or neither")
        }
        return MQTTTLS(
            caFile: caFile, caPath: caPath, certFile: certFile, keyFile: keyFile,
            keyPassword: try secret(
                options, file: "mqtt-key-password-file", variable: "ENERGYCLOCK_MQTT_KEY_PASSWORD", environment: environment),
            insecure: insecure
        )
    }

    /// The path given for `name`, checked to be a readable file (or directory).
    private static func readable(_ options: ParsedOptions, _ name: String, directory: Bool) throws(UsageError) -> String? {
        guard let path = options[name] else { return nil }
        var isDirectory = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw UsageError("\(options.origin(name)): \(path) does not exist")
        }
        guard isDirectory == directory else {
            throw UsageError("\(options.origin(name)): \(path) is \(directory ? "a file, not a directory" : "a directory, not a file")")
        }
        guard FileManager.default.isReadableFile(atPath: path) else {
            throw UsageError("\(options.origin(name)): cannot read \(path)")
        }
        return path
    }
}
