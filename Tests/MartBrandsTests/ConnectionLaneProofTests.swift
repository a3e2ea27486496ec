import Foundation
@testable import MartBrands
import MartCore
import MartFetch
import MartReplay
import ReplayTestSupport
import TestSupport
import Testing

/// Answers asked again on one connection (``SourceSession/onOneConnection(_:closingWith:_:)``),
/// through the real libcurl client and a loopback server: believed when the lane's last answer
/// is its own, never when a copy on the lane shifted it.
@Suite(.serialized)
struct ConnectionLaneProofTests {
  static let asOf = CalendarDate(year: 2026, month: 11, day: 20)!

  /// A server whose store pages answer `days of N`, and `/list` answers `list`; the answer of
  /// `/store/<copied>` is sent twice (the copy after `delay`).
  static func server(copying copied: Int? = nil, delay: Duration = .zero) throws -> LocalHTTPServer {
    try LocalHTTPServer { request in
      guard request.path != "/list" else { return .text("list") }
      let store = request.path.split(separator: "/").last.map(String.init) ?? "?"
      let answer = ServerResponse.text("days of \(store)")
      return store == copied.map(String.init) ? answer.delivered(by: RepeatedAnswer(delay: delay)) : answer
    }
  }

  /// What a lane of stores 1 to 4 reads, closed by `/list`.
  static func readLane(_ server: LocalHTTPServer) async -> (bodies: [String]?, warnings: [SourceWarning]) {
    let session = SourceSession(
      baseURL: server.baseURL, fetcher: CurlHTTPClient(), asOf: asOf, brands: [], sourceName: "test")
    let proof = LaneProof(request: .get(session.url("/list"))) { String(decoding: $0.body, as: UTF8.self) == "list" }
    let bodies = await session.onOneConnection(Array(1...4), closingWith: proof) { session, store, connection in
      var request = HTTPRequest.get(session.url("/store/\(store)"))
      request.connection = connection
      session.warn("asked store \(store)")
      return (try? await session.send(request)).map { String(decoding: $0.body, as: UTF8.self) } ?? "failed"
    }
    return (bodies, session.warnings)
  }

  @Test func aLaneWhoseLastAnswerIsItsOwnProvesEveryAnswerOnIt() async throws {
    let server = try Self.server()
    defer { server.stop() }
    let (bodies, warnings) = await Self.readLane(server)
    // The server closes a connection after 5 idle seconds: on a machine so loaded that a pause
    // between two of the lane's requests was longer, the lane lost its connection and proves
    // nothing, as it must.
    guard server.acceptedConnections == 1 else {
      #expect(bodies == nil && warnings.isEmpty)
      return
    }
    #expect(bodies == (1...4).map { "days of \($0)" })
    // The work's warnings are kept with the outputs, in order.
    #expect(warnings.map(\.message) == (1...4).map { "asked store \($0)" })
  }

  @Test(arguments: [Duration.zero, .milliseconds(30)])
  func aCopyOnTheLaneProvesNothing(delay: Duration) async throws {
    let server = try Self.server(copying: 2, delay: delay)
    defer { server.stop() }
    let (bodies, warnings) = await Self.readLane(server)
    // Store 3 read store 2's copy and `/list` read store 3's answer (or the connection broke):
    // nothing from the lane is believed, and its warnings are dropped with it.
    #expect(bodies == nil)
    #expect(warnings.isEmpty)
  }
}
