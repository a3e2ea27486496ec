import Foundation
import MartCore
import MartFetch
import MartHTML

/// Reading E-mart's answers: the store lists (`dataList`), the holiday lists (`dateList`) and
/// the store pages.
extension EmartSource {
  // MARK: - Store lists and holiday lists

  private struct StoreListBody: Decodable {
    let dataList: [JSONRow]
  }

  private struct HolidayListBody: Decodable {
    let dateList: [JSONRow]
  }

  /// Reads a `searchList.do` answer into branches of the covered store types, in feed order,
  /// without closing days (those come from `holidayList.do`). `url` is the endpoint: it names
  /// the endpoint in errors and is each branch's `sourceURL`; `pageURL` is the store page
  /// (`/branch/view.do?id=<ID>`) on the same site.
  ///
  /// Throws `SourceError.unexpectedContent` when there is no `dataList` or no row has an `ID`
  /// and a `NAME`.
  public static func parseStoreList(_ data: Data, url: String) throws(SourceError) -> [RawBranch] {
    try readStoreList(data, url: url).branches
  }

  /// ``parseStoreList(_:url:)``, with the rows skipped for lack of an `ID` or a `NAME`, named in
  /// warnings as `list` (e.g. `the store list (searchType=EM)`).
  public static func readStoreList(
    _ data: Data, url: String, list: String = "the store list"
  ) throws(SourceError) -> BranchList {
    let rows =
      try decodeRows(
        data, key: "dataList", url: url, expecting: "a \"dataList\" array", fallback: StoreListBody.self,
        rows: \.dataList)
      ?? []
    var branches: [RawBranch] = []
    var skipped: [SkippedRow] = []
    var identifiedRows = 0
    // Each store's page is on the site that served the feed.
    let origin = URLParts(url).origin
    for (index, row) in rows.enumerated() {
      guard let storeID = row.text("ID"), let fullName = row.text("NAME") else {
        skipped.append(SkippedRow(row, at: index, of: list, url: url, lacking: [["ID"], ["NAME"]], nameKey: "NAME"))
        continue
      }
      identifiedRows += 1
      guard let brand = classify(storeType: row.text("STORE_TP"), name: fullName) else { continue }
      let coordinate = row.point(latitude: "MAP_X", longitude: "MAP_Y")
      branches.append(
        RawBranch(
          id: BranchID(brand: brand, storeID: storeID),
          name: strippingBrandPrefix(fullName, brand: brand),
          banner: banner(of: fullName),
          address: row.text("ADDRESS1") ?? row.text("ADDRESS3"),
          lotAddress: row.text("ADDRESS3"),
          phone: row.text("TEL"),
          openingHours: openingHours(of: row),
          coordinate: coordinate,
          closingText: nil,
          sourceURL: url,
          pageURL: origin + detailPath(storeID: storeID)))
    }
    guard identifiedRows > 0 else {
      throw SourceError(
        source: name, url: url,
        reason: .unexpectedContent("\"dataList\" has \(rows.count) rows but none with an ID and a NAME"))
    }
    return BranchList(branches: branches, skipped: skipped)
  }

  /// Reads a `holidayList.do` answer: each `JIJUM_ID`'s closing dates as `YYYYMMDD`, in slot
  /// order. Slots that are not a full eight-digit date (the site sends `YYYYMM` for "none") are
  /// dropped; a store with no real date maps to an empty list. Both request forms answer in this
  /// shape; a per-area answer holds only that area's stores.
  ///
  /// Throws `SourceError.unexpectedContent` when there is no `dateList` or it has no rows (an
  /// area without stores is fine in `collect`, which checks the month as a whole).
  public static func parseHolidayList(_ data: Data, url: String) throws(SourceError) -> [String: [String]] {
    let rows = try decodeHolidayRows(data, url: url)
    let days = closingDays(in: rows)
    guard !days.isEmpty else {
      throw SourceError(
        source: name, url: url,
        reason: .unexpectedContent("\"dateList\" has \(rows.count) rows but none with a JIJUM_ID"))
    }
    return days
  }

  /// Reads the stores of a `holidayList.do` answer that are branches of a covered brand, by the
  /// banner in `NAME`: id `JIJUM_ID`, name without the banner, phone `TEL`, no closing days (see
  /// `parseHolidayList`); `sourceURL` is the feed, `pageURL` the store page, as in `parseStoreList`. Rows of other kinds of store
  /// (SSG, Boots, …) and unprefixed names are skipped. An empty `dateList` gives no branch.
  public static func parseHolidayListStores(_ data: Data, url: String) throws(SourceError) -> [RawBranch] {
    stores(in: try decodeHolidayRows(data, url: url), feedURL: url).branches
  }

  /// The `dateList` rows of a `holidayList.do` answer, possibly none.
  static func decodeHolidayRows(_ data: Data, url: String) throws(SourceError) -> [JSONRow] {
    try decodeRows(
      data, key: "dateList", url: url, expecting: "a \"dateList\" array", fallback: HolidayListBody.self,
      rows: \.dateList) ?? []
  }

  /// The keys of a holiday row's three date slots, `HOLIDAY_DAY1_YMD` to `HOLIDAY_DAY3_YMD`
  /// (made once: each is a string too long to be made without an allocation).
  static let holidaySlotKeys = (1...3).map { "HOLIDAY_DAY\($0)_YMD" }

  /// The `HOLIDAY_DAYn_YMD` values of `row` that `keep` accepts, in slot order.
  static func slotValues(of row: JSONRow, where keep: (String) -> Bool) -> [String] {
    var values: [String] = []
    values.reserveCapacity(holidaySlotKeys.count)
    for key in holidaySlotKeys {
      if let value = row.text(key), keep(value) { values.append(value) }
    }
    return values
  }

  /// Each `JIJUM_ID`'s full `YYYYMMDD` dates in `rows`, in row and slot order.
  static func closingDays(in rows: [JSONRow]) -> [String: [String]] {
    var days: [String: [String]] = [:]
    for row in rows {
      guard let storeID = row.text("JIJUM_ID") else { continue }
      days[storeID, default: []].append(contentsOf: slotValues(of: row) { CalendarDate(compact: $0) != nil })
    }
    return days
  }

  /// The branches of a covered brand among `rows`, each id once (see `parseHolidayListStores`),
  /// and the rows skipped for lack of a `JIJUM_ID` or a `NAME`, named in warnings as `list`.
  static func stores(
    in rows: [JSONRow], feedURL url: String, list: String = "the holiday list"
  ) -> BranchList {
    var branches: [RawBranch] = []
    var skipped: [SkippedRow] = []
    var seen = Set<String>()
    // Each store's page is on the site that served the feed.
    let origin = URLParts(url).origin
    for (index, row) in rows.enumerated() {
      guard let storeID = row.text("JIJUM_ID"), let fullName = row.text("NAME") else {
        skipped.append(
          SkippedRow(row, at: index, of: list, url: url, lacking: [["JIJUM_ID"], ["NAME"]], nameKey: "NAME"))
        continue
      }
      guard let brand = classify(storeType: nil, name: fullName), seen.insert(storeID).inserted else { continue }
      branches.append(
        RawBranch(
          id: BranchID(brand: brand, storeID: storeID),
          name: strippingBrandPrefix(fullName, brand: brand),
          banner: banner(of: fullName),
          phone: row.text("TEL"),
          sourceURL: url,
          pageURL: origin + detailPath(storeID: storeID)))
    }
    return BranchList(branches: branches, skipped: skipped)
  }

  /// Reads the phone number from a store page (`.intro-wrap > ul > li:nth-child(3) > p`).
  /// Returns `nil` when the page has no such line or it is blank; throws when the page does not
  /// have the `intro-wrap` block at all (a redesign).
  public static func parseDetailPhone(
    _ data: Data, url: String, charset: String? = nil
  ) throws(SourceError) -> String? {
    if let cut = AnswerChecks.cutShort(data, after: "<body", closing: ["body", "html"]) {
      throw SourceError(source: name, url: url, reason: .unexpectedContent(cut))
    }
    do {
      let document = try HTMLDocument(data: data, url: url, charset: charset)
      guard let intro = document.firstElement(where: { $0.hasClass("intro-wrap") }) else {
        throw SourceError(source: name, url: url, reason: .unexpectedContent("no .intro-wrap block"))
      }
      let phone = introPhoneCell(in: intro)?.text
      return phone?.isEmpty == false ? phone : nil
    } catch let error as SourceError {
      throw error
    } catch {
      throw SourceError(source: name, url: url, reason: .unexpectedContent("\(error)"))
    }
  }

  /// `STORE_SHOPPING_TIME`, else `OPEN_SHOPPING_TIME ~ CLOSE_SHOPPING_TIME`.
  private static func openingHours(of row: JSONRow) -> String? {
    if let hours = row.text("STORE_SHOPPING_TIME") { return hours }
    guard let open = row.text("OPEN_SHOPPING_TIME"), let close = row.text("CLOSE_SHOPPING_TIME") else {
      return nil
    }
    return "\(open) ~ \(close)"
  }
  // MARK: - Store pages

  /// Where a store is, as a store list row or a store page publishes it.
  public struct StorePlace: Hashable, Sendable {
    public var address: String?
    public var lotAddress: String?
    public var phone: String?
    public var openingHours: String?
    public var coordinate: GeoPoint?
    /// The URL it was read from.
    public var url: String

    /// Whether it says where the store is.
    var placesTheStore: Bool { address != nil || lotAddress != nil || coordinate != nil }
  }

  /// Reads a store page's place (the 2026 form): the road-name and lot-number addresses
  /// from the `dd.data` of the elements classed `road-name` and `lot-number` (or their first
  /// `dd`, or the element itself when it is the `dd`), the point from the first element that
  /// carries both `data-x` (latitude) and `data-y` (longitude), the phone from
  /// `.intro-wrap > ul > li:nth-child(3) > p`. A class on a label (`<dt class="road-name">도로명</dt>`) reads the `dd` after it;
  /// a label is never an address. What the page lacks is `nil`.
  public static func parseStorePlace(
    _ data: Data, url: String, charset: String? = nil
  ) throws(SourceError) -> StorePlace {
    if let cut = AnswerChecks.cutShort(data, after: "<body", closing: ["body", "html"]) {
      throw SourceError(source: name, url: url, reason: .unexpectedContent(cut))
    }
    do {
      let document = try HTMLDocument(data: data, url: url, charset: charset)
      // One walk: the first element of each kind in document order.
      var roadName: HTMLElement?
      var lotNumber: HTMLElement?
      var pointHolder: HTMLElement?
      var phoneCell: HTMLElement?
      for element in document.elements {
        if roadName == nil, element.hasClass("road-name") { roadName = element }
        if lotNumber == nil, element.hasClass("lot-number") { lotNumber = element }
        if pointHolder == nil, element.hasAttribute("data-x"), element.hasAttribute("data-y") { pointHolder = element }
        if phoneCell == nil, isIntroPhoneCell(element) { phoneCell = element }
      }
      func address(_ holder: HTMLElement?) -> String? {
        guard let holder, let cell = holder.name == "dd" ? holder : addressCell(in: holder) ?? cellAfter(holder)
        else { return nil }
        let text = cell.text
        return text.isEmpty || addressLabels.contains(text.filter { !$0.isWhitespace }) ? nil : text
      }
      var coordinate: GeoPoint?
      if let pointHolder, let latitude = pointHolder.attribute("data-x"),
        let longitude = pointHolder.attribute("data-y")
      {
        coordinate = (["x": .string(latitude), "y": .string(longitude)] as JSONRow).point(latitude: "x", longitude: "y")
      }
      let phone = phoneCell?.text
      return StorePlace(
        address: address(roadName), lotAddress: address(lotNumber),
        phone: phone?.isEmpty == false ? phone : nil, coordinate: coordinate, url: url)
    } catch {
      throw SourceError(source: name, url: url, reason: .unexpectedContent("\(error)"))
    }
  }

  /// The labels a page writes before its addresses (`도로명`, `지번`): never an address.
  static let addressLabels: Set<String> = ["도로명", "지번", "도로명주소", "지번주소", "주소"]

  /// The element right after `label` among its siblings when it is a `dd` (a `dt`'s value).
  static func cellAfter(_ label: HTMLElement) -> HTMLElement? {
    guard let siblings = label.parent?.children, let index = siblings.firstIndex(of: label),
      index + 1 < siblings.count, siblings[index + 1].hasName("dd")
    else { return nil }
    return siblings[index + 1]
  }

  /// The first `dd.data` below `holder`, else its first `dd`.
  private static func addressCell(in holder: HTMLElement) -> HTMLElement? {
    var firstCell: HTMLElement?
    for element in holder.descendants where element.hasName("dd") {
      if element.hasClass("data") { return element }
      if firstCell == nil { firstCell = element }
    }
    return firstCell
  }

  /// Whether `element` is the phone's place, `.intro-wrap > ul > li:nth-child(3) > p` (as the
  /// XPath `//*[hasClass('intro-wrap')]/ul/*[3][self::li]/p` selects it).
  static func isIntroPhoneCell(_ element: HTMLElement) -> Bool {
    guard element.hasName("p"), let item = element.parent, item.hasName("li"), let list = item.parent,
      list.hasName("ul"), let intro = list.parent, intro.hasClass("intro-wrap")
    else { return false }
    let items = list.children
    return items.count >= 3 && items[2] == item
  }

  /// The phone of an `.intro-wrap` block: `./ul/*[3][self::li]/p`, the first in document order.
  static func introPhoneCell(in intro: HTMLElement) -> HTMLElement? {
    for list in intro.children where list.hasName("ul") {
      let items = list.children
      guard items.count >= 3, items[2].hasName("li") else { continue }
      if let cell = items[2].children.first(where: { $0.hasName("p") }) { return cell }
    }
    return nil
  }
}
