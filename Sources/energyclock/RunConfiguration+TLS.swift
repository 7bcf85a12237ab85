import FoundationEssentials
import MQTTClient

extension RunConfiguration {
    /// TLS from the `--mqtt-tls…` options: on when asked for, on port 8883, or when a CA or a
    /// certificate is given; every named file must be readable now, not at the first connect.
    static func tls(_ options: ParsedOptions, port: Int, environment: [String: String]) throws(UsageError) -> MQTTTLS? {
        let caFile = try readable(options, BrokerOptions.caFile, directory: false)
        let caPath = try readable(options, BrokerOptions.caPath, directory: true)
        let certFile = try readable(options, BrokerOptions.certFile, directory: false)
        let keyFile = try readable(options, BrokerOptions.keyFile, directory: false)
        let insecure = try options.value(BrokerOptions.tlsInsecure)
        let named = [caFile, caPath, certFile, keyFile].contains { $0 != nil } || insecure
        let enabled = try options.value(BrokerOptions.tls) ?? (port == 8883 || named)
        guard enabled else {
            if named {
                throw UsageError("\(options.origin(BrokerOptions.tls)) is false, but TLS options are given; remove one or the other")
            }
            return nil
        }
        guard (certFile == nil) == (keyFile == nil) else {
            throw UsageError("--mqtt-cert-file and --mqtt-key-file go together: give both, or neither")
        }
        return MQTTTLS(
            caFile: caFile, caPath: caPath, certFile: certFile, keyFile: keyFile,
            keyPassword: try CommonConfiguration.secret(
                options, file: BrokerOptions.keyPasswordFile, variable: "ENERGYCLOCK_MQTT_KEY_PASSWORD", environment: environment),
            insecure: insecure
        )
    }

    /// The path given for `option`, checked to be a readable file (or directory).
    private static func readable(_ options: ParsedOptions, _ option: Option<String?>, directory: Bool) throws(UsageError) -> String? {
        guard let path = try options.value(option) else { return nil }
        let name = option.spec.name
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
