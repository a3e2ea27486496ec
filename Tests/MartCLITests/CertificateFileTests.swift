import Foundation
import MartReplay
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// What `--ca-bundle` names is checked before any request: a certificate whose body is damaged
/// (each PEM certificate is parsed, as the TLS library will) and a path that is not a regular
/// file (a FIFO, which must not be opened: reading one waits for a writer) are one `error:` line.
@Suite struct CertificateFileTests {
  func run(_ arguments: [String]) throws -> ProcessRunner.Outcome {
    try ProcessRunner.run(CommandLineContractTests.binary, arguments, in: FixturePaths.repositoryRoot)
  }

  func scratch(_ name: String) -> URL {
    Scratch.directory.appendingPathComponent("ca-\(UUID().uuidString)-\(name)")
  }

  /// `fetch` with `--ca-bundle path` fails before any request, with one line saying `problem`.
  func expectRefusedBeforeAnyRequest(_ path: String, saying problem: String) throws {
    let server = try LocalHTTPServer { _ in .text("ok") }
    let outcome = try run(["fetch", "--ca-bundle", path, server.baseURL + "/"])
    #expect(outcome.status == 1)
    let lines = outcome.stderrText.split(separator: "\n")
    #expect(lines.count == 1, "\(outcome.stderrText)")
    #expect(lines.first?.hasPrefix("error: --ca-bundle \(path) \(problem)") == true, "\(outcome.stderrText)")
    #expect(server.acceptedConnections == 0)
  }

  @Test func aCertificateWithABrokenBodyFailsTheStartUpCheck() throws {
    let good = try String(contentsOf: TLSTerminator.certificateAuthorityFile(), encoding: .utf8)
    // The test CA's certificate, then one whose base64 body decodes to no certificate.
    let broken = "-----BEGIN CERTIFICATE-----\nbm90IGEgY2VydGlmaWNhdGUgYXQgYWxs\n-----END CERTIFICATE-----\n"
    let file = scratch("broken.pem")
    try Data((good + broken).utf8).write(to: file)
    try expectRefusedBeforeAnyRequest(
      file.path, saying: "holds a certificate that cannot be read (certificate 2 of the file is damaged)")

    // The CA alone passes the check (and a request through it is made).
    let fine = scratch("fine.pem")
    try Data(good.utf8).write(to: fine)
    let server = try LocalHTTPServer { _ in .text("ok") }
    let outcome = try run(["fetch", "--ca-bundle", fine.path, server.baseURL + "/"])
    #expect(outcome.status == 0, "\(outcome.stderrText)")
    #expect(outcome.stdoutText == "ok")
  }

  @Test func aFIFOIsNotARegularFile() throws {
    let fifo = scratch("fifo.pem")
    try #require(mkfifo(fifo.path, 0o600) == 0, "mkfifo failed: \(String(cString: strerror(errno)))")
    defer { unlink(fifo.path) }
    try expectRefusedBeforeAnyRequest(fifo.path, saying: "is not a regular file (a FIFO)")
  }
}
