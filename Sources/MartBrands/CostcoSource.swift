import Foundation
import MartCore
import MartFetch
import MartHTML

/// Costco Korea's warehouses, from two sources of the one site:
///
/// - **Primary, the OCC API** (what every 2026 client reads; `../docs/cli.md#brands`):
///   `GET /rest/v2/korea/stores?fields=FULL&pageSize=50&currentPage=<n>` answers JSON
///   `{"stores": [warehouse, …], "pagination": {"currentPage", "totalPages", …}}`; the pages
///   are read until `totalPages`. Per warehouse: `warehouseCode` (rows without one are stubs
///   for announced, unopened warehouses and are skipped), `name` (English), `displayName`,
///   `url`, `address.{line1, line2, phone}`, `geoPoint.{latitude, longitude}`,
///   `openingHours.weekDayOpeningList[]` and `openingHours.specialDayOpeningList[]`
///   (`date`, `closed`, `name`), and the closing rule as an HTML fragment in
///   `warehouseInformation` (there is no `storeContent`). Only a `closed` entry **with a
///   name** is a closure: runs of unnamed closed days were seen that were not closures, a date
///   can be listed twice, and a warehouse can swap a day in this list alone. The named closures
///   are passed on as closing dates (they win over the rule in the months they fall in); the
///   rule text covers the other months.
/// - **Fallback, the store finder** (read by clients up to 2025; the 2026 site serves it as a
///   single-page app, so it is expected to fail): `GET /store-finder/search?q=Korea%2C+Republic+of&page=0`
///   answers `{"data": [warehouse, …]}` with every warehouse on page 0 and the closing rules in
///   `storeContent`. It is read only when the API fails, with a warning naming the failure.
///
/// Both fragments carry the rule (`매월 둘째, 넷째 일요일 의무 휴무`), the fixed holidays
/// (`*휴무일: 1/1, 설날, 추석 (전일은 오후 7시까지 영업)`) and notices such as
/// `※ 일산점은 2월 13일 (수요일) 정상영업 합니다.`. A notice naming another warehouse is dropped;
/// the rest becomes the branch's closing text.
///
/// Branch ids are `costco-<name>`, `name` being the warehouse's English name with each run of
/// whitespace replaced by `-` (`costco-Daejeon`, `costco-Daegu-Innovation-City`): both sources
/// publish the same English names, so a warehouse keeps its id whichever source it came from.
/// `sourceURL` is the page read; `pageURL` the warehouse page, the feed's `url` without its
/// search query.
public struct CostcoSource: BrandSource {
  public static let name = "costco"
  public static let brands: [BrandSlug] = [.costco]
  public static let origin = "https://www.costco.co.kr"
  /// The text is the warehouse's rules; a date in it is a notice about that day alone
  /// (`2월 13일 정상영업`), and so is each named closure of the API's special days.
  public static let closingDateCoverage = DateCoverage.listedDaysOnly
  /// The text's dates are notices about one day each (`2월 13일 정상영업`), never a month's list.
  public static let closingTextCoverage = DateCoverage.listedDaysOnly

  public init() {}

  /// The OCC API's store list, page `page` (counted from 0).
  package static func storesPath(page: Int) -> String {
    "/rest/v2/korea/stores?fields=FULL&pageSize=50&currentPage=\(page)"
  }

  /// The most pages read from the API; a `totalPages` beyond it is read up to it, with a warning.
  static let maximumPages = 20

  /// The search listing every Korean warehouse (the fallback).
  package static let storeFinderPath = "/store-finder/search?q=Korea%2C+Republic+of&page=0"

  public func collect(_ session: SourceSession) async throws(SourceError) -> [RawBranch] {
    guard session.brands.contains(.costco) else { return [] }
    do {
      return try await Self.collectFromAPI(session)
    } catch let primaryError {
      let fallback: [RawBranch]
      do {
        let response = try await session.get(Self.storeFinderPath)
        fallback = try Self.parseStoreFinder(response.body, url: response.requestURL, origin: session.baseURL)
      } catch {
        throw primaryError.withFallbackFailed("the fallback, the \(Self.storeFinderSource),")
      }
      session.usedFallback(Self.storeFinderSource, primaryFailure: primaryError)
      return fallback
    }
  }

  public static let primaryData = "costco OCC API (/rest/v2/korea/stores)"
  /// The fallback, as reports name it.
  public static let storeFinderSource = "costco store finder (/store-finder/search)"

  /// Every page of the API's store list.
  static func collectFromAPI(_ session: SourceSession) async throws(SourceError) -> [RawBranch] {
    var branches: [RawBranch] = []
    var seen = Set<String>()
    var page = 0
    var pageCount = 1
    var statedTotal: Int?
    var rowsRead = 0
    var everyRowRead = true
    while page < pageCount {
      let asked = page
      let response = try await session.get(
        storesPath(page: page), answering: { pageMismatch($0, page: asked) },
        unproven: { answeredPage(in: $0.body) == nil })
      let answer = try parseStores(response.body, url: response.requestURL, origin: session.baseURL)
      for branch in answer.branches where seen.insert(branch.id.storeID).inserted {
        branches.append(branch)
      }
      rowsRead += answer.rowCount
      everyRowRead = everyRowRead && answer.unreadRows == 0
      if page == 0 {
        pageCount = min(max(answer.totalPages ?? 1, 1), maximumPages)
        statedTotal = answer.totalResults
        if let total = answer.totalPages, total > maximumPages {
          everyRowRead = false
          session.warn("\(response.requestURL): \(total) pages announced; the first \(maximumPages) read")
        }
      }
      page += 1
    }
    guard !branches.isEmpty else {
      throw SourceError(
        source: Self.name, url: session.url(storesPath(page: 0)),
        reason: .unexpectedContent("no page listed a warehouse with a warehouseCode, a name and a displayName"))
    }
    // The answer states how many stores it matched (`pagination.totalResults`, the OCC API's
    // pagination; the announced warehouses without a code among them): when the pages held that
    // many rows and every warehouse of them was read, the answer is complete.
    if let statedTotal, everyRowRead, rowsRead == statedTotal {
      session.listedEveryStore(
        of: .costco,
        stated: "the OCC API states \(statedTotal) stores (pagination.totalResults) and its pages list them all")
    }
    return branches
  }

  // MARK: - OCC API

  private struct PaginationOnly: Decodable {
    struct Pagination: Decodable { var currentPage: JSONScalar? }
    var pagination: Pagination?
  }

  /// The page an API answer says it is (`pagination.currentPage`), when it says.
  static func answeredPage(in body: Data) -> Int? {
    guard let read = try? JSONDecoder().decode(PaginationOnly.self, from: body),
      let number = read.pagination?.currentPage?.number
    else { return nil }
    return Int(number)
  }

  /// Why an API answer is not page `page` of the store list, or nil when it may be: its
  /// `pagination.currentPage` (the page it is, as the OCC API and 2026 clients that page with
  /// `currentPage` read it) names another page. An answer that does not say passes, compared
  /// with the run's other answers instead.
  static func pageMismatch(_ answer: HTTPResponse, page: Int) -> String? {
    guard let answered = answeredPage(in: answer.body), answered != page else { return nil }
    return "the answer is page \(answered) of the store list, not page \(page)"
  }

  /// One page of the API's store list.
  public struct StoresPage: Sendable {
    /// The page's warehouses, in feed order.
    public var branches: [RawBranch]
    /// `pagination.totalPages`, when published.
    public var totalPages: Int?
    /// `pagination.totalResults` (every store the API matched, on all pages), when published.
    public var totalResults: Int? = nil
    /// The page's `stores` rows, the announced warehouses without a `warehouseCode` included.
    public var rowCount = 0
    /// Rows with a `warehouseCode` that were not read (no `name` or `displayName`, a name repeated).
    public var unreadRows = 0
  }

  private struct StoresBody: Decodable {
    struct Store: Decodable {
      struct Address: Decodable {
        var line1: JSONScalar?
        var line2: JSONScalar?
        var phone: JSONScalar?
      }
      struct OpeningHours: Decodable {
        struct Time: Decodable { var formattedHour: JSONScalar? }
        struct WeekDay: Decodable {
          var openingTime: Time?
          var closingTime: Time?
          var closed: JSONScalar?
        }
        struct SpecialDay: Decodable {
          var date: JSONScalar?
          var closed: JSONScalar?
          var name: JSONScalar?
        }
        var weekDayOpeningList: [WeekDay]?
        var specialDayOpeningList: [SpecialDay]?
      }
      var warehouseCode: JSONScalar?
      var name: JSONScalar?
      var displayName: JSONScalar?
      var url: JSONScalar?
      var address: Address?
      var geoPoint: JSONRow?
      var openingHours: OpeningHours?
      var warehouseInformation: JSONScalar?
    }
    struct Pagination: Decodable {
      var totalPages: JSONScalar?
      var currentPage: JSONScalar?
      var totalResults: JSONScalar?
    }
    var stores: [Store]
    var pagination: Pagination?
  }

  /// Reads one page of the API's store list into branches, in feed order; rows without a
  /// `warehouseCode` (unopened warehouses), a `name` or a `displayName` are skipped, and a
  /// repeated `name` keeps its first row. `origin` (`scheme://host`) makes the warehouse pages
  /// absolute.
  ///
  /// Throws `SourceError.unexpectedContent` when the body is not JSON with a `stores` array (the
  /// single-page app's HTML, an error object).
  public static func parseStores(
    _ data: Data, url: String, origin: String = CostcoSource.origin
  ) throws(SourceError) -> StoresPage {
    let body = try decodeJSON(StoresBody.self, from: data, url: url, expecting: "a \"stores\" array")
    var branches: [RawBranch] = []
    var seen = Set<String>()
    for store in body.stores {
      guard store.warehouseCode?.text != nil, let englishName = store.name?.text,
        let displayName = store.displayName?.text
      else { continue }
      let storeID = storeID(fromName: englishName)
      guard seen.insert(storeID).inserted else { continue }
      let content = store.warehouseInformation?.text.map { StoreContent(html: $0, url: url) }
      branches.append(
        RawBranch(
          id: BranchID(brand: .costco, storeID: storeID),
          name: displayName,
          address: store.address?.line1?.text,
          lotAddress: store.address?.line2?.text,
          phone: store.address?.phone?.text,
          openingHours: content?.openingHours ?? weekDayHours(store.openingHours?.weekDayOpeningList ?? []),
          coordinate: store.geoPoint?.point(latitude: "latitude", longitude: "longitude"),
          closingText: content?.closingText(forWarehouse: displayName),
          closingDates: namedClosures(
            (store.openingHours?.specialDayOpeningList ?? []).map { ($0.date?.text, $0.closed, $0.name?.text) }),
          sourceURL: url,
          pageURL: storePage(store.url?.text, origin: origin)))
    }
    let totalPages = body.pagination?.totalPages?.number.map { Int($0) }
    let coded = body.stores.filter { $0.warehouseCode?.text != nil }.count
    return StoresPage(
      branches: branches, totalPages: totalPages,
      totalResults: body.pagination?.totalResults?.number.map { Int($0) }, rowCount: body.stores.count,
      unreadRows: coded - branches.count)
  }

  /// The closures among special days `(date, closed, name)`: a `closed` entry with a name, its
  /// date the first ten characters of `date` (`2026-11-08…`), each date once, in order. Unnamed
  /// closed entries are not closures.
  static func namedClosures(_ days: [(date: String?, closed: JSONScalar?, name: String?)]) -> [CalendarDate] {
    var dates = Set<CalendarDate>()
    for day in days where day.name != nil {
      let closed: Bool =
        switch day.closed {
        case .bool(let flag)?: flag
        case .string(let text)?: text.lowercased() == "true"
        default: false
        }
      guard closed, let text = day.date, let date = CalendarDate(iso: String(text.prefix(10))) else { continue }
      dates.insert(date)
    }
    return dates.sorted()
  }

  /// The hours of the first open weekday: `<opening> - <closing>` of their `formattedHour`, as
  /// published (its 오전/오후 is sometimes wrong, so the rule fragment's hours come first).
  private static func weekDayHours(_ days: [StoresBody.Store.OpeningHours.WeekDay]) -> String? {
    for day in days where day.closed?.text != "true" {
      if let opening = day.openingTime?.formattedHour?.text, let closing = day.closingTime?.formattedHour?.text {
        return "\(opening) - \(closing)"
      }
    }
    return nil
  }

  // MARK: - Store finder

  private struct StoreFinderBody: Decodable {
    let data: [JSONRow]
  }

  /// Reads a store-finder answer (the fallback) into branches, in feed order; a repeated `name`
  /// keeps its first record. `origin` (`scheme://host`) makes the warehouse pages absolute.
  ///
  /// Throws `SourceError.unexpectedContent` when the body has no `data` array or no record has
  /// a `name` and a `displayName`.
  public static func parseStoreFinder(
    _ data: Data, url: String, origin: String = CostcoSource.origin
  ) throws(SourceError) -> [RawBranch] {
    let records =
      try decodeRows(
        data, key: "data", url: url, expecting: "a \"data\" array", fallback: StoreFinderBody.self, rows: \.data) ?? []
    var branches: [RawBranch] = []
    var seen = Set<String>()
    for record in records {
      guard let englishName = record.text("name"), let displayName = record.text("displayName") else {
        continue
      }
      let storeID = storeID(fromName: englishName)
      guard seen.insert(storeID).inserted else { continue }
      let content = record.text("storeContent").map { StoreContent(html: $0, url: url) }
      let coordinate = record.point(latitude: "latitude", longitude: "longitude")
      branches.append(
        RawBranch(
          id: BranchID(brand: .costco, storeID: storeID),
          name: displayName,
          address: record.text("line1"),
          lotAddress: record.text("line2"),
          phone: record.text("phone"),
          openingHours: content?.openingHours,
          coordinate: coordinate,
          closingText: content?.closingText(forWarehouse: displayName),
          sourceURL: url,
          pageURL: storePage(record.text("url"), origin: origin)))
    }
    guard !branches.isEmpty else {
      throw SourceError(
        source: Self.name, url: url,
        reason: .unexpectedContent("\"data\" has \(records.count) records but none with a name and a displayName"))
    }
    return branches
  }

  /// `Daegu Innovation City` → `Daegu-Innovation-City`.
  static func storeID(fromName name: String) -> String {
    name.split(whereSeparator: \.isWhitespace).joined(separator: "-")
  }

  /// The absolute warehouse page for the feed's `url` (`/store/Daejeon?lat=…&q=Korea, Republic of`):
  /// the path only, percent-encoded once, on `origin`.
  static func storePage(_ published: String?, origin: String) -> String? {
    guard let published else { return nil }
    let path = published.prefix { $0 != "?" && $0 != "#" }.trimmingSpaces()
    guard path.hasPrefix("/"),
      let encoded = (path.removingPercentEncoding ?? path).addingPercentEncoding(withAllowedCharacters: .urlPathAllowed)
    else { return nil }
    return origin + encoded
  }
}

/// The text of a warehouse's `storeContent` fragment, with the parts the branch needs.
struct StoreContent {
  /// The fragment's text: text nodes in document order, `<br>` and block ends as newlines.
  let text: String

  init(html: String, url: String) {
    var lines = ""
    // libxml2 reads the fragment, the stray `</body> </html>` and the text after it; any text
    // it keeps is in a text node somewhere, so walking all of them loses nothing.
    if let document = try? HTMLDocument(data: Data(html.utf8), url: url, charset: "UTF-8") {
      // `//text() | //br | //p | //h3 | //div`, in document order.
      for node in document.nodes {
        if node.isText {
          lines += node.rawText
        } else if node.hasName("br") || node.hasName("p") || node.hasName("h3") || node.hasName("div") {
          lines += "\n"
        }
      }
    } else {
      lines = html
    }
    text = lines
  }

  /// `오전 10:00 - 오후 10:00`: the first range of two 오전/오후 times (`오전|오후`, spaces, one or
  /// two digits, `:`, two digits; spaces, `-` or `~`, spaces; the second time alike).
  var openingHours: String? {
    var start = text.startIndex
    while let found = Self.meridiem(in: text, from: start) {
      var scanner = TextScanner(text, at: found)
      if scanner.skipTime(), scanner.skip(\.isWhitespace), scanner.take(["-", "~"]), scanner.skip(\.isWhitespace),
        scanner.skipTime()
      {
        return String(text[found..<scanner.index])
      }
      start = text.index(after: found)
    }
    return nil
  }

  /// Where the first `오전` or `오후` at or after `start` begins.
  private static func meridiem(in text: String, from start: String.Index) -> String.Index? {
    var index = start
    while let found = text[index...].firstIndex(of: "오") {
      let next = text.index(after: found)
      if next < text.endIndex, text[next] == "전" || text[next] == "후" { return found }
      index = next
    }
    return nil
  }

  /// The closing-day text for warehouse `displayName`: the monthly rule, the fixed holidays and
  /// the notices that name this warehouse or none, joined by `, `. `nil` when there is none.
  func closingText(forWarehouse displayName: String) -> String? {
    var parts: [String] = []
    // Every line feed out, as Foundation's `replacingOccurrences` takes them out (by UTF-16 code
    // units, so the one of a CR LF too), without the round trip through `NSString`.
    let flat = String(decoding: text.utf8.filter { $0 != UInt8(ascii: "\n") }, as: UTF8.self)
    if let rule = Self.monthlyRule(in: flat) {
      parts.append(String(rule))
    }
    for line in text.split(separator: "\n") {
      if let holidays = Self.holidayLine(in: line) {
        parts.append(holidays.trimmingSpaces())
      }
      // Each `※` and what follows it up to the next `※` or the end of the line.
      for notice in line.split(separator: "※", omittingEmptySubsequences: false).dropFirst() {
        let notice = ("※" + notice).trimmingSpaces()
        if let named = Self.warehouseNamed(in: notice), !Self.sameWarehouse(named, displayName) { continue }
        parts.append(notice)
      }
    }
    return parts.isEmpty ? nil : parts.joined(separator: ", ")
  }

  /// The monthly rule: the first `매월 … 휴무` within a sentence (no `.` or `※` between them). Each
  /// sentence is read once, where a lazy pattern tried from every `매월` rereads the sentence from
  /// each one.
  static func monthlyRule(in text: String) -> Substring? {
    for sentence in text.split(whereSeparator: { $0 == "." || $0 == "※" }) {
      guard let month = sentence.firstRange(of: "매월"),
        let closure = sentence[month.upperBound...].firstRange(of: "휴무")
      else { continue }
      return sentence[month.lowerBound..<closure.upperBound]
    }
    return nil
  }

  /// The fixed holidays of a line: `* 휴무일: …` up to a `※` or the end of the line. The pattern
  /// starts at `휴무일`, and the `*` and spaces before it are taken after the match, so that a long
  /// run of spaces is not read again from each of its spaces.
  static func holidayLine(in line: Substring) -> Substring? {
    var from = line.startIndex
    while let word = line[from...].firstRange(of: "휴무일") {
      var scanner = TextScanner(line, at: word.upperBound)
      if scanner.skip(\.isWhitespace), scanner.take([":", "："]) {
        let end = line[scanner.index...].firstIndex(of: "※") ?? line.endIndex
        var start = word.lowerBound
        while start > line.startIndex, line[line.index(before: start)].isWhitespace {
          start = line.index(before: start)
        }
        if start > line.startIndex, line[line.index(before: start)] == "*" { start = line.index(before: start) }
        return line[start..<end]
      }
      from = word.upperBound
    }
    return nil
  }

  /// The warehouse a notice is about (`※ 일산점은 …` → `일산점`), if it names one: after `※` and
  /// spaces, the shortest run of Hangul, Latin letters, digits and spaces ending in `점` (at
  /// least one character before it) that spaces and `은`, `는`, `:`, `의` or `에서` follow. A
  /// name may begin with spaces only when none of the names after them fits (`※ 점은` → ` 점`).
  static func warehouseNamed(in notice: String) -> String? {
    guard notice.first == "※" else { return nil }
    let afterMark = notice.index(after: notice.startIndex)
    var first = afterMark
    while first < notice.endIndex, notice[first].isWhitespace { first = notice.index(after: first) }
    // The spaces skipped are given back one by one, the name then starting earlier.
    var start = first
    while true {
      if let name = shortestName(in: notice, from: start) { return name }
      guard start > afterMark else { return nil }
      start = notice.index(before: start)
    }
  }

  /// The shortest name starting at `start` (see ``warehouseNamed(in:)``).
  private static func shortestName(in notice: String, from start: String.Index) -> String? {
    func isNameCharacter(_ character: Character) -> Bool {
      guard character.unicodeScalars.count == 1, let scalar = character.unicodeScalars.first else { return false }
      return (0xAC00...0xD7A3).contains(scalar.value) || (scalar.isASCII && (character.isLetter || character.isNumber))
        || character == " "
    }
    var index = start
    while index < notice.endIndex, isNameCharacter(notice[index]) {
      let end = notice.index(after: index)
      if notice[index] == "점", index > start {
        var scanner = TextScanner(notice, at: end)
        if scanner.skip(\.isWhitespace), scanner.takeAny(of: ["은", "는", ":", "의", "에서"]) {
          return String(notice[start..<end])
        }
      }
      index = end
    }
    return nil
  }

  static func sameWarehouse(_ left: String, _ right: String) -> Bool {
    left.filter { !$0.isWhitespace } == right.filter { !$0.isWhitespace }
  }
}

extension BrandSlug {
  /// 코스트코.
  public static let costco: BrandSlug = "costco"
}

extension CostcoSource {
  /// The API's first page: its warehouses with the fields ids and names come from, their rule
  /// fragments, and (for information) their named closures.
  public func probe(_ session: SourceSession) async -> [ProbePage] {
    [
      await session.probe(.get(session.url(Self.storesPath(page: 0)))) { response throws(SourceError) in
        let page = try Self.parseStores(response.body, url: response.requestURL, origin: session.baseURL)
        return [
          ProbeCount("stores with warehouseCode, name and displayName", found: page.branches.count),
          ProbeCount("warehouseInformation with a closing rule", found: page.branches.count { $0.closingText != nil }),
          ProbeCount(
            "named closed days in specialDayOpeningList", found: page.branches.reduce(0) { $0 + $1.closingDates.count },
            needed: 0),
        ]
      }
    ]
  }
}
