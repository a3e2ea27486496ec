import Foundation
import MartCore
import MartFetch

extension LotteSuperSource {
  /// The holiday answer of `store` at `pathAndQuery`, checked by
  /// ``holidayListMismatch(_:store:)``; an empty list shows no store, so it is believed only
  /// from a fresh connection.
  static func holidayList(
    at pathAndQuery: String, of store: Store, _ session: SourceSession
  ) async throws(SourceError) -> HTTPResponse {
    try await session.get(
      pathAndQuery, answering: { holidayListMismatch($0, store: store) },
      unproven: { answer in !answer.body.contains(Data("strCd".utf8)) })
  }

  /// Why `answer` is not the holiday list of `store`, or nil when it may be: each row names its
  /// store (`strCd`, the list's `sstrCd`), and a row naming another store, or a store list page
  /// (`storeInfo`), is a mismatch. Rows without a `strCd`, and an answer that does not read,
  /// pass (its reader then says what is wrong).
  static func holidayListMismatch(_ answer: HTTPResponse, store: Store) -> String? {
    if case .rows? = JSONRowReader.rows(in: answer.body, key: "storeInfo") {
      return "a store list page, not the holiday list of store \(store.code)"
    }
    let rows: [[String: JSONScalar]]
    do {
      rows =
        try decodeRows(
          answer.body, key: "holidayList", url: answer.requestURL, expecting: "a \"holidayList\" array",
          fallback: HolidayListBody.self, rows: \.holidayList) ?? []
    } catch {
      return nil
    }
    guard let other = rows.lazy.compactMap({ $0.text("strCd") }).first(where: { $0 != store.code }) else {
      return nil
    }
    return "the list is of store \(other), not \(store.code)"
  }
}
