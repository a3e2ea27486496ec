import Foundation
import MartCore
import MartFetch

/// 롯데슈퍼 stores through Lotte ON's `lotteplus` pages: the store list
/// `GET /p/lotteplus/offlinestore/selectStoreSearchList?mallNo=1&oflnMallNo=5&…&scrollIndex=N…`
/// (`{"storeInfo": [store, …]}`), read page by page from `scrollIndex=0` until a page lists no
/// store, then one closing-day request per store,
/// `GET /p/lotteplus/holiday/selectHolidayList?trNo=…&lrtrNo=…&oflnAfflCd=…&strKndCd=…`
/// (`{"holidayList": [{"holidayDate": "20260111"}, …]}`).
///
/// Per store: `sstrCd` (the id: `lotte-super-<sstrCd>`), `strNm`, and the ids of the holiday
/// request. A store without a `trNo` has no holiday lookup, and a store whose holiday list is
/// empty published nothing: both are `unknown`, never "open all year". The address and phone are
/// read when the list carries them (`strAddr`, `rprtTelNo`). Names may carry a format prefix
/// (`E다산역점`, `G속초조양점`, `(백)일산점`) or lack `점` (`남양주도곡`); the branch keeps the
/// published name beside a display name without the prefix.
///
/// A holiday answer names no store (its rows hold only `holidayDate`), so the holiday lists are
/// asked on lanes closed by a store list page (``readHolidays(of:_:)``): each store is asked
/// once where its lane holds. When every store got one answer none is believed (the brand keeps
/// its last data); list pages name no page number, so a page repeating only stores already read
/// is asked again on a fresh connection before it ends the list.
public struct LotteSuperSource: BrandSource {
  public static let name = "lotte-super"
  public static let brands: [BrandSlug] = [.lotteSuper]
  public static let origin = "https://www.lotteon.com"
  /// `holidayList` answers the current month's closing days: the months its dates fall in are covered.
  public static let closingDateCoverage = DateCoverage.wholeMonths
  /// No closing-day text is read; were one read, nothing says it lists a month.
  public static let closingTextCoverage = DateCoverage.asOfThroughLastListed

  public init() {}

  static let storeListPath = "/p/lotteplus/offlinestore/selectStoreSearchList"
  /// A store's holiday list's path (its query: ``holidayPath(for:)``).
  package static let holidayPath = "/p/lotteplus/holiday/selectHolidayList"
  /// No run reads more list pages than this, whatever the site answers.
  package static let maximumPages = 500
  /// How many holiday answers, all one, make a run's answers a cache's rather than stores that
  /// share their days: most stores close on the 2nd and 4th Sunday, but among twenty some lie
  /// in districts that close on weekdays (대구, 청주, 서초, …); the real list has about 240.
  static let storesToTellACache = 20

  /// Path and query of list page `index` (`scrollIndex`, from 0).
  package static func listPath(page index: Int) -> String {
    let fields: [(String, String)] = [
      ("mallNo", "1"), ("oflnMallNo", "5"), ("mbNo", ""), ("area1", ""), ("area2", ""), ("strNm", ""),
      ("scrollIndex", String(index)), ("strKndCd", ""), ("osDvsCd", "W"), ("fromMallNo", ""),
    ]
    return storeListPath + "?" + fields.map { "\($0.0)=\(FormEncoding.escape($0.1))" }.joined(separator: "&")
  }

  /// Path and query of a store's holiday request.
  static func holidayPath(for store: Store) -> String? {
    guard let trNo = store.trNo else { return nil }
    let fields: [(String, String)] = [
      ("trNo", trNo), ("lrtrNo", store.lrtrNo ?? ""), ("oflnAfflCd", store.oflnAfflCd ?? ""),
      ("strKndCd", store.strKndCd ?? ""),
    ]
    return holidayPath + "?" + fields.map { "\($0.0)=\(FormEncoding.escape($0.1))" }.joined(separator: "&")
  }

  public func collect(_ session: SourceSession) async throws(SourceError) -> [RawBranch] {
    guard session.brands.contains(.lotteSuper) else { return [] }
    var stores: [(store: Store, pageURL: String)] = []
    var seen = Set<String>()
    var page = 0
    while page < Self.maximumPages {
      var response = try await session.get(Self.listPath(page: page))
      var rows = try Self.parseStoreList(response.body, url: response.requestURL)
      // A list page names no page number; one that only repeats stores already read may be a
      // leftover copy of the page before, so it is asked once more on a fresh connection.
      if page > 0, response.cameOnReusedConnection, !rows.stores.isEmpty,
        rows.stores.allSatisfy({ seen.contains($0.code) })
      {
        response = try await session.send(.get(session.url(Self.listPath(page: page))).onFreshConnection)
        rows = try Self.parseStoreList(response.body, url: response.requestURL)
      }
      var added = 0
      for row in rows.stores where seen.insert(row.code).inserted {
        stores.append((row, response.requestURL))
        added += 1
      }
      for skipped in rows.withoutCode {
        session.warn("\(Self.name): \(response.requestURL): store \"\(skipped)\" has no sstrCd; skipped")
      }
      // An empty page ends the list; so does a page that only repeats stores already read
      // (a site that ignores `scrollIndex` would otherwise be read forever).
      if rows.stores.isEmpty && rows.withoutCode.isEmpty || added == 0 && !rows.stores.isEmpty { break }
      page += 1
    }
    guard !stores.isEmpty else {
      throw SourceError(
        source: session.sourceName, url: session.url(Self.listPath(page: 0)),
        reason: .unexpectedContent("the store list has no store with an sstrCd"))
    }
    let read = await Self.readHolidays(of: stores, session)
    // Holiday answers name no store: when every store of a run of many got one and the same
    // answer (a cache that ignores the query string), none can be told to be its store's. A few
    // stores may all close on the same days (one district's designation); a run of
    // ``storesToTellACache`` or more across districts does not.
    let answers = read.compactMap { $0.answer?.body }
    if answers.count >= Self.storesToTellACache, AnswerChecks.allAlike(answers) {
      throw SourceError(
        source: session.sourceName, url: session.url(Self.holidayPath),
        reason: .unexpectedContent(
          "all \(answers.count) stores' holiday lists are one answer, which names no store: none is believed"))
    }
    return read.map(\.branch)
  }

  /// `store` as a branch, with the closing days its holiday answer gives, and that answer, asked
  /// on `connection`. A failed answer costs only that store's days.
  static func readHolidays(
    of store: Store, listURL: String, connection: HTTPRequest.ConnectionChoice, _ session: SourceSession
  ) async -> (branch: RawBranch, answer: HTTPResponse?) {
    // The record is the list row; the holiday answer only adds its dates.
    var branch = store.rawBranch(listURL: listURL)
    guard let path = holidayPath(for: store) else {
      session.warn("no trNo to ask for closing days; closing days unknown", branch: branch.id)
      return (branch, nil)
    }
    var answer: HTTPResponse?
    do throws(SourceError) {
      let (response, holidays) = try await holidayList(at: path, of: store, connection: connection, session)
      answer = response
      branch.closingDates = holidays.dates
      for text in holidays.unreadable {
        session.warn("holidayDate \"\(text)\" is not a YYYYMMDD date", branch: branch.id)
      }
      if holidays.dates.isEmpty {
        session.warn("the holiday list is empty; closing days unknown", branch: branch.id)
      }
    } catch {
      session.warn("closing days not read (\(error)); closing days unknown", branch: branch.id)
    }
    return (branch, answer)
  }

  // MARK: - Parsing

  /// One store of the list, as published.
  public struct Store: Sendable, Hashable {
    /// `sstrCd`.
    public var code: String
    /// `strNm` as published, e.g. `E다산역점`.
    public var publishedName: String
    public var trNo: String?
    public var lrtrNo: String?
    public var oflnAfflCd: String?
    public var strKndCd: String?
    public var address: String?
    public var phone: String?
    public var coordinate: GeoPoint?

    /// The store as a branch without closing days; `sourceURL` is `listURL`.
    func rawBranch(listURL: String) -> RawBranch {
      let display = LotteSuperSource.displayName(publishedName)
      return RawBranch(
        id: BranchID(brand: .lotteSuper, storeID: code), name: display,
        publishedName: display == publishedName ? nil : publishedName, address: address, phone: phone,
        coordinate: coordinate, sourceURL: listURL)
    }
  }

  private struct StoreListBody: Decodable {
    let storeInfo: [JSONRow]?
  }

  /// The stores of one list page, and the names of rows without an `sstrCd`. A body without a
  /// `storeInfo` array, or with `null`, is an empty page.
  public static func parseStoreList(
    _ data: Data, url: String
  ) throws(SourceError) -> (stores: [Store], withoutCode: [String]) {
    let rows =
      try decodeRows(
        data, key: "storeInfo", url: url, expecting: "a \"storeInfo\" array", fallback: StoreListBody.self,
        rows: \.storeInfo) ?? []
    var stores: [Store] = []
    var withoutCode: [String] = []
    for row in rows {
      guard let code = row.text("sstrCd") else {
        withoutCode.append(row.text("strNm") ?? "(no name)")
        continue
      }
      let coordinate: GeoPoint? =
        if let latitude = (row["latitude"] ?? row["lat"])?.number,
          let longitude = (row["longitude"] ?? row["lon"] ?? row["lng"])?.number, latitude != 0, longitude != 0
        {
          GeoPoint(latitude: latitude, longitude: longitude)
        } else { nil }
      stores.append(
        Store(
          code: code, publishedName: row.text("strNm") ?? code, trNo: row.text("trNo"), lrtrNo: row.text("lrtrNo"),
          oflnAfflCd: row.text("oflnAfflCd"), strKndCd: row.text("strKndCd"),
          address: joined(row.text("strAddr"), row.text("strDtlAddr")),
          phone: row.text("rprtTelNo") ?? row.text("telNo"), coordinate: coordinate))
    }
    return (stores, withoutCode)
  }

  /// `strAddr` with `strDtlAddr` after it when the list splits the address.
  static func joined(_ address: String?, _ detail: String?) -> String? {
    guard let address else { return detail }
    guard let detail, !address.hasSuffix(detail) else { return address }
    return address + " " + detail
  }

  struct HolidayListBody: Decodable {
    let holidayList: [JSONRow]?
  }

  /// The dates of a holiday answer, sorted and once each, and the `holidayDate` texts that are
  /// not `YYYYMMDD` dates (`YYYY-MM-DD` is read too).
  public struct HolidayList: Sendable, Equatable {
    public var dates: [CalendarDate]
    public var unreadable: [String]

    init(rows: [JSONRow]) {
      var dates = Set<CalendarDate>()
      var unreadable: [String] = []
      for row in rows {
        guard let text = row.text("holidayDate") else { continue }
        // An ASCII date's numbers are its bytes 0 to 9, read without walking its characters.
        let digits =
          text.utf8.allSatisfy { $0 < 0x80 }
          ? String(decoding: text.utf8.filter { (0x30...0x39).contains($0) }, as: UTF8.self) : text.filter(\.isNumber)
        if digits.count == 8, let year = Int(digits.prefix(4)), let month = Int(digits.dropFirst(4).prefix(2)),
          let day = Int(digits.suffix(2)), let date = CalendarDate(year: year, month: month, day: day)
        {
          dates.insert(date)
        } else {
          unreadable.append(text)
        }
      }
      self.dates = dates.sorted()
      self.unreadable = unreadable
    }
  }

  /// The dates of a holiday answer (``HolidayList``). A missing or `null` list is empty.
  public static func parseHolidayList(_ data: Data, url: String) throws(SourceError) -> HolidayList {
    HolidayList(
      rows: try decodeRows(
        data, key: "holidayList", url: url, expecting: "a \"holidayList\" array", fallback: HolidayListBody.self,
        rows: \.holidayList) ?? [])
  }

  /// The published name without a format prefix: `E다산역점` → `다산역점`, `G속초조양점` →
  /// `속초조양점`, `(백)일산점` → `일산점`, `롯데슈퍼 잠실점` → `잠실점`; other names unchanged.
  public static func displayName(_ published: String) -> String {
    var name = published.trimmingSpaces()
    for prefix in ["롯데슈퍼 ", "롯데슈퍼"] where name.hasPrefix(prefix) && name.count > prefix.count {
      name = name.dropFirst(prefix.count).trimmingSpaces()
      break
    }
    // `(백)`: a parenthesis, one or two Hangul or Latin letters, a parenthesis, spaces around.
    var prefix = TextScanner(name, at: name.startIndex)
    if prefix.take(["("]), prefix.skip(\.isWhitespace), prefix.takeFormatLetters(), prefix.skip(\.isWhitespace),
      prefix.take([")"]), prefix.skip(\.isWhitespace), !prefix.isAtEnd
    {
      name = String(name[prefix.index...])
    }
    // One Latin capital glued to a Hangul name is a format code (E…, G…).
    if let first = name.unicodeScalars.first, ("A"..."Z").contains(first), name.count > 1,
      let second = name.unicodeScalars.dropFirst().first, (0xAC00...0xD7A3).contains(second.value)
    {
      name = String(name.unicodeScalars.dropFirst())
    }
    return name.isEmpty ? published : name
  }
}

extension BrandSlug {
  /// 롯데슈퍼.
  public static let lotteSuper: BrandSlug = "lotte-super"
}

extension TextScanner {
  /// One or two Hangul syllables or Latin letters, and no third.
  fileprivate mutating func takeFormatLetters() -> Bool {
    func isLetter(_ character: Character) -> Bool {
      guard character.unicodeScalars.count == 1, let scalar = character.unicodeScalars.first else { return false }
      return (0xAC00...0xD7A3).contains(scalar.value) || (scalar.isASCII && character.isLetter)
    }
    let start = index
    skip(isLetter)
    let count = text[start..<index].count
    guard (1...2).contains(count) else {
      self = TextScanner(text, at: start)
      return false
    }
    return true
  }
}
