import Foundation
import MartFetch
import Synchronization

/// The last request of a lane (``SourceSession/onOneConnection(_:closingWith:_:)``): a request of
/// another kind than the lane's, whose answer no request of the lane can give (a store list
/// where the lane asks holiday lists). An answer of its own kind shows that the connection
/// carried no leftover: a copy of an answer shifts every later answer on its connection by one,
/// so the last request would read the answer of the request before it.
struct LaneProof: Sendable {
  /// The request, sent on any connection choice (the lane sets its own).
  var request: HTTPRequest
  /// Whether an answer is of the proof request's own kind.
  var isOwnAnswer: @Sendable (HTTPResponse) -> Bool
}

/// What a lane's answers showed of its connection: whether the first came on a new connection
/// and every later one on that same connection, with nothing failed or mismatched on the way.
struct LaneRecord: Sendable {
  var answers = 0
  var whole = true
}

extension AnswerLedger {
  /// Notes `response`, received on `lane`: the first answer must have opened the lane's
  /// connection, every later one must have come on it (no new connection opened).
  func note(_ response: HTTPResponse, on lane: ConnectionLane) {
    laneRecords.withLock { records in
      var record = records[lane, default: LaneRecord()]
      let onTheLane =
        record.answers == 0
        ? response.connectionsOpened == 1 && !response.cameOnReusedConnection
        : response.connectionsOpened == 0 && response.cameOnReusedConnection
      record.whole = record.whole && onTheLane
      record.answers += 1
      records[lane] = record
    }
  }

  /// Notes that a request on `lane` failed or that its answer was another request's: the lane
  /// proves nothing.
  func breakLane(_ lane: ConnectionLane) {
    laneRecords.withLock { $0[lane, default: LaneRecord()].whole = false }
  }

  /// Whether every answer noted on `lane` came on its one connection, and nothing broke it;
  /// forgets the lane.
  func closeLane(_ lane: ConnectionLane) -> Bool {
    guard let record = laneRecords.withLock({ $0.removeValue(forKey: lane) }) else { return false }
    return record.whole && record.answers > 0
  }
}

extension SourceSession {
  /// Runs `work` on the items one after another, each request it sends on one new connection of
  /// their own (a lane, ``HTTPRequest/ConnectionChoice/lane(_:closing:)``), then sends `proof`'s
  /// request last on it, which closes it. Returns the outputs, in `items`' order, when the proof's
  /// answer is its own and every answer came on the lane's one connection: then no answer on it
  /// was a leftover, and each is its request's as a fresh connection's answer is. Returns nil
  /// otherwise (the caller asks again as it would without a lane); the warnings of the work are
  /// kept only with the outputs.
  func onOneConnection<Item: Sendable, Output: Sendable>(
    _ items: [Item], closingWith proof: LaneProof,
    _ work: (SourceSession, Item, HTTPRequest.ConnectionChoice) async -> Output
  ) async -> [Output]? {
    let lane = ConnectionLane()
    let laneSession = SourceSession(
      baseURL: baseURL, fetcher: fetcher, asOf: asOf, brands: brands, sourceName: sourceName, answers: answers)
    var outputs: [Output] = []
    outputs.reserveCapacity(items.count)
    for item in items { outputs.append(await work(laneSession, item, .lane(lane, closing: false))) }
    var closing = proof.request
    closing.connection = .lane(lane, closing: true)
    var proved = false
    do throws(SourceError) {
      proved = proof.isOwnAnswer(try await laneSession.send(closing))
    } catch {
      proved = false
    }
    guard answers.closeLane(lane), proved else { return nil }
    keep(laneSession.askedWarnings)
    return outputs
  }

  /// The items of one round of asking again (``reaskingRepeats(_:proof:reused:again:)``): on one
  /// lane closed by `proof` when there is one and it holds, else each on a fresh connection.
  func askingAgain<Item: Sendable>(
    _ items: [Item], proof: LaneProof?,
    _ again: @escaping @Sendable (SourceSession, Item, HTTPRequest.ConnectionChoice) async -> Item
  ) async -> [Item] {
    if let proof, items.count > 1, let proved = await onOneConnection(items, closingWith: proof, again) {
      return proved
    }
    return await sideBySide(items) { session, item in await again(session, item, .fresh) }
  }
}
