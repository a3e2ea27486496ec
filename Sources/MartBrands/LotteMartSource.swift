import Foundation
import MartCore
import MartFetch
import MartHTML

/// Lotte Mart's store lists, two pages of one site:
///
/// - **Primary, the store search**, which lists every 롯데마트 store on one page when the search
///   word is empty: `POST /shop/shop_search_type.asp?schArea=&schType=01&schWord=` with an empty
///   body (all parameters are in the query string, as the site's own form sends them).
/// - **Second list, every format on one page**: `GET /shop/shop_search.asp?page=1&list_num=500`
///   (read by a 2026 collector). It adds the 롯데마트 stores the search leaves out (제타플렉스
///   잠실점 and 서울역점 are listed under their own banner, and whether `schType=01` includes
///   them is not known), and stands in for the search when that fails, with a warning.
///
/// A store row carries `span.day-off` (the closing days: `09/13(일), 09/27(일)`, a rule, or `-`
/// for none), `div.address` (in 2026 twice per row: the road, then the building number and
/// 동, `강원도 춘천시 세실로` + `108 (석사동)`; the parts are joined with a space), `span.time`
/// (hours), `span.call` (phone) and, in 2026, `span.memo`: an hours note (`주말: 10:00~22:00`,
/// `둘째,넷째주 일요일: 11:00~19:00`, short hours on those Sundays), which goes with the hours
/// and is never read as closing days. A row is the largest element holding at most one of each
/// of those but the addresses, so no list or table markup is assumed (2022 rows were `li`, 2026
/// rows are the `tr` of a table). The row's banner is its logo's `<img alt>` (롯데마트, 맥스,
/// 제타플렉스, 토이저러스, 보틀벙커, 그랑그로서리) or the name's prefix: 제타플렉스 stores are
/// 롯데마트 branches with the banner `제타플렉스`; rows of the other banners are left to
/// `LotteDowaSource` (맥스, 토이저러스, 보틀벙커, 그랑그로서리), so each store comes out once.
///
/// The branch name is the row's `.name` element, a `brnchCd` link's text, or its first text
/// ending in `점` (a plain `td` in 2026), without the banner. The id is the `brnchCd` when the
/// row links one (the older rows), otherwise the branch name (`lottemart-원주점`); the 2026 rows
/// link none, so their branches are named ids, and a bundle following one made from the older
/// rows lists the `brnchCd` id as each branch's former id (see docs/bundle-format.md). A
/// `span.state` (`영업중`, `임시휴업`, `영업종료`), when present, is the branch's status text;
/// stores not open yet (`오픈예정`) are skipped. The closing text is passed on verbatim for the
/// closing-day engine.
public struct LotteMartSource: BrandSource {
  public static let name = "lottemart"
  public static let brands: [BrandSlug] = [.lottemart]
  public static let origin = "http://company.lottemart.com"
  /// A day-off cell lists the next closing days (`11/22(일)`, `12/13,/27`), or a rule.
  public static let closingDateCoverage = DateCoverage.asOfThroughLastListed
  /// The day-off cell is the text: the next closing days (`09/13(일), 09/27(일)`), not a month's.
  public static let closingTextCoverage = DateCoverage.asOfThroughLastListed
  public static let primaryData = "lottemart store search (/shop/shop_search_type.asp)"
  /// The second list, as reports name it when it stood in for the search.
  public static let allFormatsData = "lottemart all-format list (/shop/shop_search.asp)"

  public init() {}

  /// Path and query of the search listing every Lotte Mart store (`schType=01` is 롯데마트).
  package static let storeListPath = "/shop/shop_search_type.asp?schArea=&schType=01&schWord="

  /// Path and query of the list of every store of every format on one page.
  package static let allFormatsPath = "/shop/shop_search.asp?page=1&list_num=500"

  /// The classes of the four fields every store row carries, as `(element, class)`; a row holds
  /// at most one of each, except `div.address`, which 2026 rows hold in parts.
  static let rowFields = [("span", "day-off"), ("div", "address"), ("span", "time"), ("span", "call")]

  /// How many of each row field a row may hold.
  static let mostPerRow = SIMD4<Int32>(1, .max, 1, 1)

  /// `span.state` texts of stores that are announced but not open yet; such rows are skipped.
  static let notYetOpenStates = ["오픈예정", "개점예정", "오픈 예정"]

  /// The `span.state` of an open store.
  static let openState = "영업중"

  /// The banners a row's logo or name prefix can carry, and the banner a 롯데마트 branch keeps
  /// (`nil`: plain 롯데마트); `otherSource` marks the banners another source reads.
  enum Banner: Equatable {
    case lotteMart(banner: String?)
    case otherSource
  }

  static let banners: [(name: String, banner: Banner)] = [
    ("롯데마트 맥스", .otherSource), ("롯데마트맥스", .otherSource), ("맥스", .otherSource),
    ("토이저러스", .otherSource), ("보틀벙커", .otherSource), ("그랑그로서리", .otherSource), ("Mealguru", .otherSource),
    ("제타플렉스", .lotteMart(banner: "제타플렉스")), ("롯데마트", .lotteMart(banner: nil)),
    ("LOTTE Mart", .lotteMart(banner: nil)),
  ]

  public func collect(_ session: SourceSession) async throws(SourceError) -> [RawBranch] {
    guard session.brands.contains(.lottemart) else { return [] }
    let searched: Result<[RawBranch], SourceError>
    var searchAnswer: Data?
    do throws(SourceError) {
      let response = try await session.send(HTTPRequest(method: .post, url: session.url(Self.storeListPath)))
      searchAnswer = response.body
      searched = .success(try Self.parseStoreList(response.body, url: response.requestURL, charset: response.charset))
    } catch {
      searched = .failure(error)
    }
    let allFormats: Result<[RawBranch], SourceError>
    do throws(SourceError) {
      allFormats = .success(try await Self.allFormatsList(searchAnswer: searchAnswer, session))
    } catch let error where error.isMismatch {
      // Its stores (제타플렉스 잠실점, 서울역점) are listed nowhere else: the brand keeps its last
      // data rather than lose them.
      throw error
    } catch {
      allFormats = .failure(error)
    }
    switch (searched, allFormats) {
    case (.success(let branches), .success(let more)):
      return Self.adding(more, to: branches)
    case (.success(let branches), .failure(let error)):
      session.warn("the all-format list was not read, stores listed only there are missing: \(error)")
      return branches
    case (.failure(let error), .success(let branches)):
      session.usedFallback(Self.allFormatsData, primaryFailure: error)
      return branches
    case (.failure(let error), .failure):
      throw error.withFallbackFailed("the all-format list")
    }
  }

  /// The all-format list's 롯데마트 branches. The list names no query and shares rows with the
  /// store search (롯데마트 rows, and in some answers rows of other banners), so nothing in it is
  /// its own: an answer byte-equal to the search's (`searchAnswer`) is the search's, a mismatch,
  /// and the list is compared with the run's other answers too.
  static func allFormatsList(searchAnswer: Data?, _ session: SourceSession) async throws(SourceError) -> [RawBranch] {
    let response = try await session.get(allFormatsPath) { answer in
      guard let searchAnswer, answer.body == searchAnswer else { return nil }
      return "the store search's answer, not the list of every format"
    } unproven: { _ in true }
    return try parseStoreList(response.body, url: response.requestURL, charset: response.charset)
  }

  /// `branches` followed by the branches of `more` whose id and name none of them has, in
  /// order.
  static func adding(_ more: [RawBranch], to branches: [RawBranch]) -> [RawBranch] {
    var ids = Set(branches.map(\.id))
    var names = Set(branches.map(\.name))
    var all = branches
    for branch in more where !ids.contains(branch.id) && !names.contains(branch.name) {
      ids.insert(branch.id)
      names.insert(branch.name)
      all.append(branch)
    }
    return all
  }

  /// Reads a store list page (the search or the all-format list) into branches, in page order.
  /// A store listed more than once (under several regions) appears once: a repeated id or name
  /// keeps its first row. Rows without a name, rows of stores not open yet (`span.state`
  /// `오픈예정`) and rows of another source's banner are skipped. `charset` is the Content-Type
  /// charset when known.
  ///
  /// Throws `SourceError.unexpectedContent` when the page has no store rows or none of them
  /// has a name.
  public static func parseStoreList(
    _ data: Data, url: String, charset: String? = nil
  ) throws(SourceError) -> [RawBranch] {
    do {
      let document = try HTMLDocument(data: data, url: url, charset: charset)
      let rows = storeRows(in: document)
      guard let lastRow = rows.last else {
        throw SourceError(
          source: Self.name, url: url,
          reason: .unexpectedContent("no store rows (no span.day-off, div.address, span.time or span.call)"))
      }
      // Every row holds a `span.day-off`: the row of the last one (a `tr` in 2026, an `li` in
      // 2022, whatever element holds it) must end.
      // (A page of one row and no container holds it in the document itself: not judged.)
      if !["html", "body"].contains(lastRow.name),
        let cut = AnswerChecks.cutShort(data, after: "day-off", closing: [lastRow.name])
      {
        throw SourceError(source: Self.name, url: url, reason: .unexpectedContent(cut))
      }
      var branches: [RawBranch] = []
      var seenStoreIDs = Set<String>()
      var seenNames = Set<String>()
      var otherBanners = 0
      let links = LinkBase(searchURL: url)
      for row in rows {
        guard let parsed = try parseRow(row, url: url, links: links) else { continue }
        guard let branch = parsed else {
          otherBanners += 1
          continue
        }
        guard seenStoreIDs.insert(branch.id.storeID).inserted, seenNames.insert(branch.name).inserted
        else { continue }
        branches.append(branch)
      }
      guard !branches.isEmpty else {
        throw SourceError(
          source: Self.name, url: url,
          reason: .unexpectedContent(
            "none of \(rows.count) store rows has a branch name of an open 롯데마트 store (\(otherBanners) of other banners)"
          ))
      }
      return branches
    } catch let error as SourceError {
      throw error
    } catch {
      throw SourceError(source: Self.name, url: url, reason: .unexpectedContent("\(error)"))
    }
  }

  /// The store rows, in document order: the elements holding at least one row field and at most
  /// `mostPerRow` of each, whose parent holds more than that of some field (or is the document
  /// itself).
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
      if all(element.below .<= mostPerRow) {
        // It holds at most one of each field (but the addresses), so none of its descendants is a row: the
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

  /// One store row: `nil` when it has no name or is a store not open yet, `.some(nil)` when it
  /// is a row of another source's banner. Its fields are the first element of each kind below
  /// the row (every `div.address`), found in one walk.
  private static func parseRow(_ row: HTMLElement, url: String, links: LinkBase) throws(HTMLError) -> RawBranch?? {
    var state: HTMLElement?
    var link: HTMLElement?
    var named: HTMLElement?
    var memo: HTMLElement?
    var logoBanner: Banner??
    var addresses: [String] = []
    var fields: [HTMLElement?] = Array(repeating: nil, count: rowFields.count)
    for element in row.descendants {
      if state == nil, element.hasClass("state") { state = element }
      if named == nil, element.hasClass("name") { named = element }
      if memo == nil, element.hasName("span"), element.hasClass("memo") { memo = element }
      if link == nil, element.hasName("a"), element.attribute("href", contains: "brnchCd=") { link = element }
      if logoBanner == nil, element.hasName("img"), let alt = element.attribute("alt")?.trimmingSpaces(), !alt.isEmpty {
        logoBanner = banners.first { $0.name == alt }.map(\.banner)
      }
      if element.hasName("div"), element.hasClass("address") {
        let part = element.text
        if !part.isEmpty { addresses.append(part) }
      }
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
    let (prefixBanner, name) = splittingBanner(rawName)
    let banner = (logoBanner ?? nil) ?? prefixBanner
    guard case .lotteMart(let bannerName) = banner ?? .lotteMart(banner: nil) else { return .some(nil) }
    let hours = text(fields[2])
    let memoText = text(memo)
    return RawBranch(
      id: BranchID(brand: .lottemart, storeID: storeCode ?? name),
      name: name,
      banner: bannerName ?? (prefixBanner == .lotteMart(banner: "제타플렉스") ? "제타플렉스" : nil),
      address: addresses.isEmpty ? nil : addresses.joined(separator: " "),
      phone: text(fields[3]),
      openingHours: openingHours(hours, memo: memoText),
      closingText: text(fields[0]).flatMap { $0 == "-" ? nil : $0 },
      statusText: stateText,
      sourceURL: url,
      pageURL: href.flatMap { links.storePage(href: $0) })
  }

  /// The hours with the memo, an hours note, after them in brackets: `10:00~23:00 (주말:
  /// 10:00~22:00)`; the memo alone when there are no hours.
  static func openingHours(_ hours: String?, memo: String?) -> String? {
    guard let memo else { return hours }
    guard let hours else { return memo }
    return "\(hours) (\(memo))"
  }

  /// `제타플렉스 잠실점` → (제타플렉스, `잠실점`); `롯데마트 제주점` → (롯데마트, `제주점`); a
  /// name without a banner prefix comes back as it is, with no banner.
  static func splittingBanner(_ name: String) -> (Banner?, String) {
    for (prefix, banner) in banners where name.hasPrefix(prefix) {
      let stripped = name.dropFirst(prefix.count).trimmingSpaces()
      if !stripped.isEmpty { return (banner, stripped) }
    }
    return (nil, name)
  }

  /// How a branch name may end: `점`, and, as a 2026 collector also accepts, `역` and `스`
  /// (brand-sources.md §11.3).
  static let nameEndings = ["점", "역", "스"]

  /// The branch name: the row's `.name` element, else its `brnchCd` link text, else the first
  /// text outside the fields that ends in `점`, `역` or `스` (``nameEndings``; the page shows
  /// `LOTTE Mart | 제주점 | 영업중 …`)
  /// and has no space but after a banner. `named` is the row's first `.name` element, `link` its
  /// first `brnchCd` link.
  private static func name(of row: HTMLElement, named: HTMLElement?, link: HTMLElement?) throws(HTMLError) -> String? {
    if let named = named?.text, !named.isEmpty { return named }
    if let linkText = link?.text, !linkText.isEmpty { return linkText }
    let outsideFields = (rowFields.map(\.1) + ["state", "memo"]).map { "ancestor::*[\(XPath.hasClass($0))]" }
      .joined(separator: " or ")
    for node in try row.select(".//text()[not(\(outsideFields))]") {
      let text = node.text
      if nameEndings.contains(where: text.hasSuffix), !splittingBanner(text).1.contains(" ") { return text }
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

}

extension BrandSlug {
  /// 롯데마트.
  public static let lottemart: BrandSlug = "lottemart"
}

extension LotteMartSource {
  /// The store search and the all-format list: their store rows, the rows of open 롯데마트
  /// stores with a name, and how many of those carry an address and a day-off cell.
  public func probe(_ session: SourceSession) async -> [ProbePage] {
    func counts(_ response: HTTPResponse) throws(SourceError) -> [ProbeCount] {
      let branches = try Self.parseStoreList(response.body, url: response.requestURL, charset: response.charset)
      return [
        ProbeCount("롯데마트 rows with a name", found: branches.count),
        ProbeCount("rows with div.address", found: branches.count { $0.address != nil }),
        ProbeCount("rows with span.day-off text", found: branches.count { $0.closingText != nil }),
      ]
    }
    return [
      await session.probe(HTTPRequest(method: .post, url: session.url(Self.storeListPath)), count: counts),
      await session.probe(.get(session.url(Self.allFormatsPath)), count: counts),
    ]
  }
}
