import EnergyClockTesting
import Foundation

/// A CA, a server certificate for 127.0.0.1 and localhost, one for another host name, a client
/// certificate, and a second CA that signed none of them; made by `openssl` for one test.
struct TestCertificates {
    let directory: URL
    /// The passphrase of `client-encrypted.key`, also in the file `passphrase`.
    static let keyPassphrase = "key-Phrase-91c3"

    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    static func make() async throws -> TestCertificates {
        let directory = temporaryDirectory()
        let certificates = TestCertificates(directory: directory)
        let key = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        func openssl(_ arguments: [String]) async throws {
            let process = try ChildProcess("/usr/bin/openssl", arguments)
            guard await process.waitForExit(timeout: 30) == 0 else { throw BrokerError("openssl \(arguments.first ?? ""): \(process.log)") }
        }
        for ca in ["ca", "other-ca"] {
            try await openssl(
                ["req", "-x509"] + key + [
                    "-keyout", certificates.path("\(ca).key"), "-out", certificates.path("\(ca).crt"),
                    "-days", "2", "-subj", "/CN=energyclock test \(ca)",
                ])
        }
        for (name, names) in [("server", "DNS:localhost,IP:127.0.0.1"), ("wrong-name", "DNS:elsewhere.example"), ("client", "DNS:client")] {
            try await openssl(
                ["req"] + key + [
                    "-keyout", certificates.path("\(name).key"), "-out", certificates.path("\(name).csr"),
                    "-subj", "/CN=\(name)",
                ])
            try "subjectAltName=\(names)\n".write(toFile: certificates.path("\(name).ext"), atomically: true, encoding: .utf8)
            try await openssl([
                "x509", "-req", "-in", certificates.path("\(name).csr"), "-CA", certificates.path("ca.crt"),
                "-CAkey", certificates.path("ca.key"), "-CAcreateserial", "-out", certificates.path("\(name).crt"),
                "-days", "2", "-extfile", certificates.path("\(name).ext"),
            ])
        }
        // The client key again, encrypted with ``keyPassphrase``.
        try await openssl([
            "pkcs8", "-topk8", "-in", certificates.path("client.key"), "-out", certificates.path("client-encrypted.key"),
            "-v2", "aes-256-cbc", "-passout", "pass:\(Self.keyPassphrase)",
        ])
        try "\(Self.keyPassphrase)\n".write(toFile: certificates.path("passphrase"), atomically: true, encoding: .utf8)
        // A broker started as root drops to its own user before it reads them.
        for file in try FileManager.default.contentsOfDirectory(atPath: directory.path) { chmod(certificates.path(file), 0o644) }
        chmod(directory.path, 0o755)
        return certificates
    }

    /// mosquitto.conf lines that make the first listener TLS with `certificate`, and add a plain
    /// listener on `plainPort` for observers.
    func listener(certificate: String = "server", requireClientCertificate: Bool = false, plainPort: Int) -> String {
        """
        cafile \(path("ca.crt"))
        certfile \(path("\(certificate).crt"))
        keyfile \(path("\(certificate).key"))
        require_certificate \(requireClientCertificate)
        listener \(plainPort) 127.0.0.1
        """
    }
}
