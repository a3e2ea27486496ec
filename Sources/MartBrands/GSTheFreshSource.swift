import Foundation
import MartCore
import MartFetch

/// GS THE FRESH's store search, a paginated JSON list:
/// `GET /thefresh/ko/market-info/find-storelist?searchType=&pageNum=N&listCnt=3&…&searchShopName=`
/// with an empty search word lists every store, three per page. Each answer carries
/// `results` and `pagination` (`pageSize`, 0-based `currentPage`, `totalNumberOfResults`,
/// `numberOfPages`); every page is requested through the session.
///
/// Per store: `shopCode` (the id: `gs-thefresh-<shopCode>`), `shopName`, `phone`
/// (`054)278-1448~9`), `address` (road and lot forms mixed: `…중흥로 244(죽도동 607-1)`), hours
/// split into `timeSTH`/`timeSTM`/`timeEDH`/`timeEDM`, coordinates `lat`/`longs` (usually
/// swapped: decided by range per store), and up to four closing days `closedDate1…4` as
/// `MM월 DD일` (empty slots are `""`), handed over as dates with the year inferred from the
/// as-of date; a non-blank `shutDownDate` is the branch's status text. `sourceURL` is the list
/// page the store was read from; the site has no page of a store's own (`pageURL` is `nil`).
public struct GSTheFreshSource: BrandSource {
  public static let name = "gs-thefresh"
  public static let brands: [BrandSlug] = [.gsTheFresh]
  public static let origin = "http://gsthefresh.gsretail.com"
  /// `closedDate1…4` hold two months' closing days, the current month's ones already past
  /// included (`11월 08일`, `11월 22일`, `12월 13일`, `12월 27일` as of 11/20).
  public static let closingDateCoverage = DateCoverage.wholeMonths
  /// Slots that are no `MM월 DD일` date are kept as text: nothing says they list a month.
  public static let closingTextCoverage = DateCoverage.asOfThroughLastListed

  public init() {}

  static let storeListPath = "/thefresh/ko/market-info/find-storelist"
  /// Stores per page, as the site pages them.
  package static let pageSize = 3
  /// No run requests more pages than this, whatever the site says (about 3,000 stores).
  package static let maximumPages = 1000

  /// Path and query of page `pageNumber` (1-based, as the site's own pager counts, unless the
  /// site says otherwise; see `collect`) of the
  /// unfiltered list.
  package static func listPath(pageNumber: Int) -> String {
    let fields: [(String, String)] = [
      ("searchType", ""), ("pageNum", String(pageNumber)), ("listCnt", String(pageSize)),
      ("pagingCnt", "10"), ("pagingNowIdx", "1"), ("totlPageNum", "1"), ("stb1", ""), ("stb2", ""),
      ("searchShopName", ""),
    ]
    return storeListPath + "?" + fields.map { "\($0.0)=\(FormEncoding.escape($0.1))" }.joined(separator: "&")
  }

  public func collect(_ session: SourceSession) async throws(SourceError) -> [RawBranch] {
    guard session.brands.contains(.gsTheFresh) else { return [] }
    var stores: [(store: Store, pageURL: String)] = []
    var seenCodes = Set<String>()
    var expected: Pagination?
    // The site's own pager asks for `pageNum=1` first and answers `currentPage` 0; should the
    // site count `pageNum` from 0 instead, the first answer says so (`currentPage` 1) and the
    // pages are numbered that way from then on. Every page 0..<numberOfPages is read once.
    var pageNumberOffset: Int?
    var pagesRead = Set<Int>()
    var drifted = false
    /// Checks one answer against the pages read before and keeps its stores.
    func take(_ page: Page, asked pageNumber: Int, url: String) throws(SourceError) {
      func inconsistent(_ detail: String) -> SourceError {
        SourceError(
          source: session.sourceName, url: url, reason: .unexpectedContent("inconsistent pagination: \(detail)"))
      }
      let pagination = page.pagination
      let offset = pageNumberOffset ?? pageNumber - pagination.currentPage
      guard [0, 1].contains(offset), pagination.currentPage == pageNumber - offset,
        pagesRead.insert(pagination.currentPage).inserted
      else {
        throw inconsistent("asked for page \(pageNumber), got currentPage \(pagination.currentPage) (0-based)")
      }
      pageNumberOffset = offset
      if let expected {
        // A list of ~170 pages read over minutes can gain or lose a store meanwhile: the count
        // drifting is said once, and each page still proves its number (`currentPage`).
        if expected.numberOfPages != pagination.numberOfPages
          || expected.totalNumberOfResults != pagination.totalNumberOfResults, !drifted
        {
          drifted = true
          session.warn(
            "\(Self.name): \(url): page \(pageNumber) reports \(pagination.totalNumberOfResults) stores on"
              + " \(pagination.numberOfPages) pages, the first page read reported \(expected.totalNumberOfResults) on"
              + " \(expected.numberOfPages); the list changed while it was read")
        }
      } else {
        guard pagination.numberOfPages <= Self.maximumPages else {
          throw SourceError(
            source: session.sourceName, url: url,
            reason: .unexpectedContent(
              "the list claims \(pagination.numberOfPages) pages, more than the safety cap of \(Self.maximumPages) pages a run reads"
            ))
        }
        guard pagination.numberOfPages >= 1,
          pagination.totalNumberOfResults >= 1,
          pagination.totalNumberOfResults <= pagination.numberOfPages * max(pagination.pageSize, 1)
        else {
          throw inconsistent(
            "\(pagination.totalNumberOfResults) stores on \(pagination.numberOfPages) pages of \(pagination.pageSize)")
        }
        expected = pagination
      }
      guard
        !page.stores.isEmpty || pagination.currentPage >= pagination.numberOfPages - 1
          || pagination.currentPage == (expected?.numberOfPages ?? 0) - 1
      else {
        throw inconsistent("page \(pageNumber) of \(pagination.numberOfPages) has no stores")
      }
      session.warn(skipped: page.skipped)
      for store in page.stores where seenCodes.insert(store.shopCode).inserted {
        stores.append((store, url))
      }
    }
    /// Page `pageNumber`, which must say it is page `page` (0-based `currentPage`) when that is
    /// known: another page's answer is asked again on a fresh connection.
    @Sendable func read(
      _ pageNumber: Int, page: Int?, _ session: SourceSession
    ) async throws(SourceError) -> (Page, url: String) {
      // Each answer is read once: the reading of the answer the check lets through is the page.
      var reading: Result<Page, SourceError>?
      let response = try await session.get(Self.listPath(pageNumber: pageNumber)) { answer in
        let read = Result { () throws(SourceError) in try Self.parsePage(answer.body, url: answer.requestURL) }
        reading = read
        guard let page, case .success(let read) = read, read.pagination.currentPage != page else { return nil }
        return "the answer is page \(read.pagination.currentPage) (0-based), not page \(page)"
      }
      let read =
        reading ?? Result { () throws(SourceError) in try Self.parsePage(response.body, url: response.requestURL) }
      return (try read.get(), response.requestURL)
    }
    let (firstPage, firstURL) = try await read(1, page: nil, session)
    try take(firstPage, asked: 1, url: firstURL)
    // The first page gives the page count and numbering: the others are asked for together
    // and checked in order, as if read one after another.
    guard let pageCount = expected?.numberOfPages, let offset = pageNumberOffset else { return [] }
    let otherPageNumbers = (0..<pageCount).filter { !pagesRead.contains($0) }.map { $0 + offset }
    let otherPages = await session.sideBySide(otherPageNumbers) { session, pageNumber in
      do throws(SourceError) {
        return Result<(Page, url: String), SourceError>.success(
          try await read(pageNumber, page: pageNumber - offset, session))
      } catch {
        return .failure(error)
      }
    }
    for (pageNumber, result) in zip(otherPageNumbers, otherPages) {
      let (page, url) = try result.get()
      try take(page, asked: pageNumber, url: url)
    }
    if let expected, stores.count != expected.totalNumberOfResults {
      session.warn(
        "\(Self.name): the list reported \(expected.totalNumberOfResults) stores, its pages held \(stores.count)")
    } else if let expected, !drifted {
      // Every page stated the same count (`totalNumberOfResults`), and the pages held that many
      // stores: the answer is complete.
      session.listedEveryStore(
        of: .gsTheFresh,
        stated:
          "the list states \(expected.totalNumberOfResults) stores (totalNumberOfResults) and its pages hold them all")
    }
    return stores.map { store, pageURL in
      let branch = store.rawBranch(asOf: session.asOf, sourceURL: pageURL)
      for slot in store.unreadClosingSlots {
        session.warn("closing day \"\(slot)\" is not a MM월 DD일 date", branch: branch.id)
      }
      return branch
    }
  }

  // MARK: - Parsing

  /// The list's paging counters.
  public struct Pagination: Sendable, Hashable {
    public var pageSize: Int
    /// 0-based.
    public var currentPage: Int
    public var totalNumberOfResults: Int
    public var numberOfPages: Int

    public init(pageSize: Int, currentPage: Int, totalNumberOfResults: Int, numberOfPages: Int) {
      self.pageSize = pageSize
      self.currentPage = currentPage
      self.totalNumberOfResults = totalNumberOfResults
      self.numberOfPages = numberOfPages
    }
  }

  /// One page of the list.
  public struct Page: Sendable {
    public var stores: [Store]
    public var pagination: Pagination
    /// The rows skipped for lack of a `shopCode` or a `shopName`.
    public var skipped: [SkippedRow] = []
  }

  /// One store as published.
  public struct Store: Sendable, Hashable {
    public var shopCode: String
    public var shopName: String
    public var phone: String?
    public var address: String?
    /// `HH:MM ~ HH:MM` from the four time fields, when all are present.
    public var openingHours: String?
    /// Coordinates oriented by range: latitude 33–39, longitude 124–132, whichever field holds
    /// which; `nil` when the pair fits Korea in neither orientation.
    public var coordinate: GeoPoint?
    /// `closedDate1…4` in slot order, empty slots dropped, as published.
    public var closingDays: [String]
    /// The day the store closes for good, exactly as published (format undocumented; read as
    /// `YYYYMMDD` or `YYYY-MM-DD`); `nil` when blank. Passed on as the branch's status text: a
    /// day on or before the as-of date makes the branch closed, a later day an announced
    /// shutdown (trading until then, shut from that day).
    public var shutDownDate: String?

    /// Closing slots that are not `MM월 DD일`.
    public var unreadClosingSlots: [String] {
      closingDays.filter { GSTheFreshSource.monthDay($0) == nil }
    }

    /// The branch, with the closing days as dates nearest to `asOf`, read from `sourceURL`.
    public func rawBranch(asOf: CalendarDate, sourceURL: String) -> RawBranch {
      let dates = closingDays.compactMap(GSTheFreshSource.monthDay).compactMap {
        CalendarDate.nearest(month: $0.month, day: $0.day, to: asOf)
      }
      let unread = unreadClosingSlots
      return RawBranch(
        id: BranchID(brand: .gsTheFresh, storeID: shopCode),
        name: GSTheFreshSource.strippingBrandPrefix(shopName),
        address: address,
        phone: phone,
        openingHours: openingHours,
        coordinate: coordinate,
        closingText: unread.isEmpty ? nil : unread.joined(separator: ", "),
        closingDates: Array(Set(dates)).sorted(),
        statusText: shutDownDate,
        sourceURL: sourceURL)
    }
  }

  private struct PageBody: Decodable {
    struct PaginationBody: Decodable {
      let pageSize: JSONScalar?
      let currentPage: JSONScalar?
      let totalNumberOfResults: JSONScalar?
      let numberOfPages: JSONScalar?
    }
    let results: [JSONRow]
    let pagination: PaginationBody
  }

  /// The `results` rows and the `pagination` fields of a page, read by ``JSONRowReader``; what
  /// it does not accept goes through `JSONDecoder` (as `PageBody`), which words the error.
  private static func pageBody(
    _ data: Data, url: String
  ) throws(SourceError) -> (results: [JSONRow], pagination: JSONRow) {
    if let members = JSONRowReader.members(in: data, keys: ["results", "pagination"]),
      case .rows(let results)? = members["results"], case .object(let pagination)? = members["pagination"]
    {
      return (results, pagination)
    }
    let body = try decodeJSON(PageBody.self, from: data, url: url, expecting: "\"results\" and \"pagination\"")
    let counters: [String: JSONScalar?] = [
      "pageSize": body.pagination.pageSize, "currentPage": body.pagination.currentPage,
      "totalNumberOfResults": body.pagination.totalNumberOfResults, "numberOfPages": body.pagination.numberOfPages,
    ]
    return (body.results, JSONRow(counters.compactMapValues { $0 }))
  }

  /// Reads one page of the list. Rows without a `shopCode` or `shopName` are skipped and listed
  /// in the page's `skipped`.
  ///
  /// Throws `SourceError.unexpectedContent` when there is no `results` array or no
  /// `pagination` with whole-number counters.
  public static func parsePage(_ data: Data, url: String) throws(SourceError) -> Page {
    let body = try pageBody(data, url: url)
    func counter(_ key: String) throws(SourceError) -> Int {
      // Absent, `null` and anything but a whole number alike.
      guard let number = body.pagination[key]?.number, number == number.rounded(), abs(number) < 1e9 else {
        throw SourceError(
          source: Self.name, url: url, reason: .unexpectedContent("pagination.\(key) is not a whole number"))
      }
      return Int(number)
    }
    let pagination = Pagination(
      pageSize: try counter("pageSize"), currentPage: try counter("currentPage"),
      totalNumberOfResults: try counter("totalNumberOfResults"), numberOfPages: try counter("numberOfPages"))
    var skipped: [SkippedRow] = []
    let stores = body.results.enumerated().compactMap { index, row -> Store? in
      guard let code = row.text("shopCode"), let shopName = row.text("shopName") else {
        skipped.append(
          SkippedRow(
            row, at: index, of: "the store list", url: url, lacking: [["shopCode"], ["shopName"]], nameKey: "shopName"))
        return nil
      }
      return Store(
        shopCode: code, shopName: shopName, phone: row.text("phone"), address: row.text("address"),
        openingHours: openingHours(of: row),
        coordinate: orientedCoordinate(row["lat"]?.number, row["longs"]?.number).map { point in
          var point = point
          point.fractionDigits = [row["lat"]?.fractionDigits, row["longs"]?.fractionDigits].compactMap { $0 }.min()
          return point
        },
        closingDays: (1...4).compactMap { row.text("closedDate\($0)") },
        shutDownDate: row.text("shutDownDate"))
    }
    return Page(stores: stores, pagination: pagination, skipped: skipped)
  }

  /// `03월 08일`, `3월8일` → (3, 8); `nil` for anything else. Spaces may surround every part;
  /// month and day have one or two digits.
  public static func monthDay(_ text: String) -> (month: Int, day: Int)? {
    // Read scalar by scalar in one pass, `next` the scalar not yet taken, without making
    // substrings.
    var scalars = text.unicodeScalars.makeIterator()
    var next = scalars.next()
    func skipSpaces() {
      // Told without a Unicode property lookup (`Trimming.isWhitespace`).
      while let scalar = next, Trimming.isWhitespace(scalar) { next = scalars.next() }
    }
    func number() -> Int? {
      var value = 0
      var count = 0
      while let digit = next, ("0"..."9").contains(digit), count < 3 {
        value = value * 10 + Int(digit.value - 0x30)
        count += 1
        next = scalars.next()
      }
      return (1...2).contains(count) ? value : nil
    }
    func expect(_ word: Unicode.Scalar) -> Bool {
      guard next == word else { return false }
      next = scalars.next()
      return true
    }
    skipSpaces()
    guard let month = number() else { return nil }
    skipSpaces()
    guard expect("월") else { return nil }
    skipSpaces()
    guard let day = number() else { return nil }
    skipSpaces()
    guard expect("일") else { return nil }
    skipSpaces()
    guard next == nil, (1...12).contains(month), (1...31).contains(day) else { return nil }
    return (month, day)
  }

  /// The pair as latitude/longitude in whichever order fits Korea (latitude 33–39, longitude
  /// 124–132); `nil` when neither order does.
  public static func orientedCoordinate(_ first: Double?, _ second: Double?) -> GeoPoint? {
    guard let first, let second else { return nil }
    let latitudes = 33.0...39.0
    let longitudes = 124.0...132.0
    if latitudes.contains(first) && longitudes.contains(second) {
      return GeoPoint(latitude: first, longitude: second)
    }
    if latitudes.contains(second) && longitudes.contains(first) {
      return GeoPoint(latitude: second, longitude: first)
    }
    return nil
  }

  /// `timeSTH:timeSTM ~ timeEDH:timeEDM`, e.g. `10:00 ~ 23:00`.
  static func openingHours(of row: JSONRow) -> String? {
    func padded(_ key: String) -> String? {
      // One or two ASCII digits, told from the bytes.
      guard let text = row.text(key), text.utf8.count <= 2, text.utf8.allSatisfy({ (0x30...0x39).contains($0) })
      else { return nil }
      return text.utf8.count == 1 ? "0" + text : text
    }
    guard let startHour = padded("timeSTH"), let endHour = padded("timeEDH") else { return nil }
    let startMinute = padded("timeSTM") ?? "00"
    let endMinute = padded("timeEDM") ?? "00"
    return "\(startHour):\(startMinute) ~ \(endHour):\(endMinute)"
  }

  /// `GS더프레시 방배점` → `방배점`; names without a prefix are returned unchanged.
  static func strippingBrandPrefix(_ name: String) -> String {
    for prefix in ["GS THE FRESH ", "GS더프레시 ", "GS 더프레시 ", "GS슈퍼마켓 "] where name.hasPrefix(prefix) {
      let stripped = name.dropFirst(prefix.count).trimmingSpaces()
      if !stripped.isEmpty { return stripped }
    }
    return name
  }
}

extension BrandSlug {
  /// GS더프레시.
  public static let gsTheFresh: BrandSlug = "gs-thefresh"
}
