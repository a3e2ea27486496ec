import Foundation
import MartCore
import MartFetch

extension EmartSource {
  /// `searchType`'s store list (`EM`, `TR`, `NO`) in the as-of month, checked by
  /// ``storeListMismatch(_:searchType:)``. Each answer is read once: the reading that passed the
  /// check is the list returned, with the rows it skipped.
  static func storeList(searchType: String, _ session: SourceSession) async throws(SourceError) -> BranchList {
    let list = "the store list (searchType=\(searchType))"
    func read(_ answer: HTTPResponse) -> Result<BranchList, SourceError> {
      do throws(SourceError) {
        return .success(try readStoreList(answer.body, url: answer.requestURL, list: list))
      } catch {
        return .failure(error)
      }
    }
    var lastReading: Result<BranchList, SourceError>?
    let response = try await session.postForm(
      storeListPath, fields: storeListFields(searchType: searchType, asOf: session.asOf)
    ) { answer in
      let reading = read(answer)
      lastReading = reading
      return storeListMismatch(try? reading.get().branches, searchType: searchType)
    }
    return try (lastReading ?? read(response)).get()
  }

  /// Why a store list whose branches are `branches` is not the list of `searchType` (`EM`, `TR`,
  /// `NO`), or nil when it may be: a list whose stores are all of other brands is another
  /// search's answer. A list that does not read (`nil`) passes; its reader says what is wrong.
  static func storeListMismatch(_ branches: [RawBranch]?, searchType: String) -> String? {
    guard let asked = brands.first(where: { Self.searchType(for: $0) == searchType }), let branches else { return nil }
    guard let other = branches.first?.id.brand, !branches.contains(where: { $0.id.brand == asked }) else { return nil }
    return "the list's \(branches.count) stores are not \(asked.rawValue) (the first is \(other.rawValue))"
  }

  /// The provinces of the holiday list's area letters (`areaCd`), as its rows name them
  /// (`AREA`); letters not listed are not checked.
  static let areaProvinces: [String: Province] = [
    "A": .seoul, "B": .busan, "C": .incheon, "D": .daegu, "E": .jeonnamGwangju, "F": .daejeon, "G": .ulsan,
    "H": .gangwon, "I": .gyeonggi, "J": .gyeongnam, "M": .jeonbuk, "N": .chungnam, "O": .chungbuk, "P": .jeju,
  ]

  /// `month`'s holiday list of `area` (the per-area form), checked by
  /// ``holidayListMismatch(_:month:)``; a list without stores shows no month, so it is
  /// believed only from a fresh connection.
  static func holidayList(
    area: String, month: CalendarDate, _ session: SourceSession
  ) async throws(SourceError) -> HTTPResponse {
    try await session.postForm(
      holidayListPath, fields: holidayListFields(area: area, month: month),
      answering: { holidayListMismatch($0, month: month) ?? holidayListMismatch($0, area: area) },
      unproven: { list in !list.body.contains(Data("JIJUM_ID".utf8)) })
  }

  /// Why `page` is not the store page of `storeID`, or nil when it may be: a store page links
  /// its own map (`/branch/list.do?id=<id>`), and a link naming another store, or a JSON answer,
  /// is a mismatch. A page without that link passes.
  static func storePageMismatch(_ page: HTTPResponse, storeID: String) -> String? {
    if AnswerChecks.isJSON(page.body) { return "a JSON answer, not the page of store \(storeID)" }
    let marker = Data("/branch/list.do?id=".utf8)
    guard let found = page.body.range(of: marker) else { return nil }
    let id = page.body[found.upperBound...].prefix { (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) }
    let linked = String(decoding: id, as: UTF8.self)
    return linked.isEmpty || linked == storeID ? nil : "the page links the map of store \(linked), not \(storeID)"
  }

  /// Why `answer` is not the holiday list of `month`, or nil when it may be: each row's
  /// `HOLIDAY_DAYn_YMD` slots start with their month (`20261108`, or `202611` when empty), and a
  /// slot of another month, or a store list (`dataList`) instead, is a mismatch.
  /// The area is not checked: rows name it in Korean
  /// (`AREA`), the request by a letter (`areaCd`). An answer that does not read passes (its
  /// reader then says what is wrong).
  static func holidayListMismatch(_ answer: HTTPResponse, month: CalendarDate) -> String? {
    if case .absent? = JSONRowReader.rows(in: answer.body, key: "dateList"),
      case .rows? = JSONRowReader.rows(in: answer.body, key: "dataList")
    {
      return "a store list (\"dataList\"), not a holiday list"
    }
    let rows: [[String: JSONScalar]]
    do {
      rows = try decodeHolidayRows(answer.body, url: answer.requestURL)
    } catch {
      return nil
    }
    let monthText = "\(month.year)\(paddedMonth(month))"
    for row in rows {
      for slot in 1...3 {
        guard let value = row.text("HOLIDAY_DAY\(slot)_YMD"), value.count >= 6, !value.hasPrefix(monthText) else {
          continue
        }
        return "store \(row.text("JIJUM_ID") ?? "?") has the day \(value), not in \(monthText)"
      }
    }
    return nil
  }

  /// Why `answer` is not the holiday list of `area` (an `areaCd` letter), or nil when it may
  /// be: a row whose `AREA` names another province than the letter's (``areaProvinces``).
  static func holidayListMismatch(_ answer: HTTPResponse, area: String) -> String? {
    guard let asked = areaProvinces[area] else { return nil }
    let rows: [[String: JSONScalar]]
    do {
      rows = try decodeHolidayRows(answer.body, url: answer.requestURL)
    } catch {
      return nil
    }
    for row in rows {
      guard let name = row.text("AREA"), let province = Province(alias: name), province != asked else { continue }
      return "store \(row.text("JIJUM_ID") ?? "?") is in \(name), not in area \(area) (\(asked.officialName))"
    }
    return nil
  }
}
