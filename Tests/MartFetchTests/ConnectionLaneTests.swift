import Foundation
import MartFetch
import MartReplay
import TestSupport
import Testing

/// A lane's requests through the real libcurl client, counted at the loopback server: they go on
/// one new connection of their own, which no other request uses and which the closing request
/// closes.
@Suite struct ConnectionLaneTests {
  @Test func aLanesRequestsGoOnItsOneConnectionAndNoOtherRequestDoes() async throws {
    let server = try LocalHTTPServer { request in .text("page \(request.path)") }
    defer { server.stop() }
    let client = CurlHTTPClient()
    let kept = try await client.fetch(.get(server.baseURL + "/kept"))
    #expect(kept.connectionsOpened == 1)
    let lane = ConnectionLane()
    var answers: [HTTPResponse] = []
    for index in 0..<4 {
      var request = HTTPRequest.get(server.baseURL + "/lane/\(index)")
      request.connection = .lane(lane, closing: index == 3)
      answers.append(try await client.fetch(request))
    }
    #expect(answers.map { String(decoding: $0.body, as: UTF8.self) } == (0..<4).map { "page /lane/\($0)" })
    // The server closes a connection after 5 idle seconds: on a machine so loaded that a pause
    // between two of the lane's requests was longer, the lane's answers say that a new
    // connection was opened.
    guard server.acceptedConnections == 2 else {
      #expect(answers.dropFirst().contains { $0.connectionsOpened == 1 && !$0.cameOnReusedConnection })
      return
    }
    // A new connection for the lane, though one to the same server was idle, and the lane's
    // answers all on it.
    #expect(answers.map(\.connectionsOpened) == [1, 0, 0, 0])
    #expect(answers.map(\.cameOnReusedConnection) == [false, true, true, true])
  }

  @Test func twoLanesNeverShareAConnection() async throws {
    let server = try LocalHTTPServer { request in .text("page \(request.path)") }
    defer { server.stop() }
    let client = CurlHTTPClient()
    var firstAnswers: [HTTPResponse] = []
    for _ in 0..<2 {
      let lane = ConnectionLane()
      for index in 0..<2 {
        var request = HTTPRequest.get(server.baseURL + "/lane/\(index)")
        request.connection = .lane(lane, closing: index == 1)
        let answer = try await client.fetch(request)
        if index == 0 { firstAnswers.append(answer) }
      }
    }
    // Each lane opened a connection of its own.
    #expect(firstAnswers.map(\.connectionsOpened) == [1, 1])
    #expect(server.acceptedConnections >= 2)
  }
}
