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
}
