import Foundation
import MartCore
import MartFetch

extension LotteSuperSource {
  /// The holiday answer of `store` at `pathAndQuery`, checked by
  /// ``holidayListMismatch(_:store:)``. Its rows carry only dates (`holidayDate`): nothing names
  /// the store, so once every store's answer is in, the answer is compared with the run's others
  /// (asked again, on one connection a round, when it repeats another store's answer), and a run
  /// whose holiday answers are all one answer believes none of them (``collect(_:)``). It is not
  /// compared as it arrives: stores sharing their days would each cost a fresh connection.
  static func holidayList(
    at pathAndQuery: String, of store: Store, connection: HTTPRequest.ConnectionChoice = .keptAlive,
    _ session: SourceSession
  ) async throws(SourceError) -> HTTPResponse {
    var request = HTTPRequest.get(session.url(pathAndQuery))
    request.connection = connection
    return try await session.send(
      request, answering: { holidayListMismatch($0, store: store) })
  }

  /// What closes a lane of holiday requests asked again: the first store list page, whose
  /// answer (a `storeInfo` list) no holiday request gives (``holidayListMismatch(_:store:)``
  /// says so of a holiday answer).
  static func laneProof(_ session: SourceSession) -> LaneProof {
    LaneProof(request: .get(session.url(listPath(page: 0)))) { answer in
      if case .rows? = JSONRowReader.rows(in: answer.body, key: "storeInfo") { return true }
      return false
    }
  }

  /// Why `answer` is not the holiday list of `store`, or nil when it may be: a store list page
  /// (`storeInfo`) is a mismatch. The rows name no store (the 2026 client reads `holidayDate`
  /// alone), so nothing else is checked; an answer that does not read passes (its reader then
  /// says what is wrong).
  static func holidayListMismatch(_ answer: HTTPResponse, store: Store) -> String? {
    if case .rows? = JSONRowReader.rows(in: answer.body, key: "storeInfo") {
      return "a store list page, not the holiday list of store \(store.code)"
    }
    return nil
  }
}
