import Foundation
import MartFetch
import MartReplay
import ReplayTestSupport
import Testing

/// A server that sends each answer twice on a kept-alive connection: the copy is read as the
/// next request's answer, and a request sent on a fresh connection is safe from it.
@Suite(.serialized)
struct RepeatedAnswerTests {
  /// `/page/<n>` answers `page <n>`, each answer sent twice, the copy after `delay`.
  func server(delay: Duration) throws -> LocalHTTPServer {
    try LocalHTTPServer { request in
      let page = request.path.split(separator: "/").last ?? ""
      return ServerResponse(body: Data("page \(page)".utf8)).delivered(by: RepeatedAnswer(delay: delay))
    }
  }

  func text(_ response: HTTPResponse) -> String { String(decoding: response.body, as: UTF8.self) }

  @Test func aLateCopyIsReadAsTheNextAnswerOnAKeptAliveConnection() async throws {
    let server = try server(delay: .milliseconds(150))
    defer { server.stop() }
    let client = CurlHTTPClient()
    #expect(text(try await client.fetch(.get(server.baseURL + "/page/1"))) == "page 1")
    let second = text(try await client.fetch(.get(server.baseURL + "/page/2")))
    // Nothing on the wire tells the copy from the answer: on the kept-alive connection the copy
    // is read as the second answer, which is why pages are checked. (When the machine is so busy
    // that the copy is already waiting before the second request is sent, libcurl takes the
    // connection for dead and opens another, which gets its own answer.)
    if server.acceptedConnections == 1 {
      #expect(second == "page 1")
    } else {
      #expect(second == "page 2")
    }
  }

  @Test(arguments: [Duration.zero, .milliseconds(150)])
  func afterAFreshConnectionEveryRequestToTheOriginGetsItsOwnAnswer(delay: Duration) async throws {
    let server = try server(delay: delay)
    defer { server.stop() }
    let client = CurlHTTPClient()
    _ = try await client.fetch(.get(server.baseURL + "/page/1"))
    var again = HTTPRequest.get(server.baseURL + "/page/2")
    again.connection = .freshAfterMismatch
    #expect(text(try await client.fetch(again)) == "page 2")
    let connectionsBefore = server.acceptedConnections
    for page in 3...6 {
      #expect(text(try await client.fetch(.get(server.baseURL + "/page/\(page)"))) == "page \(page)")
    }
    // The origin's kept-alive connections are not used again: one new connection per request.
    #expect(server.acceptedConnections == connectionsBefore + 4)
  }
}
