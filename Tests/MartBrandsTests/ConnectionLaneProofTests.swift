import Foundation
import MartCore
import MartFetch
import MartReplay
import ReplayTestSupport
import TestSupport
import Testing

@testable import MartBrands

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

extension ConnectionLaneProofTests {
  /// A page read on the client's kept-alive connection and the item built from it.
  struct Read: Sendable {
    var path: String
    var answer: HTTPResponse?
  }

  /// An answer asked again (``SourceSession/reaskingRepeats(_:proof:reused:again:)``) takes the
  /// warnings its first asking gave with it: what the page said is said once, as its second
  /// answer said it, on a lane or each on a fresh connection.
  @Test(arguments: [true, false])
  func theWarningsOfAnAnswerAskedAgainGoWithIt(onALane: Bool) async throws {
    // Every store page is one answer, so the later ones, on the reused connection, repeat the
    // first: those two are asked again (a lane needs two or more).
    let server = try LocalHTTPServer { request in .text(request.path == "/list" ? "list" : "one page for all") }
    defer { server.stop() }
    let session = SourceSession(
      baseURL: server.baseURL, fetcher: CurlHTTPClient(), asOf: Self.asOf, brands: [], sourceName: "test")
    var firstRead: [Read] = []
    for path in ["/store/1", "/store/2", "/store/3"] {
      let answer = try await session.get(path)
      session.warn("first answer of \(path)")
      firstRead.append(Read(path: path, answer: answer))
    }
    let proof = onALane ? LaneProof(request: .get(session.url("/list"))) { $0.body == Data("list".utf8) } : nil
    let reread = await session.reaskingRepeats(firstRead, proof: proof) { read in
      guard let answer = read.answer, answer.cameOnReusedConnection else { return nil }
      return (.get(answer.requestURL), answer.body)
    } again: { session, read, connection in
      var request = HTTPRequest.get(session.url(read.path))
      request.connection = connection
      let answer = try? await session.send(request)
      session.warn("second answer of \(read.path)")
      return Read(path: read.path, answer: answer)
    }
    #expect(reread.map(\.path) == ["/store/1", "/store/2", "/store/3"])
    #expect(
      session.warnings.map(\.message) == [
        "first answer of /store/1", "second answer of /store/2", "second answer of /store/3",
      ])
  }
}
