import Foundation
import MartCore
import MartFetch

extension EmartSource {
  /// `searchType`'s store list (`EM`, `TR`, `NO`) in the as-of month, checked by
  /// ``storeListMismatch(_:searchType:)``. Each answer is read once: the reading that passed the
  /// check is the list returned, with the rows it skipped.
  static func storeList(searchType: String, _ session: SourceSession) async throws(SourceError) -> BranchList {
    let list = "the store list (searchType=\(searchType))"
    let request = HTTPRequest.postForm(
      session.url(storeListPath), fields: storeListFields(searchType: searchType, asOf: session.asOf))
    return try await session.send(
      request, reading: { reading($0, list: list) },
      answering: { storeListMismatch(try? $0.get().branches, searchType: searchType) }
    ).reading.get()
  }

  /// `answer` read as the store list named `list`, or why it does not read as one: the answer
  /// checks of the store lists read each answer once and keep the reading.
  static func reading(_ answer: HTTPResponse, list: String) -> Result<BranchList, SourceError> {
    do throws(SourceError) {
      return .success(try readStoreList(answer.body, url: answer.requestURL, list: list))
    } catch {
      return .failure(error)
    }
  }

  /// Why a store list whose branches are `branches` is not the list of `searchType` (`EM`, `TR`,
  /// `NO`), or nil when it may be: a list whose stores are all of other brands is another
  /// search's answer. A list that does not read (`nil`) passes; its reader says what is wrong.
  static func storeListMismatch(_ branches: [RawBranch]?, searchType: String) -> String? {
    guard let asked = brands.first(where: { Self.searchType(for: $0) == searchType }), let branches else { return nil }
    guard let other = branches.first?.id.brand, !branches.contains(where: { $0.id.brand == asked }) else { return nil }
    return "the list's \(branches.count) stores are not \(asked.rawValue) (the first is \(other.rawValue))"
  }

  /// What each area letter (`areaCd`) of the holiday list stands for, as its rows' `AREA` name
  /// it: the provinces a row of that area may lie in. Letters in pairs stand for a region, not a
  /// province: the one 2025 client maps O/N to 충청, K/J to 경상 and M/L to 전라, and nothing shows
  /// which letter of a pair is 북 and which 남 (brand-sources.md §11.3), so a pair's check
  /// accepts either province of its region. E (광주) lies in 전남광주통합특별시 since 2026-07-01
  /// (the special act of 2026-03; news1.kr/local/gwangju-jeonnam/6087136, brand-sources.md §9.6),
  /// the province of L/M's 전남 too: its rows are told apart by the words, not the province
  /// (``holidayListMismatch(_:area:)``).
  static let areaProvinces: [String: Set<Province>] = [
    "A": [.seoul], "B": [.busan], "C": [.incheon], "D": [.daegu], "E": [.jeonnamGwangju], "F": [.daejeon],
    "G": [.ulsan], "H": [.gangwon], "I": [.gyeonggi], "J": [.gyeongbuk, .gyeongnam], "K": [.gyeongbuk, .gyeongnam],
    "L": [.jeonbuk, .jeonnamGwangju], "M": [.jeonbuk, .jeonnamGwangju], "N": [.chungbuk, .chungnam],
    "O": [.chungbuk, .chungnam], "P": [.jeju], "Q": [.sejong],
  ]

  /// `month`'s holiday list of `area` (the per-area form), checked by
  /// ``holidayListMismatch(_:month:)`` and ``holidayListMismatch(_:area:)``. Neither can tell
  /// the two letters of a pair apart (nor a list without stores from another), so every list is
  /// also compared with the run's other answers, once every list is in
  /// (``reaskingRepeatedAreas(_:months:_:)``), not as it arrives: empty areas, whose answers are
  /// alike, would each cost a fresh connection.
  static func holidayList(
    area: String, month: CalendarDate, connection: HTTPRequest.ConnectionChoice = .keptAlive,
    _ session: SourceSession
  ) async throws(SourceError) -> HolidayListAnswer {
    var request = HTTPRequest.postForm(
      session.url(holidayListPath), fields: holidayListFields(area: area, month: month))
    request.connection = connection
    return try await holidayList(request, unproven: false, session) {
      holidayListMismatch($0, month: month) ?? holidayListMismatch($0, area: area)
    }
  }

  /// A holiday list's answer and its `dateList` rows, read once.
  struct HolidayListAnswer {
    var response: HTTPResponse
    var rows: [JSONRow]
  }

  /// Sends `request` for a holiday list, checked by `mismatch` (and, when `unproven`, compared
  /// with the run's other answers). Each answer is read once: the reading that passed the check
  /// gives the rows returned.
  static func holidayList(
    _ request: HTTPRequest, unproven: Bool, _ session: SourceSession, mismatch: (HolidayListReading) -> String?
  ) async throws(SourceError) -> HolidayListAnswer {
    let (response, reading) = try await session.send(
      request, reading: HolidayListReading.init, answering: mismatch, unproven: { _ in unproven })
    return HolidayListAnswer(response: response, rows: try reading.rows.get())
  }

  /// A holiday list's answer read once for its checks and its rows: its `dateList` rows (or why
  /// they do not read), and whether it is a store list (`dataList`) instead.
  struct HolidayListReading {
    var rows: Result<[JSONRow], SourceError>
    /// A `dataList` of rows and no `dateList`: E-mart's store list, not a holiday list.
    var isStoreList = false

    init(_ answer: HTTPResponse) {
      let members = JSONRowReader.members(in: answer.body, keys: ["dateList", "dataList"])
      if let members, members["dateList"] == nil, case .rows? = members["dataList"] { isStoreList = true }
      if case .rows(let found)? = members?["dateList"] {
        rows = .success(found)
        return
      }
      do throws(SourceError) {
        rows = .success(try decodeHolidayRows(answer.body, url: answer.requestURL))
      } catch {
        rows = .failure(error)
      }
    }
  }

  /// Why `page` is not the store page of `storeID`, or nil when it may be: a store page links
  /// its own map (`/branch/list.do?id=<id>`), and a link naming another store, or a JSON answer,
  /// is a mismatch. A page without that link passes.
  static func storePageMismatch(_ page: HTTPResponse, storeID: String) -> String? {
    if AnswerChecks.isJSON(page.body) { return "a JSON answer, not the page of store \(storeID)" }
    guard let found = page.body.firstRange(of: "/branch/list.do?id=") else { return nil }
    let id = page.body[found.upperBound...].prefix { (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) }
    let linked = String(decoding: id, as: UTF8.self)
    return linked.isEmpty || linked == storeID ? nil : "the page links the map of store \(linked), not \(storeID)"
  }

  /// Why `answer` is not the holiday list of `month`, or nil when it may be: a store list
  /// (`dataList`) instead, or a list whose dated rows are all of another month (each row's
  /// `HOLIDAY_DAYn_YMD` slots start with their month: `20261108`, or `202611` when empty). A
  /// single row dated outside the month does not make the list another month's: that row is
  /// dropped when the list is read (``rowsOfMonth(_:month:list:_:)``). The area is checked by
  /// ``holidayListMismatch(_:area:)``. An answer that does not read passes (its reader then says
  /// what is wrong).
  static func holidayListMismatch(_ answer: HolidayListReading, month: CalendarDate) -> String? {
    if answer.isStoreList { return "a store list (\"dataList\"), not a holiday list" }
    guard case .success(let rows) = answer.rows else { return nil }
    // The first dated row and its slot outside the month; nil as soon as a dated row has none.
    let monthText = compactMonth(month)
    var first: (row: JSONRow, slot: String)?
    for row in rows {
      let slots = slots(of: row)
      guard !slots.isEmpty else { continue }
      guard let outside = slots.first(where: { !$0.hasPrefix(monthText) }) else { return nil }
      if first == nil { first = (row, outside) }
    }
    guard let first else { return nil }
    return "every dated row is of another month than \(monthText) (the first, store"
      + " \(first.row.text("JIJUM_ID") ?? "?"), has \(first.slot))"
  }

  /// The `HOLIDAY_DAYn_YMD` values of a row that name at least a month.
  private static func slots(of row: JSONRow) -> [String] {
    slotValues(of: row) { $0.count >= 6 }
  }

  /// `month` as its slots begin: `202611`.
  private static func compactMonth(_ month: CalendarDate) -> String { "\(month.year)\(paddedMonth(month))" }

  /// A slot of `row` that is not in `month`, if any.
  static func outsideSlot(of row: JSONRow, month: CalendarDate) -> String? {
    outsideSlot(of: row, monthText: compactMonth(month))
  }

  /// A slot of `row` that does not start with `monthText` (``compactMonth(_:)``), if any.
  private static func outsideSlot(of row: JSONRow, monthText: String) -> String? {
    slots(of: row).first { !$0.hasPrefix(monthText) }
  }

  /// `rows` without those dated outside `month`, each dropped with a warning naming `list`: one
  /// stray row costs that row, not the list.
  static func rowsOfMonth(
    _ rows: [JSONRow], month: CalendarDate, list: String, _ session: SourceSession
  ) -> [JSONRow] {
    let monthText = compactMonth(month)
    return rows.filter { row in
      guard let slot = outsideSlot(of: row, monthText: monthText) else { return true }
      session.warn(
        "\(sourceName): \(list): store \(row.text("JIJUM_ID") ?? "?") has the day \(slot), not in"
          + " \(month.year)-\(paddedMonth(month)); that row is left out")
      return false
    }
  }

  private static var sourceName: String { name }

  /// Why `answer` is not the holiday list of `area` (an `areaCd` letter), or nil when it may be:
  /// a row whose `AREA` lies outside the letter's provinces (``areaProvinces``), or, for E
  /// (광주), a row that names 전남 rather than 광주 (one province since 2026-07, two areas of the
  /// list). Rows whose `AREA` names no province pass.
  static func holidayListMismatch(_ answer: HolidayListReading, area: String) -> String? {
    guard let asked = areaProvinces[area], case .success(let rows) = answer.rows else { return nil }
    // Rows in a row mostly share their `AREA`: one that repeats the row before it passed there.
    var lastName: String?
    for row in rows {
      guard let name = row.text("AREA"), name != lastName else { continue }
      lastName = name
      guard let province = Province(alias: name) else { continue }
      let outside = !asked.contains(province) || (area == "E" && namesJeonnamAlone(name))
      guard outside else { continue }
      return "store \(row.text("JIJUM_ID") ?? "?") is in \(name), not in area \(area)"
        + " (\(asked.map(\.officialName).sorted().joined(separator: " or ")))"
    }
    return nil
  }

  /// Whether an `AREA` word names 전남 and not 광주 (`전남`, `전라남도`); the merged province's
  /// names (`전남광주통합특별시`, `광주특별시`) name 광주 too.
  static func namesJeonnamAlone(_ word: String) -> Bool {
    (word.hasPrefix("전남") || word.hasPrefix("전라남")) && !word.contains("광주")
  }

  /// Why `answer` is not the holiday list of every area (the older all-area form), or nil when
  /// it may be: a list of two or more rows that all lie in one region is one area's list.
  static func allAreasMismatch(_ answer: HolidayListReading) -> String? {
    guard case .success(let rows) = answer.rows else { return nil }
    let provinces = rows.compactMap { $0.text("AREA").flatMap(Province.init(alias:)) }
    guard provinces.count >= 2, let first = provinces.first, provinces.allSatisfy({ $0 == first }) else { return nil }
    return "all \(provinces.count) stores lie in \(first.officialName): one area's list, not every area's"
  }

  /// `feeds` (the holiday lists of `months`, in order) with each area that lists stores in one
  /// month and none in another asked again for the empty month, once (``areaPagesAgain(_:_:)``):
  /// an empty list proves nothing of its area, and may be an empty area's answer taken as a
  /// leftover. An answer that is still another area's or month's is left out
  /// (``HolidayListPage/dropped``).
  static func reaskingEmptyAreas(
    _ feeds: [HolidayListFeed], months: [CalendarDate], _ session: SourceSession
  ) async throws(SourceError) -> [HolidayListFeed] {
    let listing = Set(feeds.flatMap { $0.pages.filter { !$0.rows.isEmpty }.compactMap(\.area) })
    var targets: [(feed: Int, page: Int, area: String)] = []
    for (feedIndex, feed) in feeds.enumerated() {
      for (pageIndex, page) in feed.pages.enumerated() where page.rows.isEmpty && page.dropped == nil {
        if let area = page.area, listing.contains(area) { targets.append((feedIndex, pageIndex, area)) }
      }
    }
    guard !targets.isEmpty else { return feeds }
    let again = try await areaPagesAgain(targets.map { ($0.area, months[$0.feed]) }, session)
    var result = feeds
    for (target, page) in zip(targets, again) { result[target.feed].pages[target.page] = page }
    return result
  }

  /// `feeds` (the holiday lists of `months`, in order) with every area's answer that came on a
  /// reused connection and equals another request's answer asked again, round after round, each
  /// round on one connection closed by the store list (``SourceSession/reaskingRepeats(_:proof:reused:again:)``,
  /// ``laneProof(_:)``): the area check
  /// cannot tell the two letters of a pair apart, so a leftover of O's list read as N's would
  /// give N's stores no days. An answer asked again that fails, or is another area's or month's,
  /// is left out (its area's stores keep their last data).
  static func reaskingRepeatedAreas(
    _ feeds: [HolidayListFeed], months: [CalendarDate], _ session: SourceSession
  ) async -> [HolidayListFeed] {
    struct Asked: Sendable {
      var feed: Int
      var index: Int
      var month: CalendarDate
      var page: HolidayListPage
    }
    var asked: [Asked] = []
    for (feedIndex, feed) in feeds.enumerated() {
      for (index, page) in feed.pages.enumerated() {
        asked.append(Asked(feed: feedIndex, index: index, month: months[feedIndex], page: page))
      }
    }
    let url = session.url(holidayListPath)
    let reread = await session.reaskingRepeats(asked, proof: laneProof(session)) {
      item -> (request: HTTPRequest, body: Data)? in
      guard item.page.dropped == nil, item.page.cameOnReusedConnection, let area = item.page.area,
        let body = item.page.body
      else { return nil }
      return (.postForm(url, fields: holidayListFields(area: area, month: item.month)), body)
    } again: { session, item, connection in
      var item = item
      guard let area = item.page.area else { return item }
      do throws(SourceError) {
        item.page = try await areaPage(area, month: item.month, connection: connection, session)
        // Asked again, its answer is believed: not compared again in a later round.
        item.page.cameOnReusedConnection = false
      } catch {
        session.warn("\(item.page.list) repeats another request's answer and was not read again; left out: \(error)")
        item.page = HolidayListPage(list: item.page.list, rows: [], dropped: "\(error)", area: area)
      }
      return item
    }
    var result = feeds
    for item in reread { result[item.feed].pages[item.index] = item.page }
    return result
  }

  /// The store page (`view.do?id=`) of `branch`, checked by ``storePageMismatch(_:storeID:)``. A
  /// page that does not carry the store's name proves nothing of whose it is: it is compared
  /// with the run's other answers once every page is in (``storePages(of:_:)``), and asked again
  /// only when it repeats another request's answer.
  static func storePage(
    of branch: RawBranch, connection: HTTPRequest.ConnectionChoice = .keptAlive, _ session: SourceSession
  ) async throws(SourceError) -> HTTPResponse {
    var request = HTTPRequest.get(session.url(detailPath(storeID: branch.id.storeID)))
    request.connection = connection
    return try await session.send(request) { storePageMismatch($0, storeID: branch.id.storeID) }
  }

  /// The store pages of `branches` (``storePage(of:connection:_:)``), in order, each its page or
  /// why it failed, once every page is in and every page that came on a reused connection and
  /// equals another request's answer was asked again, round after round, each round on one
  /// connection closed by the store list (``SourceSession/reaskingRepeats(_:proof:reused:again:)``): a page taken as another store's
  /// leftover before that store's own page was noted shows as a repeat only then, and would
  /// give this store the other's phone or place.
  static func storePages(
    of branches: [RawBranch], _ session: SourceSession
  ) async -> [Result<HTTPResponse, SourceError>] {
    typealias Asked = (branch: RawBranch, page: Result<HTTPResponse, SourceError>)
    let firstRead = await session.sideBySide(branches) { session, branch -> Asked in
      do throws(SourceError) {
        return (branch, .success(try await storePage(of: branch, session)))
      } catch {
        return (branch, .failure(error))
      }
    }
    return await session.reaskingRepeats(firstRead, proof: laneProof(session)) {
      item -> (request: HTTPRequest, body: Data)? in
      guard case .success(let page) = item.page, page.cameOnReusedConnection else { return nil }
      return (.get(page.requestURL), page.body)
    } again: { session, item, connection -> Asked in
      do throws(SourceError) {
        return (item.branch, .success(try await storePage(of: item.branch, connection: connection, session)))
      } catch {
        return (item.branch, .failure(error))
      }
    }.map(\.page)
  }
}

extension EmartSource {
  /// What closes a lane of holiday lists or store pages asked again: the 이마트 store list, whose
  /// answer (a `dataList` of stores, no `dateList`) neither a holiday list nor a store page gives.
  static func laneProof(_ session: SourceSession) -> LaneProof {
    LaneProof(
      request: .postForm(session.url(storeListPath), fields: storeListFields(searchType: "EM", asOf: session.asOf))
    ) { HolidayListReading($0).isStoreList }
  }

  /// The holiday list pages of `asks` (area and month), asked again: one after another on one new
  /// connection closed by the store list (``laneProof(_:)``) when there are several and the lane
  /// holds, each on a fresh connection of its own otherwise. A page asked again is believed as it
  /// came (not compared again). The first failure, in `asks`' order, is thrown.
  static func areaPagesAgain(
    _ asks: [(area: String, month: CalendarDate)], _ session: SourceSession
  ) async throws(SourceError) -> [HolidayListPage] {
    typealias Ask = (area: String, month: CalendarDate)
    let read:
      @Sendable (SourceSession, Ask, HTTPRequest.ConnectionChoice) async -> Result<HolidayListPage, SourceError> = {
        session, ask, connection in
        do throws(SourceError) {
          var page = try await areaPage(ask.area, month: ask.month, connection: connection, session)
          page.cameOnReusedConnection = false
          return .success(page)
        } catch {
          return .failure(error)
        }
      }
    let results: [Result<HolidayListPage, SourceError>]
    if asks.count > 1, let proved = await session.onOneConnection(asks, closingWith: laneProof(session), read) {
      results = proved
    } else {
      results = await session.sideBySide(asks) { session, ask in await read(session, ask, .fresh) }
    }
    return try results.map { result throws(SourceError) in try result.get() }
  }
}
