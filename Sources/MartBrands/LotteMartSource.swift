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
      let rows = try storeRows(in: document)
      guard !rows.isEmpty else {
        throw SourceError(
          source: Self.name, url: url,
          reason: .unexpectedContent("no store rows (no span.day-off, div.address, span.time or span.call)"))
      }
      var branches: [RawBranch] = []
      var seenStoreIDs = Set<String>()
      var seenNames = Set<String>()
      for row in rows {
        guard let branch = try parseRow(row, url: url) else { continue }
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
  /// Found by counting each field element once for each of its ancestors, so the work grows with
  /// the page, not with its square.
  static func storeRows(in document: HTMLDocument) throws(HTMLError) -> [HTMLElement] {
    var counts: [HTMLElement: [Int]] = [:]
    for (kind, (element, className)) in rowFields.enumerated() {
      for field in try document.select("//\(element)[\(XPath.hasClass(className))]") {
        var ancestor = field.parent
        while let current = ancestor {
          counts[current, default: Array(repeating: 0, count: rowFields.count)][kind] += 1
          ancestor = current.parent
        }
      }
    }
    func holdsAtMostOneOfEach(_ element: HTMLElement) -> Bool { counts[element]?.allSatisfy { $0 <= 1 } ?? true }
    let rows = Set(
      counts.keys.filter { element in
        holdsAtMostOneOfEach(element) && !(element.parent.map(holdsAtMostOneOfEach) ?? false)
      })
    guard !rows.isEmpty else { return [] }
    return try document.select("//*").filter(rows.contains)
  }

  /// One store row, or `nil` when it has no name or is a store not open yet.
  private static func parseRow(_ row: HTMLElement, url: String) throws(HTMLError) -> RawBranch? {
    func field(_ element: String, _ className: String) throws(HTMLError) -> String? {
      let text = try row.first(".//\(element)[\(XPath.hasClass(className))]")?.text
      return text?.isEmpty == false ? text : nil
    }
    let state = try field("*", "state")
    if let state, notYetOpenStates.contains(where: state.contains) {
      return nil
    }
    let link = try row.first(".//a[contains(@href, 'brnchCd=')]")
    let storeCode = link?.attribute("href").flatMap(branchCode(fromHref:))
    guard let rawName = try name(of: row, link: link) else { return nil }
    let name = strippingBrandPrefix(rawName)
    return RawBranch(
      id: BranchID(brand: .lottemart, storeID: storeCode ?? name),
      name: name,
      address: try field("div", "address"),
      phone: try field("span", "call"),
      openingHours: try field("span", "time"),
      closingText: try field("span", "day-off"),
      statusText: state,
      sourceURL: url,
      pageURL: link?.attribute("href").flatMap { storePage(href: $0, searchURL: url) })
  }

  /// The branch name: the row's `.name` element, else its `brnchCd` link text, else the first
  /// text outside the fields that ends in `점` (as the page shows `LOTTE Mart | 제주점 | 영업중 …`).
  private static func name(of row: HTMLElement, link: HTMLElement?) throws(HTMLError) -> String? {
    if let named = try row.first(".//*[\(XPath.hasClass("name"))]")?.text, !named.isEmpty { return named }
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
    let trimmed = href.trimmingSpacesAndNewlines()
    if trimmed.hasPrefix("http://") || trimmed.hasPrefix("https://") { return trimmed }
    guard !trimmed.isEmpty else { return nil }
    let origin = URLParts(searchURL).origin
    if trimmed.hasPrefix("/") { return origin + trimmed }
    let directory = URLParts(searchURL).path.split(separator: "/", omittingEmptySubsequences: false).dropLast()
      .joined(separator: "/")
    return origin + directory + "/" + trimmed
  }

  /// The `brnchCd` query parameter of a (possibly relative, possibly padded) link.
  public static func branchCode(fromHref href: String) -> String? {
    let trimmed = href.trimmingSpacesAndNewlines()
    guard let queryStart = trimmed.firstIndex(of: "?") else { return nil }
    let query = trimmed[trimmed.index(after: queryStart)...].prefix { $0 != "#" }
    let code = FormEncoding.decode(String(query))
      .first { $0.name.caseInsensitiveCompare("brnchCd") == .orderedSame }?
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
