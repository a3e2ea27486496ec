import Foundation
import MartFetch
import MartReplay
import TestSupport
import Testing

/// `mart-holiday fetch` run as a built binary against a local server: the body on stdout, the
/// head with `--include`, and one stderr line with a non-zero status on failure.
@Suite struct FetchCommandTests {
  struct Outcome {
    var status: Int32
    var stdout: Data
    var stderr: String
  }

  func run(_ arguments: [String]) throws -> Outcome {
    let outcome = try ProcessRunner.run(CommandLineContractTests.binary, arguments)
    return Outcome(status: outcome.status, stdout: outcome.stdout, stderr: outcome.stderrText)
  }

  /// `이마트 성수점` in CP949 (python3: `"이마트 성수점".encode("cp949")`).
  static let cp949Name: [UInt8] = [0xC0, 0xCC, 0xB8, 0xB6, 0xC6, 0xAE, 0x20, 0xBC, 0xBA, 0xBC, 0xF6, 0xC1, 0xA1]

  static func handle(_ request: ServerRequest) -> ServerResponse {
    switch request.path {
    case "/robots.txt":
      return .text("User-agent: *\nDisallow: /private\n")
    case "/store":
      return ServerResponse(
        headers: [HTTPHeader("Content-Type", "text/html; charset=euc-kr"), HTTPHeader("X-Branch", "1001")],
        body: Data("<p>".utf8) + Data(cp949Name) + Data("</p>".utf8))
    case "/search":
      let answer = "\(request.method) \(String(decoding: request.body, as: UTF8.self))"
      return .text(answer)
    default:
      return .text("no such page", status: 404)
    }
  }

  @Test func printsTheDecodedBodyOnStdoutOnly() throws {
    let server = try LocalHTTPServer(handler: Self.handle)
    let outcome = try run(["fetch", server.baseURL + "/store"])
    #expect(outcome.status == 0)
    #expect(String(decoding: outcome.stdout, as: UTF8.self) == "<p>이마트 성수점</p>")
    #expect(outcome.stderr.isEmpty)
  }

  @Test func includePrintsTheStatusLineAndHeadersFirst() throws {
    let server = try LocalHTTPServer(handler: Self.handle)
    let outcome = try run(["fetch", "--include", server.baseURL + "/store"])
    #expect(outcome.status == 0)
    let text = String(decoding: outcome.stdout, as: UTF8.self)
    let parts = text.components(separatedBy: "\r\n\r\n")
    #expect(parts.count == 2)
    let headLines = parts[0].components(separatedBy: "\r\n")
    #expect(headLines.first == "HTTP/1.1 200 OK")
    #expect(headLines.contains("X-Branch: 1001"))
    #expect(headLines.contains("Content-Type: text/html; charset=euc-kr"))
    #expect(parts.last == "<p>이마트 성수점</p>")
  }

  @Test func postsTheData() throws {
    let server = try LocalHTTPServer(handler: Self.handle)
    let outcome = try run([
      "fetch", "--method", "POST", "--data", "storeNm=%EC%84%B1%EC%88%98", server.baseURL + "/search",
    ])
    #expect(outcome.status == 0)
    #expect(String(decoding: outcome.stdout, as: UTF8.self) == "POST storeNm=%EC%84%B1%EC%88%98")
  }

  @Test(arguments: [
    ("/missing", "404"),
    ("/private/1", "robots.txt"),
  ])
  func aFailureIsOneStderrLineNamingTheURLAndCause(path: String, cause: String) throws {
    let server = try LocalHTTPServer(handler: Self.handle)
    let url = server.baseURL + path
    let outcome = try run(["fetch", url])
    #expect(outcome.status != 0)
    #expect(outcome.stdout.isEmpty)
    let lines = outcome.stderr.split(separator: "\n")
    #expect(lines.count == 1)
    #expect(lines.first?.contains(url) == true)
    #expect(lines.first?.contains(cause) == true)
  }

  @Test func anHTTPSMirrorIsTrustedThroughTheCABundleOptionOrTheEnvironment() throws {
    let server = try LocalHTTPServer(handler: Self.handle)
    let terminator = try TLSTerminator(targetPort: server.port)
    let authority = try TLSTerminator.certificateAuthorityFile().path
    let byOption = try run(["fetch", "--ca-bundle", authority, terminator.baseURL + "/store"])
    #expect(byOption.status == 0)
    #expect(String(decoding: byOption.stdout, as: UTF8.self) == "<p>이마트 성수점</p>")
    // SSL_CERT_FILE counts when CURL_CA_BUNDLE, read first, is unset (empty counts as unset).
    let byVariable = try ProcessRunner.run(
      CommandLineContractTests.binary, ["fetch", terminator.baseURL + "/store"],
      environment: ["CURL_CA_BUNDLE": "", "SSL_CERT_FILE": authority])
    #expect(byVariable.status == 0)
    #expect(byVariable.stdoutText == "<p>이마트 성수점</p>")
    // Without either, the system's authorities refuse the test CA's certificate.
    let untrusted = try ProcessRunner.run(
      CommandLineContractTests.binary, ["fetch", terminator.baseURL + "/store"],
      environment: ["CURL_CA_BUNDLE": "", "SSL_CERT_FILE": "", "SSL_CERT_DIR": ""])
    #expect(untrusted.status == 1)
    #expect(untrusted.stderrText.contains("--ca-bundle"))
  }

  @Test func aCABundleThatCannotBeReadStopsBeforeAnyRequest() throws {
    let server = try LocalHTTPServer(handler: Self.handle)
    let missing = Scratch.directory.appendingPathComponent("no-such-\(UUID().uuidString).pem").path
    for arguments in [
      ["fetch", "--ca-bundle", missing, server.baseURL + "/store"],
      ["run", "--ca-bundle", missing, "--replay", FixturePaths.web.path, "--output", missing + "-output"],
    ] {
      let outcome = try run(arguments)
      #expect(outcome.status == 1)
      #expect(outcome.stderr.hasPrefix("error: --ca-bundle \(missing) does not exist"))
      #expect(outcome.stderr.split(separator: "\n").count == 1)
      #expect(!FileManager.default.fileExists(atPath: missing + "-output"))
    }
    #expect(server.acceptedConnections == 0)
  }
}
