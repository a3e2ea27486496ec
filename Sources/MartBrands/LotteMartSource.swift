import Foundation
import MartCore
import MartFetch
import MartHTML

/// Lotte Mart's store search page, which lists every 롯데마트 store on one page when the search
/// word is empty: `POST /shop/shop_search_type.asp?schArea=&schType=01&schWord=` with an empty
/// body (all parameters are in the query string, as the site's own form sends them).
///
/// Each result row links to `shop_view.asp?brnchCd=<7 digits>`; that code is the store id. The
/// closing days are the row's free text (`매월 둘째, 넷째주 일요일 ( 11/8, 11/22 )`, `12/13,/27`,
/// …), passed on verbatim for the closing-day engine.
public struct LotteMartSource: BrandSource {
  public static let name = "lottemart"
  public static let brands: [BrandSlug] = [.lottemart]
  public static let origin = "http://company.lottemart.com"

  public init() {}

  /// Path and query of the search listing every Lotte Mart store (`schType=01` is 롯데마트).
  static let storeListPath = "/shop/shop_search_type.asp?schArea=&schType=01&schWord="

  public func collect(_ session: SourceSession) async throws(SourceError) -> [RawBranch] {
    guard session.brands.contains(.lottemart) else { return [] }
    let response = try await session.send(HTTPRequest(method: .post, url: session.url(Self.storeListPath)))
    return try Self.parseStoreList(response.body, url: response.requestURL, charset: response.charset)
  }

  /// Reads the search result page into branches, in page order. Rows without a `brnchCd` link
  /// or a name (e.g. stores announced but not open) are skipped. `charset` is the Content-Type
  /// charset when known.
  ///
  /// Throws `SourceError.unexpectedContent` when the page has no `ul.shop-list > li` rows or
  /// none of them parses.
  public static func parseStoreList(
    _ data: Data, url: String, charset: String? = nil
  ) throws(SourceError) -> [RawBranch] {
    do {
      let document = try HTMLDocument(data: data, url: url, charset: charset)
      let rows = try document.select("//ul[\(XPath.hasClass("shop-list"))]/li")
      guard !rows.isEmpty else {
        throw SourceError(
          source: name, url: url, reason: .unexpectedContent("no store rows (ul.shop-list > li)"))
      }
      var branches: [RawBranch] = []
      for row in rows {
        if let branch = try parseRow(row, url: url) { branches.append(branch) }
      }
      guard !branches.isEmpty else {
        throw SourceError(
          source: name, url: url,
          reason: .unexpectedContent("none of \(rows.count) store rows has a brnchCd link and a name"))
      }
      return branches
    } catch let error as SourceError {
      throw error
    } catch {
      throw SourceError(source: name, url: url, reason: .unexpectedContent("\(error)"))
    }
  }

  /// One result row, or `nil` when it lacks a store link or a name.
  private static func parseRow(_ row: HTMLElement, url: String) throws(HTMLError) -> RawBranch? {
    guard let link = try row.first(".//a[contains(@href, 'brnchCd=')]"),
      let storeID = link.attribute("href").flatMap(branchCode(fromHref:))
    else { return nil }
    let rawName = link.text.isEmpty ? try row.first(".//*[\(XPath.hasClass("name"))]")?.text : link.text
    guard let rawName, !rawName.isEmpty else { return nil }

    func field(_ element: String, _ className: String) throws(HTMLError) -> String? {
      let text = try row.first(".//\(element)[\(XPath.hasClass(className))]")?.text
      return text?.isEmpty == false ? text : nil
    }
    return RawBranch(
      id: BranchID(brand: .lottemart, storeID: storeID),
      name: strippingBrandPrefix(rawName),
      address: try field("div", "address"),
      phone: try field("span", "call"),
      openingHours: try field("span", "time"),
      closingText: try field("span", "day-off"),
      sourceURL: url)
  }

  /// The `brnchCd` query parameter of a (possibly relative, possibly padded) link.
  public static func branchCode(fromHref href: String) -> String? {
    let trimmed = href.trimmingCharacters(in: .whitespacesAndNewlines)
    guard let queryStart = trimmed.firstIndex(of: "?") else { return nil }
    let query = trimmed[trimmed.index(after: queryStart)...].prefix { $0 != "#" }
    let code = FormEncoding.decode(String(query))
      .first { $0.name.caseInsensitiveCompare("brnchCd") == .orderedSame }?
      .value.trimmingCharacters(in: .whitespaces)
    return code?.isEmpty == false ? code : nil
  }

  /// `롯데마트 제주점` → `제주점`; names without the prefix are returned unchanged.
  static func strippingBrandPrefix(_ name: String) -> String {
    for prefix in ["롯데마트 ", "LOTTE Mart "] where name.hasPrefix(prefix) {
      let stripped = name.dropFirst(prefix.count).trimmingCharacters(in: .whitespaces)
      if !stripped.isEmpty { return stripped }
    }
    return name
  }
}
