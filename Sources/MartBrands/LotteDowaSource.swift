import Foundation
import MartCore
import MartFetch
import MartHTML

/// Lotte Mart's 도와센터 (help centre) pages, which list every store of the Lotte Mart family
/// with its store code: `POST /mobiledowa/market/search_shop.asp` with the form `m_area=<area>`,
/// once per area (`서울` … `광주` and `기타`, which holds 제주).
///
/// The answer is an HTML fragment (sometimes preceded by junk such as `<-schWord<br>콜라`) with
/// one row per store: the name in `.shop-tit`, then lines found by their labels (`영업시간 :`,
/// `휴점일 :`, `주소 :`, `상담전화 :`), and a link to `detail_shop.asp?werks=<code>`; without that
/// link the code comes from the phone link's `goClick('<code>')`. The brand is the name's prefix:
/// `맥스` (롯데마트 맥스), `토이저러스`, `보틀벙커`, `그랑그로서리`. Rows without one of those
/// prefixes are 롯데마트 stores, which `LotteMartSource` owns (the two sites number stores
/// differently, so the same store must come from one of them only), or formats that are none of
/// our brands (`Mealguru`); neither is exported here. `제타플렉스` is a store, not a brand.
///
/// Ids are `<slug>-<code>`. Two stores of one brand sharing a code (보틀벙커 제타플렉스 and
/// 서울역점 both link `361`) are each exported as `<slug>-<code>-<name>`, with a warning.
/// `휴점일` (this month's dates like `03/08(일), 03/22(일)`, or a rule) is passed on verbatim as
/// the closing text. The pages carry no coordinates.
///
/// Session: a request without the site's `ASPSESSIONID…` cookie may be answered `200` with an
/// empty body that only sets the cookie; the source then repeats the request once with the
/// cookie, and sends the cookies it was given with every later request.
public struct LotteDowaSource: BrandSource {
  public static let name = "lotte-dowa"
  public static let brands: [BrandSlug] = [.lotteMaxx, .toysrus, .grandGrocery, .bottleBunker]
  public static let origin = "http://company.lottemart.com"
  /// 휴점일 lists this month's closing days: the months its dates fall in are covered.
  public static let closingDateCoverage = DateCoverage.wholeMonths
  /// 휴점일 is the text, and it lists every closing day of this month (`03/08(일), 03/22(일)`:
  /// the 2nd and 4th Sundays of 2020-03, both of the month's; brand-sources.md §9.1), so its
  /// dates cover their months.
  public static let closingTextCoverage = DateCoverage.wholeMonths
  public static let scope = "/mobiledowa"

  public init() {}

  /// The areas the site's area picker offers, in its order; 제주 is `기타`.
  public static let areas = [
    "서울", "경기", "인천", "강원", "충북", "충남", "대전", "경북", "경남", "대구", "부산", "울산", "전북", "전남", "광주", "기타",
  ]

  /// The 도와센터 store search's path (a POST form of one `m_area` of ``areas``).
  package static let searchPath = "/mobiledowa/market/search_shop.asp"

  /// Name prefixes and the brand they mark, longest first within a brand.
  static let brandPrefixes: [(prefix: String, brand: BrandSlug)] = [
    ("롯데마트 맥스", .lotteMaxx), ("롯데마트맥스", .lotteMaxx), ("맥스", .lotteMaxx),
    ("토이저러스", .toysrus), ("보틀벙커", .bottleBunker), ("그랑그로서리", .grandGrocery),
  ]

  public func collect(_ session: SourceSession) async throws(SourceError) -> [RawBranch] {
    guard !session.brands.isDisjoint(with: Self.brands) else { return [] }
    /// One area's search page (nil when it stayed blank), asked with `cookies` and asked once
    /// more with the cookie the first answer set when that answer was blank.
    @Sendable func searchPage(
      _ area: String, cookies: inout CookieJar, _ session: SourceSession
    ) async throws(SourceError) -> [Store]? {
      let request = HTTPRequest.postForm(session.url(Self.searchPath), fields: [("m_area", area)])
      var answer = try await Self.searchPage(cookies.applied(to: request), area: area, session)
      cookies.take(from: answer.page)
      if answer.stores == nil {
        // A blank page: the session cookie was missing, the answer only set it. Ask once more with it.
        answer = try await Self.searchPage(cookies.applied(to: request), area: area, session)
        cookies.take(from: answer.page)
      }
      guard let stores = answer.stores else {
        session.warn("\(Self.name): \(request.url) (m_area=\(area)) answered an empty page twice; no stores read")
        return nil
      }
      return try stores.get()
    }
    // The first area gets the session cookie; the other areas are then asked together with it.
    var cookies = CookieJar()
    var pages: [[Store]?] = []
    if let firstArea = Self.areas.first {
      pages.append(try await searchPage(firstArea, cookies: &cookies, session))
    }
    let sessionCookies = cookies
    pages += try await session.sideBySide(Array(Self.areas.dropFirst())) { session, area throws(SourceError) in
      var cookies = sessionCookies
      return try await searchPage(area, cookies: &cookies, session)
    }
    let stores = pages.compactMap { $0 }.flatMap { $0 }
    let pagesWithRows = pages.count { $0?.isEmpty == false }
    guard pagesWithRows > 0 else {
      throw SourceError(
        source: session.sourceName, url: session.url(Self.searchPath),
        reason: .unexpectedContent("no area listed any store"))
    }
    return Self.branches(from: stores, origin: session.baseURL, searchURL: session.url(Self.searchPath)) {
      session.warn($0, branch: $1)
    }
  }

  static func isBlank(_ body: Data) -> Bool {
    body.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
  }

  // MARK: - Parsing

  /// One store row of a search page, as published.
  public struct Store: Sendable, Hashable {
    /// The `.shop-tit` text, e.g. `토이저러스 김포한강점`.
    public var title: String
    /// The store code from the detail link (`werks=`) or `goClick('…')`.
    public var code: String?
    public var hours: String?
    public var closingText: String?
    public var address: String?
    public var phone: String?
    /// The detail link, as published.
    public var detailHref: String?
  }

  /// The store rows of one search page, in page order. Text before the markup is ignored; a page
  /// without rows is empty (an area without stores).
  public static func parseSearchPage(_ data: Data, url: String, charset: String? = nil) throws(SourceError) -> [Store] {
    // Each store is an `li` holding its `shop-tit`: the last one must end.
    if let cut = AnswerChecks.cutShort(data, after: "shop-tit", closing: ["li"]) {
      throw SourceError(source: name, url: url, reason: .unexpectedContent(cut))
    }
    do {
      let document = try HTMLDocument(data: data, url: url, charset: charset)
      var stores: [Store] = []
      for title in document.elements where title.hasClass("shop-tit") {
        let name = title.text
        guard !name.isEmpty else { continue }
        let row = nearestListItem(above: title) ?? title.parent ?? title
        var store = Store(title: name)
        var link: HTMLElement?
        var goClickElements: [HTMLElement] = []
        for element in row.descendants {
          if element.hasName("li") { read(line: element, into: &store) }
          if link == nil, element.hasName("a"), element.attribute("href", contains: "werks=") { link = element }
          if element.attribute("onclick", contains: "goClick") { goClickElements.append(element) }
        }
        if let link, let href = link.attribute("href") {
          store.detailHref = href.trimmingSpacesAndNewlines()
          store.code = queryValue("werks", in: href)
        }
        if store.code == nil {
          for element in goClickElements {
            if let code = element.attribute("onclick").flatMap(goClickCode) {
              store.code = code
              break
            }
          }
        }
        stores.append(store)
      }
      return stores
    } catch {
      throw SourceError(source: Self.name, url: url, reason: .unexpectedContent("\(error)"))
    }
  }

  /// The nearest `li` that holds `element` (`ancestor::li[1]`).
  private static func nearestListItem(above element: HTMLElement) -> HTMLElement? {
    var ancestor = element.parent
    while let current = ancestor, !current.hasName("li") { ancestor = current.parent }
    return ancestor
  }

  /// Reads one labelled line (`영업시간 : 10:00~23:00`) into `store`; a field keeps its first value.
  private static func read(line: HTMLElement, into store: inout Store) {
    let text = line.text
    guard let colon = text.firstIndex(where: { $0 == ":" || $0 == "：" }) else { return }
    let label = text[..<colon].filter { !Trimming.isWhitespace($0) }
    let value = text[text.index(after: colon)...].trimmingSpaces()
    let published = value.isEmpty ? nil : value
    switch label {
    case "영업시간": store.hours = store.hours ?? published
    case "휴점일", "휴무일": store.closingText = store.closingText ?? published
    case "주소": store.address = store.address ?? published
    case "상담전화", "전화", "전화번호":
      let linked = line.firstDescendant(where: { $0.hasName("a") })?.text
      store.phone = store.phone ?? (linked?.isEmpty == false ? linked : published)
    default: return
    }
  }

  /// `goClick('2301');` → `2301`.
  static func goClickCode(_ script: String) -> String? {
    // `goClick(`, spaces, an optional quote, spaces, the code (no quote, `)` or space), spaces,
    // an optional quote, spaces, `)`; the first call that reads so.
    var from = script.startIndex
    while let call = script[from...].firstRange(of: "goClick(") {
      var scanner = TextScanner(script, at: call.upperBound)
      scanner.skip(\.isWhitespace)
      _ = scanner.take(["'", "\""])
      scanner.skip(\.isWhitespace)
      let code = scanner.index
      scanner.skip { !"'\")".contains($0) && !$0.isWhitespace }
      let codeEnd = scanner.index
      scanner.skip(\.isWhitespace)
      _ = scanner.take(["'", "\""])
      scanner.skip(\.isWhitespace)
      if codeEnd > code, scanner.take([")"]) { return String(script[code..<codeEnd]) }
      from = call.upperBound
    }
    return nil
  }

  /// The value of query parameter `name` in a (possibly relative) link.
  static func queryValue(_ name: String, in href: String) -> String? {
    let trimmed = href.trimmingSpacesAndNewlines()
    guard let queryStart = trimmed.firstIndex(of: "?") else { return nil }
    let query = trimmed[trimmed.index(after: queryStart)...].prefix { $0 != "#" }
    let value = FormEncoding.decode(String(query)).first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?
      .value.trimmingSpaces()
    return value?.isEmpty == false ? value : nil
  }

  /// The brand a store title names and the title without that prefix; `nil` for rows that are
  /// none of this source's brands (롯데마트 stores, Mealguru, anything else).
  public static func brand(ofTitle title: String) -> (brand: BrandSlug, name: String)? {
    let compact = title.trimmingSpaces()
    for (prefix, brand) in brandPrefixes where compact.hasPrefix(prefix) {
      let rest = compact.dropFirst(prefix.count).trimmingSpaces()
      return (brand, rest.isEmpty ? compact : rest)
    }
    return nil
  }

  /// The branches of the stores read from every area: each store once (an area may repeat a
  /// store), only this source's brands, stores without a code skipped with a warning, and
  /// codes two stores of a brand share made distinct by the name.
  public static func branches(
    from stores: [Store], origin: String, searchURL: String, warn: (String, BranchID?) -> Void
  ) -> [RawBranch] {
    var seen = Set<String>()
    var rows: [(brand: BrandSlug, name: String, code: String, store: Store)] = []
    for store in stores {
      guard let (brand, name) = brand(ofTitle: store.title) else { continue }
      guard let code = store.code else {
        warn("\(Self.name): \(store.title) has no store code (no werks= link, no goClick); skipped", nil)
        continue
      }
      guard seen.insert("\(brand.rawValue)\u{0}\(code)\u{0}\(name)").inserted else { continue }
      rows.append((brand, name, code, store))
    }
    let namesPerCode = Dictionary(grouping: rows, by: { "\($0.brand.rawValue)-\($0.code)" }).mapValues(\.count)
    return rows.map { row in
      let shared = namesPerCode["\(row.brand.rawValue)-\(row.code)", default: 0] > 1
      let storeID = shared ? "\(row.code)-\(row.name.filter { !$0.isWhitespace })" : row.code
      let id = BranchID(brand: row.brand, storeID: storeID)
      if shared {
        warn("\(Self.name): store code \(row.code) is shared by several \(row.brand.rawValue) stores; id \(id)", id)
      }
      let detail = row.store.detailHref.flatMap { href in
        var relative = Substring(href.trimmingSpacesAndNewlines())
        while relative.hasPrefix("./") { relative = relative.dropFirst(2) }
        return LotteMartSource.storePage(href: String(relative), searchURL: searchURL)
      }
      return RawBranch(
        id: id, name: row.name, address: row.store.address, phone: row.store.phone,
        openingHours: row.store.hours, closingText: row.store.closingText,
        sourceURL: searchURL,
        pageURL: detail ?? origin + "/mobiledowa/market/detail_shop.asp?werks=" + FormEncoding.escape(row.code))
    }
  }
}

/// The cookies a site set during one source's run, sent back with its later requests.
struct CookieJar: Sendable {
  private var values: [(name: String, value: String)] = []

  /// Keeps every `name=value` of the response's `Set-Cookie` headers (attributes dropped).
  mutating func take(from response: HTTPResponse) {
    for header in response.headers where header.name.caseInsensitiveCompare("Set-Cookie") == .orderedSame {
      let pair = header.value.prefix { $0 != ";" }
      guard let equals = pair.firstIndex(of: "=") else { continue }
      let name = pair[..<equals].trimmingSpaces()
      let value = pair[pair.index(after: equals)...].trimmingSpaces()
      guard !name.isEmpty else { continue }
      values.removeAll { $0.name == name }
      values.append((name, value))
    }
  }

  /// `request` with a `Cookie` header holding the kept cookies, when there are any.
  func applied(to request: HTTPRequest) -> HTTPRequest {
    guard !values.isEmpty else { return request }
    var request = request
    request.headers.removeAll { $0.name.caseInsensitiveCompare("Cookie") == .orderedSame }
    request.headers.append(HTTPHeader("Cookie", values.map { "\($0.name)=\($0.value)" }.joined(separator: "; ")))
    return request
  }
}

extension BrandSlug {
  /// 롯데마트 맥스.
  public static let lotteMaxx: BrandSlug = "lotte-maxx"
  /// 토이저러스.
  public static let toysrus: BrandSlug = "toysrus"
  /// 그랑그로서리.
  public static let grandGrocery: BrandSlug = "grand-grocery"
  /// 보틀벙커.
  public static let bottleBunker: BrandSlug = "bottle-bunker"
}
