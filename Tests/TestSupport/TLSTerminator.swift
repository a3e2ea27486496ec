import Foundation

/// A real TLS endpoint in front of a plain test server: `Benchmarks/latency-proxy.py` with no
/// added delay and a certificate for 127.0.0.1 signed by a test CA made for this test process
/// (OpenSSL's command line), so that clients are tested over HTTPS exactly as over HTTP.
///
/// The terminator opens one connection to the target per client connection, so a target's
/// count of accepted connections is the client's count of TLS connections.
public final class TLSTerminator: Sendable {
  /// `https://127.0.0.1:<port>`.
  public let baseURL: String
  private let process: Process
  private let statisticsFile: URL

  /// Terminates TLS on a free port of 127.0.0.1 and forwards to `targetPort` there.
  public init(targetPort: Int) throws {
    let authority = try TestCertificateAuthority.shared.get()
    let statisticsFile = Scratch.directory.appendingPathComponent(
      "mart-holiday-tls-\(UUID().uuidString).json")
    let process = Process()
    let python = Python3.invocation([
      FixturePaths.repositoryRoot.appendingPathComponent("Benchmarks/latency-proxy.py").path,
      "--one-way-ms", "0", "--tls-cert", authority.serverCertificate.path, "--tls-key", authority.serverKey.path,
      "--target", "127.0.0.1:\(targetPort)", "--stats", statisticsFile.path,
    ])
    process.executableURL = python.executable
    process.arguments = python.arguments
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    // `TARGET_PORT LISTEN_PORT`, then `ready`.
    var text = ""
    let reader = output.fileHandleForReading
    while !text.contains("ready\n") {
      let chunk = reader.availableData
      guard !chunk.isEmpty else {
        process.terminate()
        throw TLSTerminatorError(message: "the TLS terminator ended before it was ready: \(text)")
      }
      text += String(decoding: chunk, as: UTF8.self)
    }
    guard let mapping = text.split(separator: "\n").first?.split(separator: " "), mapping.count == 2 else {
      process.terminate()
      throw TLSTerminatorError(message: "the TLS terminator printed no port: \(text)")
    }
    self.process = process
    self.statisticsFile = statisticsFile
    baseURL = "https://127.0.0.1:\(mapping[1])"
  }

  /// The PEM file of the test CA that signed the terminator's certificate.
  public static func certificateAuthorityFile() throws -> URL {
    try TestCertificateAuthority.shared.get().caCertificate
  }

  /// What the terminator has counted so far.
  public struct Statistics: Decodable, Sendable {
    /// TLS connections accepted.
    public var connections: Int
    /// HTTP/1.x requests decrypted.
    public var requests: Int
    /// Connections that resumed an earlier TLS session.
    public var resumed: Int
  }

  public func statistics() throws -> Statistics {
    try JSONDecoder().decode(Statistics.self, from: Data(contentsOf: statisticsFile))
  }

  /// Stops the terminator; its connections end with it.
  public func stop() {
    guard process.isRunning else { return }
    process.interrupt()
    // Killed when it has not stopped within five seconds, so a test never hangs on it.
    for _ in 0..<500 where process.isRunning { usleep(10_000) }
    if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    process.waitUntilExit()
  }

  deinit {
    stop()
    try? FileManager.default.removeItem(at: statisticsFile)
  }
}

/// The TLS terminator could not be started.
public struct TLSTerminatorError: Error, CustomStringConvertible {
  public var message: String
  public var description: String { message }
}

/// A CA and a server certificate for 127.0.0.1 and localhost, made once per test process in a
/// temporary directory.
struct TestCertificateAuthority: Sendable {
  var caCertificate: URL
  var serverCertificate: URL
  var serverKey: URL

  static let shared: Result<TestCertificateAuthority, any Error> = Result { try make() }

  private static func make() throws -> TestCertificateAuthority {
    let directory = Scratch.directory.appendingPathComponent(
      "mart-holiday-test-ca-\(ProcessInfo.processInfo.processIdentifier)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }
    let extensions = path("server.ext")
    try "subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n".write(
      toFile: extensions, atomically: true, encoding: .utf8)
    let steps: [[String]] = [
      [
        "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "2",
        "-subj", "/CN=mart-holiday test CA", "-keyout", path("ca.key"), "-out", path("ca.pem"),
      ],
      [
        "req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-subj", "/CN=127.0.0.1",
        "-keyout", path("server.key"), "-out", path("server.csr"),
      ],
      [
        "x509", "-req", "-in", path("server.csr"), "-CA", path("ca.pem"), "-CAkey", path("ca.key"),
        "-CAcreateserial", "-days", "2", "-extfile", extensions, "-out", path("server.pem"),
      ],
    ]
    for arguments in steps {
      let outcome = try ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/openssl"), arguments)
      guard outcome.status == 0 else {
        throw TLSTerminatorError(message: "openssl \(arguments[0]) failed: \(outcome.stderrText)")
      }
    }
    return TestCertificateAuthority(
      caCertificate: URL(fileURLWithPath: path("ca.pem")), serverCertificate: URL(fileURLWithPath: path("server.pem")),
      serverKey: URL(fileURLWithPath: path("server.key")))
  }
}
