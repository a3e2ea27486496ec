import Foundation
import MartCore
import MartFetch

extension LotteSuperSource {
  /// The holiday answer of `store` at `pathAndQuery`, checked by
  /// ``holidayListMismatch(_:store:)``, and its dates. Its rows carry only dates
  /// (`holidayDate`): nothing names the store, so it is asked on a lane closed by a proof
  /// (``readHolidays(of:_:)``), and a run whose holiday answers are all one answer believes none
  /// of them (``collect(_:)``). Each answer is read once: the reading that passed the check gives
  /// the dates.
  static func holidayList(
    at pathAndQuery: String, of store: Store, connection: HTTPRequest.ConnectionChoice = .keptAlive,
    _ session: SourceSession
  ) async throws(SourceError) -> (response: HTTPResponse, holidays: HolidayList) {
    var request = HTTPRequest.get(session.url(pathAndQuery))
    request.connection = connection
    let (response, reading) = try await session.send(
      request, reading: HolidayListReading.init, answering: { holidayListMismatch($0, store: store) })
    return (response, try reading.holidays.get())
  }

  /// A holiday answer read once for its check and its dates: whether it is a store list page
  /// (`storeInfo`) instead, and its dates (or why they do not read).
  struct HolidayListReading {
    var holidays: Result<HolidayList, SourceError>
    /// A `storeInfo` list of rows: a store list page, not a holiday list.
    var isStoreList = false

    init(_ answer: HTTPResponse) {
      let members = JSONRowReader.members(in: answer.body, keys: ["storeInfo", "holidayList"])
      if case .rows? = members?["storeInfo"] { isStoreList = true }
      if case .rows(let rows)? = members?["holidayList"] {
        holidays = .success(HolidayList(rows: rows))
        return
      }
      // No list read here (absent, `null`, or a document the reader declines): the parser
      // decides, as it does for any holiday answer.
      do throws(SourceError) {
        holidays = .success(try parseHolidayList(answer.body, url: answer.requestURL))
      } catch {
        holidays = .failure(error)
      }
    }
  }

  /// How many stores' holiday lists one lane asks before its proof: well under the 100 requests
  /// after which servers close a kept-alive connection by default (Apache's
  /// `MaxKeepAliveRequests`; nginx's `keepalive_requests` before 1.19.10, per its 2021 changelog),
  /// which would break the lane and cost its stores a second asking.
  static let storesPerLane = 50

  /// The stores as branches with their holiday answers, in `stores`' order.
  ///
  /// A holiday answer names no store, so on a kept-alive connection one equal to another store's
  /// answer could be that store's leftover, and stores sharing their days (most close on the 2nd
  /// and 4th Sunday) would each be asked twice. Instead the stores are asked in lanes
  /// (``SourceSession/onOneConnection(_:closingWith:_:)``): up to ``storesPerLane`` stores one
  /// after another on one new connection, closed by the first store list page
  /// (``laneProof(_:)``). A copy of an answer anywhere on the lane shifts the proof's answer
  /// too, so a lane whose proof holds carried no leftover and each store on it is asked once.
  /// The stores of a lane that does not hold are asked as without lanes: side by side on
  /// kept-alive connections, each answer that came on a reused connection and repeats another
  /// request's asked again (``SourceSession/reaskingRepeats(_:proof:reused:again:)``).
  static func readHolidays(
    of stores: [(store: Store, pageURL: String)], _ session: SourceSession
  ) async -> [(branch: RawBranch, answer: HTTPResponse?)] {
    guard !stores.isEmpty else { return [] }
    let proof = laneProof(session)
    @Sendable func read(
      _ index: Int, on connection: HTTPRequest.ConnectionChoice, _ session: SourceSession
    ) async -> (branch: RawBranch, answer: HTTPResponse?) {
      await readHolidays(of: stores[index].store, listURL: stores[index].pageURL, connection: connection, session)
    }
    // Lanes of even size: 120 stores make three lanes of 40, not 50, 50 and 20.
    let laneCount = (stores.count + storesPerLane - 1) / storesPerLane
    let laneSize = (stores.count + laneCount - 1) / laneCount
    var answered = [(branch: RawBranch, answer: HTTPResponse?)?](repeating: nil, count: stores.count)
    var unproven: [Int] = []
    for start in stride(from: 0, to: stores.count, by: laneSize) {
      let lane = Array(start..<min(start + laneSize, stores.count))
      let proved =
        lane.count > 1
        ? await session.onOneConnection(lane, closingWith: proof) { await read($1, on: $2, $0) } : nil
      if let proved {
        for (index, item) in zip(lane, proved) { answered[index] = item }
      } else {
        unproven += lane
      }
    }
    if !unproven.isEmpty {
      let firstRead = await session.sideBySide(unproven) { session, index in
        (index, await read(index, on: .keptAlive, session))
      }
      let reread = await session.reaskingRepeats(firstRead, proof: proof) { item in
        guard let answer = item.1.answer, answer.cameOnReusedConnection else { return nil }
        return (.get(answer.requestURL), answer.body)
      } again: { session, item, connection in
        (item.0, await read(item.0, on: connection, session))
      }
      for (index, item) in reread { answered[index] = item }
    }
    return answered.compactMap { $0 }
  }

  /// What closes a lane of holiday requests: the first store list page, whose
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
  static func holidayListMismatch(_ answer: HolidayListReading, store: Store) -> String? {
    answer.isStoreList ? "a store list page, not the holiday list of store \(store.code)" : nil
  }
}
