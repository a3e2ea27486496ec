import Foundation
import MartCore
import MartFetch
import MartHTML

/// E-mart's store site, which serves four brands from the same feeds: 이마트 (`.emart`),
/// 이마트 트레이더스 (`.traders`), 노브랜드 (`.nobrand`) and 이마트 에브리데이 (`.everyday`).
///
/// - `POST /branch/searchList.do` with `jMode=true&searchType=EM|TR|NO`: the store master
///   (`dataList`), one request per requested brand.
/// - `GET /branch/holidayList.do?year=YYYY&month=MM`: every store's closing dates for a month
///   (`dateList`), requested for the as-of month and the next two, joined on `JIJUM_ID` = `ID`.
///   The feed lists every store, named with its banner (`에브리데이 가락동점`); 에브리데이 has no
///   `searchType`, so its branches are the rows of this feed (id, name, `TEL`, dates).
/// - `GET /branch/view.do?id=<ID>`: the store page, read only for No Brand phone numbers,
///   which the master leaves blank.
public struct EmartSource: BrandSource {
  public static let name = "emart"
  public static let brands: [BrandSlug] = [.emart, .traders, .nobrand, .everyday]
  public static let origin = "https://store.emart.com"

  public init() {}

  static let storeListPath = "/branch/searchList.do"

  /// The `searchType` that lists `brand`'s stores.
  static func searchType(for brand: BrandSlug) -> String? {
    switch brand {
    case .emart: "EM"
    case .traders: "TR"
    case .nobrand: "NO"
    default: nil
    }
  }

  /// The brand of a `STORE_TP` code: `E`/`A` 이마트, `T` 트레이더스, `S` 노브랜드; `nil` for other
  /// codes, whose rows are classified by name.
  static func brand(forStoreType storeType: String) -> BrandSlug? {
    switch storeType.uppercased() {
    case "E", "A": .emart
    case "T": .traders
    case "S": .nobrand
    default: nil
    }
  }

  /// Words that mark a store of another kind sharing the feeds (SSG 푸드마켓, Boots, 일렉트로마트,
  /// 몰리스, 토이킹덤, 베이비서클, …): such rows are never a branch.
  static let otherStoreMarkers = ["SSG", "Boots", "BOOTS", "부츠", "일렉트로마트", "몰리스", "토이킹덤", "베이비서클", "PK마켓"]

  /// The brand of a feed row: none for the other kinds of store, else by `STORE_TP` where it is
  /// a known code, else by the banner the name starts with (`이마트 `, `트레이더스 홀세일 클럽 `,
  /// `에브리데이 `, `노브랜드 `, the misspelling `노브렌드 `, and the newer E-mart banners
  /// `스타필드 마켓 `, `이마트 푸드마켓 `). `nil` when neither says.
  public static func classify(storeType: String?, name: String) -> BrandSlug? {
    if otherStoreMarkers.contains(where: { name.contains($0) }) { return nil }
    if let brand = storeType.flatMap(brand(forStoreType:)) { return brand }
    let order: [BrandSlug] = [.everyday, .traders, .nobrand, .emart]
    for brand in order where namePrefixes(for: brand).contains(where: { name.hasPrefix($0 + " ") }) {
      return brand
    }
    if name.hasPrefix("스타필드 마켓 ") { return .emart }
    return nil
  }

  /// The name prefixes each brand carries in `NAME`, longest first.
  static func namePrefixes(for brand: BrandSlug) -> [String] {
    switch brand {
    case .emart: ["이마트"]
    case .traders: ["이마트 트레이더스 홀세일 클럽", "트레이더스 홀세일 클럽", "이마트 트레이더스", "트레이더스"]
    case .nobrand: ["노브랜드", "노브렌드"]
    case .everyday: ["이마트 에브리데이", "이마트에브리데이", "에브리데이"]
    default: []
    }
  }

  /// `GET` path and query of the holiday list for `month`'s year and month (month zero-padded).
  static func holidayListPath(for month: CalendarDate) -> String {
    let paddedMonth = month.month < 10 ? "0\(month.month)" : "\(month.month)"
    return "/branch/holidayList.do?year=\(month.year)&month=\(paddedMonth)"
  }

  /// The store page of `storeID` on the site that served `feedURL`.
  static func storePage(_ storeID: String, feedURL: String) -> String {
    URLParts(feedURL).origin + detailPath(storeID: storeID)
  }

  /// Path and query of a store's detail page.
  static func detailPath(storeID: String) -> String {
    "/branch/view.do?id=\(FormEncoding.escape(storeID))"
  }

  public func collect(_ session: SourceSession) async throws(SourceError) -> [RawBranch] {
    var branches: [RawBranch] = []
    /// 에브리데이 stores come from the holiday lists, one per month: each is added once.
    var seenStoreIDs = Set<String>()
    for brand in brands where session.brands.contains(brand) {
      guard let searchType = Self.searchType(for: brand) else { continue }
      let response = try await session.postForm(
        Self.storeListPath, fields: [("jMode", "true"), ("searchType", searchType)])
      branches += try Self.parseStoreList(response.body, url: response.requestURL)
    }
    let requested = brands.filter { session.brands.contains($0) }
    guard !requested.isEmpty else { return [] }
    let storeListsRequested = requested.contains { Self.searchType(for: $0) != nil }
    guard !storeListsRequested || branches.contains(where: { session.brands.contains($0.id.brand) }) else {
      throw SourceError(
        source: session.sourceName, url: session.url(Self.storeListPath),
        reason: .unexpectedContent("no store of \(requested.map(\.rawValue)) in the store lists"))
    }

    var closingDays: [String: [String]] = [:]
    for offset in 0..<3 {
      let month = session.asOf.firstOfMonth(addingMonths: offset)
      let response = try await session.get(Self.holidayListPath(for: month))
      for (storeID, days) in try Self.parseHolidayList(response.body, url: response.requestURL) {
        closingDays[storeID, default: []].append(contentsOf: days)
      }
      if session.brands.contains(.everyday) {
        for branch in try Self.parseHolidayListStores(response.body, url: response.requestURL)
        where branch.id.brand == .everyday && seenStoreIDs.insert(branch.id.storeID).inserted {
          branches.append(branch)
        }
      }
    }
    if session.brands.contains(.everyday) && !branches.contains(where: { $0.id.brand == .everyday }) {
      throw SourceError(
        source: session.sourceName, url: session.url(Self.holidayListPath(for: session.asOf)),
        reason: .unexpectedContent("no 에브리데이 store in the holiday lists"))
    }

    for index in branches.indices {
      let storeID = branches[index].id.storeID
      // Dates stay dates: the site publishes no closing-day text, so none is made up.
      branches[index].closingDates = Set((closingDays[storeID] ?? []).compactMap { CalendarDate(compact: $0) })
        .sorted()
      if branches[index].id.brand == .nobrand, session.brands.contains(.nobrand) {
        // A broken detail page costs only the phone number, not the brand.
        do {
          let response = try await session.get(Self.detailPath(storeID: storeID))
          if let phone = try Self.parseDetailPhone(
            response.body, url: response.requestURL, charset: response.charset)
          {
            branches[index].phone = phone
          }
        } catch {
          session.warn("phone not read from the store page: \(error)", branch: branches[index].id)
        }
      }
    }
    return branches
  }

  // MARK: - Parsing

  private struct StoreListBody: Decodable {
    let dataList: [[String: JSONScalar]]
  }

  private struct HolidayListBody: Decodable {
    let dateList: [[String: JSONScalar]]
  }

  /// Reads a `searchList.do` answer into branches of the covered store types, in feed order,
  /// without closing days (those come from `holidayList.do`). `url` names the endpoint in errors;
  /// each branch's `sourceURL` is its store page (`/branch/view.do?id=<ID>`) on the same site.
  ///
  /// Throws `SourceError.unexpectedContent` when there is no `dataList` or no row has an `ID`
  /// and a `NAME`.
  public static func parseStoreList(_ data: Data, url: String) throws(SourceError) -> [RawBranch] {
    let rows = try decodeJSON(StoreListBody.self, from: data, url: url, expecting: "a \"dataList\" array").dataList
    var branches: [RawBranch] = []
    var identifiedRows = 0
    for row in rows {
      guard let storeID = row.text("ID"), let fullName = row.text("NAME") else { continue }
      identifiedRows += 1
      guard let brand = classify(storeType: row.text("STORE_TP"), name: fullName) else { continue }
      let coordinate: GeoPoint? =
        if let latitude = row["MAP_X"]?.number, let longitude = row["MAP_Y"]?.number {
          GeoPoint(latitude: latitude, longitude: longitude)
        } else { nil }
      branches.append(
        RawBranch(
          id: BranchID(brand: brand, storeID: storeID),
          name: strippingBrandPrefix(fullName, brand: brand),
          address: row.text("ADDRESS1") ?? row.text("ADDRESS3"),
          lotAddress: row.text("ADDRESS3"),
          phone: row.text("TEL"),
          openingHours: openingHours(of: row),
          coordinate: coordinate,
          closingText: nil,
          sourceURL: storePage(storeID, feedURL: url)))
    }
    guard identifiedRows > 0 else {
      throw SourceError(
        source: name, url: url,
        reason: .unexpectedContent("\"dataList\" has \(rows.count) rows but none with an ID and a NAME"))
    }
    return branches
  }

  /// Reads a `holidayList.do` answer: each `JIJUM_ID`'s closing dates as `YYYYMMDD`, in slot
  /// order. Slots that are not a full eight-digit date (the site sends `YYYYMM` for "none") are
  /// dropped; a store with no real date maps to an empty list.
  ///
  /// Throws `SourceError.unexpectedContent` when there is no `dateList` or it has no rows.
  public static func parseHolidayList(_ data: Data, url: String) throws(SourceError) -> [String: [String]] {
    let rows = try decodeJSON(HolidayListBody.self, from: data, url: url, expecting: "a \"dateList\" array").dateList
    var days: [String: [String]] = [:]
    for row in rows {
      guard let storeID = row.text("JIJUM_ID") else { continue }
      let valid = (1...3).compactMap { slot in row.text("HOLIDAY_DAY\(slot)_YMD") }
        .filter { CalendarDate(compact: $0) != nil }
      days[storeID, default: []].append(contentsOf: valid)
    }
    guard !days.isEmpty else {
      throw SourceError(
        source: name, url: url,
        reason: .unexpectedContent("\"dateList\" has \(rows.count) rows but none with a JIJUM_ID"))
    }
    return days
  }

  /// Reads the stores of a `holidayList.do` answer that are branches of a covered brand, by the
  /// banner in `NAME`: id `JIJUM_ID`, name without the banner, phone `TEL`, no closing days (see
  /// `parseHolidayList`); `sourceURL` is the store page, as in `parseStoreList`. Rows of other kinds of store
  /// (SSG, Boots, …) and unprefixed names are skipped.
  public static func parseHolidayListStores(_ data: Data, url: String) throws(SourceError) -> [RawBranch] {
    let rows = try decodeJSON(HolidayListBody.self, from: data, url: url, expecting: "a \"dateList\" array").dateList
    var branches: [RawBranch] = []
    var seen = Set<String>()
    for row in rows {
      guard let storeID = row.text("JIJUM_ID"), let fullName = row.text("NAME"),
        let brand = classify(storeType: nil, name: fullName), seen.insert(storeID).inserted
      else { continue }
      branches.append(
        RawBranch(
          id: BranchID(brand: brand, storeID: storeID),
          name: strippingBrandPrefix(fullName, brand: brand),
          phone: row.text("TEL"),
          sourceURL: storePage(storeID, feedURL: url)))
    }
    return branches
  }

  /// Reads the phone number from a store page (`.intro-wrap > ul > li:nth-child(3) > p`).
  /// Returns `nil` when the page has no such line or it is blank; throws when the page does not
  /// have the `intro-wrap` block at all (a redesign).
  public static func parseDetailPhone(
    _ data: Data, url: String, charset: String? = nil
  ) throws(SourceError) -> String? {
    do {
      let document = try HTMLDocument(data: data, url: url, charset: charset)
      guard let intro = try document.first("//*[\(XPath.hasClass("intro-wrap"))]") else {
        throw SourceError(source: name, url: url, reason: .unexpectedContent("no .intro-wrap block"))
      }
      let phone = try intro.first("./ul/*[3][self::li]/p")?.text
      return phone?.isEmpty == false ? phone : nil
    } catch let error as SourceError {
      throw error
    } catch {
      throw SourceError(source: name, url: url, reason: .unexpectedContent("\(error)"))
    }
  }

  /// `name` without its brand prefix (`트레이더스 고양점` → `고양점`).
  static func strippingBrandPrefix(_ name: String, brand: BrandSlug) -> String {
    for prefix in namePrefixes(for: brand) where name.hasPrefix(prefix) {
      let rest = name.dropFirst(prefix.count)
      guard rest.first?.isWhitespace == true else { continue }
      let stripped = rest.trimmingSpaces()
      if !stripped.isEmpty { return stripped }
    }
    return name
  }

  /// `STORE_SHOPPING_TIME`, else `OPEN_SHOPPING_TIME ~ CLOSE_SHOPPING_TIME`.
  private static func openingHours(of row: [String: JSONScalar]) -> String? {
    if let hours = row.text("STORE_SHOPPING_TIME") { return hours }
    guard let open = row.text("OPEN_SHOPPING_TIME"), let close = row.text("CLOSE_SHOPPING_TIME") else {
      return nil
    }
    return "\(open) ~ \(close)"
  }
}
