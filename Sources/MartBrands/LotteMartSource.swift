import Foundation
import MartCore
import MartFetch
import MartHTML

/// Lotte Mart's store search page, which lists every 롯데마트 store on one page when the search
/// word is empty: `POST /shop/shop_search_type.asp?schArea=&schType=01&schWord=` with an empty
/// body (all parameters are in the query string, as the site's own form sends them).
///
/// What the page is known to carry per store is `span.day-off` (the closing days), `div.address`,
/// `span.time` (hours) and `span.call` (phone); the parser needs nothing else. A store row is the
/// largest element holding at most one of each of those, so no list markup is assumed. When a
/// row also has a name element (`.name`), a `span.state` or a link with `brnchCd=`, they are used:
/// the id is the `brnchCd` when the row links one, otherwise the branch name as published
/// (`lottemart-원주점`); the state (`영업중`, `임시휴업`, `영업종료`) is passed on as the branch's
/// status text, except that stores not open yet (`오픈예정`) are skipped. The closing days are the row's free text (`매월 둘째, 넷째주 일요일 ( 11/8,
/// 11/22 )`, `12/13,/27`, …), passed on verbatim for the closing-day engine.
public struct LotteMartSource: BrandSource {
  public static let name = "lottemart"
  public static let brands: [BrandSlug] = [.lottemart]
  public static let origin = "http://company.lottemart.com"
  /// A day-off cell lists the next closing days (`11/22(일)`, `12/13,/27`), or a rule.
  public static let closingDateCoverage = DateCoverage.asOfThroughLastListed

  public init() {}

  /// Path and query of the search listing every Lotte Mart store (`schType=01` is 롯데마트).
  static let storeListPath = "/shop/shop_search_type.asp?schArea=&schType=01&schWord="

  /// The classes of the four fields every store row carries, as `(element, class)`.
  static let rowFields = [("span", "day-off"), ("div", "address"), ("span", "time"), ("span", "call")]

  /// `span.state` texts of stores that are announced but not open yet; such rows are skipped.
  static let notYetOpenStates = ["오픈예정", "개점예정", "오픈 예정"]

  /// The `span.state` of an open store.
  static let openState = "영업중"

  public func collect(_ session: SourceSession) async throws(SourceError) -> [RawBranch] {
    guard session.brands.contains(.lottemart) else { return [] }
    let response = try await session.send(HTTPRequest(method: .post, url: session.url(Self.storeListPath)))
    return try Self.parseStoreList(response.body, url: response.requestURL, charset: response.charset)
  }

  /// Reads the search result page into branches, in page order. A store listed more than once
  /// (under several regions) appears once: a repeated id or name keeps its first row. Rows
  /// without a name and rows of stores not open yet (`span.state` `오픈예정`) are skipped.
  /// `charset` is the Content-Type charset when known.
  ///
  /// Throws `SourceError.unexpectedContent` when the page has no store rows or none of them
  /// has a name.
  public static func parseStoreList(
    _ data: Data, url: String, charset: String? = nil
  ) throws(SourceError) -> [RawBranch] {
    do {
      let document = try HTMLDocument(data: data, url: url, charset: charset)
      let rows = storeRows(in: document)
      guard !rows.isEmpty else {
        throw SourceError(
          source: Self.name, url: url,
          reason: .unexpectedContent("no store rows (no span.day-off, div.address, span.time or span.call)"))
      }
      var branches: [RawBranch] = []
      var seenStoreIDs = Set<String>()
      var seenNames = Set<String>()
      let links = LinkBase(searchURL: url)
      for row in rows {
        guard let branch = try parseRow(row, url: url, links: links) else { continue }
        guard seenStoreIDs.insert(branch.id.storeID).inserted, seenNames.insert(branch.name).inserted
        else { continue }
        branches.append(branch)
      }
      guard !branches.isEmpty else {
        throw SourceError(
          source: Self.name, url: url,
          reason: .unexpectedContent("none of \(rows.count) store rows has a branch name of an open store"))
      }
      return branches
    } catch let error as SourceError {
      throw error
    } catch {
      throw SourceError(source: Self.name, url: url, reason: .unexpectedContent("\(error)"))
    }
  }

  /// The store rows, in document order: the elements holding at least one row field and at most
  /// one of each, whose parent holds more than one of some field (or is the document itself).
  /// Found in one walk of the page: each element's field counts are complete when the walk
  /// leaves it, and are added to its parent's.
  static func storeRows(in document: HTMLDocument) -> [HTMLElement] {
    /// An element the walk is inside: the fields below it so far, the fields it is itself, and
    /// where the rows found inside it start in `rows`.
    struct Open {
      var element: HTMLElement
      var below: SIMD4<Int32>
      var own: SIMD4<Int32>
      var firstRow: Int
    }
    var rows: [HTMLElement] = []
    var open: [Open] = []
    func close(_ element: Open) {
      if all(element.below .<= 1) {
        // It holds at most one of each field, so none of its descendants is a row: the
        // candidates below it go, and it becomes one when it holds any field at all.
        rows.removeSubrange(element.firstRow...)
        if any(element.below .> 0) { rows.append(element.element) }
      }
      if !open.isEmpty { open[open.count - 1].below &+= element.below &+ element.own }
    }
    var walk = document.elements
    while let element = walk.next() {
      while open.count >= walk.depth { close(open.removeLast()) }
      open.append(Open(element: element, below: .zero, own: fieldKinds(of: element), firstRow: rows.count))
    }
    while let element = open.popLast() { close(element) }
    return rows
  }

  /// Which of the four row fields (`rowFields`, in order) `element` is: 1 for each it is.
  private static func fieldKinds(of element: HTMLElement) -> SIMD4<Int32> {
    var kinds = SIMD4<Int32>.zero
    for (index, (name, className)) in rowFields.enumerated() where element.hasName(name) && element.hasClass(className)
    {
      kinds[index] = 1
    }
    return kinds
  }

  /// One store row, or `nil` when it has no name or is a store not open yet. Its fields are
  /// the first element of each kind below the row, found in one walk.
  private static func parseRow(_ row: HTMLElement, url: String, links: LinkBase) throws(HTMLError) -> RawBranch? {
    var state: HTMLElement?
    var link: HTMLElement?
    var named: HTMLElement?
    var fields: [HTMLElement?] = Array(repeating: nil, count: rowFields.count)
    for element in row.descendants {
      if state == nil, element.hasClass("state") { state = element }
      if named == nil, element.hasClass("name") { named = element }
      if link == nil, element.hasName("a"), element.attribute("href", contains: "brnchCd=") { link = element }
      for (index, (name, className)) in rowFields.enumerated()
      where fields[index] == nil && element.hasName(name) && element.hasClass(className) {
        fields[index] = element
      }
    }
    func text(_ element: HTMLElement?) -> String? {
      let text = element?.text
      return text?.isEmpty == false ? text : nil
    }
    let stateText = text(state)
    // `영업중`, the state of nearly every row, contains none of them: no search needed.
    if let stateText, stateText != openState, notYetOpenStates.contains(where: stateText.contains) {
      return nil
    }
    let href = link?.attribute("href")
    let storeCode = href.flatMap(branchCode(fromHref:))
    guard let rawName = try name(of: row, named: named, link: link) else { return nil }
    let name = strippingBrandPrefix(rawName)
    return RawBranch(
      id: BranchID(brand: .lottemart, storeID: storeCode ?? name),
      name: name,
      address: text(fields[1]),
      phone: text(fields[3]),
      openingHours: text(fields[2]),
      closingText: text(fields[0]),
      statusText: stateText,
      sourceURL: url,
      pageURL: href.flatMap { links.storePage(href: $0) })
  }

  /// The branch name: the row's `.name` element, else its `brnchCd` link text, else the first
  /// text outside the fields that ends in `점` (as the page shows `LOTTE Mart | 제주점 | 영업중 …`).
  /// `named` is the row's first `.name` element, `link` its first `brnchCd` link.
  private static func name(of row: HTMLElement, named: HTMLElement?, link: HTMLElement?) throws(HTMLError) -> String? {
    if let named = named?.text, !named.isEmpty { return named }
    if let linkText = link?.text, !linkText.isEmpty { return linkText }
    let outsideFields = (rowFields.map(\.1) + ["state"]).map { "ancestor::*[\(XPath.hasClass($0))]" }
      .joined(separator: " or ")
    for node in try row.select(".//text()[not(\(outsideFields))]") {
      let text = node.text
      if text.hasSuffix("점"), !text.contains(" ") || text.hasPrefix("롯데마트 ") { return text }
    }
    return nil
  }

  /// The absolute URL of a row's store link (relative to the search page's site), when the row
  /// has one: that is the branch's own page.
  static func storePage(href: String, searchURL: String) -> String? {
    LinkBase(searchURL: searchURL).storePage(href: href)
  }

  /// What a store link is resolved against: the search page's origin and folder, taken apart
  /// once per page rather than once per row.
  struct LinkBase {
    let origin: String
    let directory: String

    init(searchURL: String) {
      let search = URLParts(searchURL)
      origin = search.origin
      directory = search.path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
    }

    /// The absolute URL of `href`, or `nil` when it is blank.
    func storePage(href: String) -> String? {
      let trimmed = href.trimmingSpacesAndNewlines()
      if trimmed.hasPrefix("http://") || trimmed.hasPrefix("https://") { return trimmed }
      guard !trimmed.isEmpty else { return nil }
      if trimmed.hasPrefix("/") { return origin + trimmed }
      return origin + directory + "/" + trimmed
    }
  }

  /// The `brnchCd` query parameter of a (possibly relative, possibly padded) link.
  public static func branchCode(fromHref href: String) -> String? {
    let trimmed = href.trimmingSpacesAndNewlines()
    guard let queryStart = trimmed.firstIndex(of: "?") else { return nil }
    let query = trimmed[trimmed.index(after: queryStart)...].prefix { $0 != "#" }
    let code = FormEncoding.decode(String(query))
      .first { $0.name.lowercased() == "brnchcd" }?
      .value.trimmingSpaces()
    return code?.isEmpty == false ? code : nil
  }

  /// `롯데마트 제주점` → `제주점`; names without the prefix are returned unchanged.
  static func strippingBrandPrefix(_ name: String) -> String {
    for prefix in ["롯데마트 ", "LOTTE Mart "] where name.hasPrefix(prefix) {
      let stripped = name.dropFirst(prefix.count).trimmingSpaces()
      if !stripped.isEmpty { return stripped }
    }
    return name
  }
}

extension BrandSlug {
  /// 롯데마트.
  public static let lottemart: BrandSlug = "lottemart"
}
