import Foundation
import MartCore
import MartFetch
import MartHTML

/// Homeplus's store site, which serves 홈플러스 (`.homeplus`, including the 홈플러스 스페셜
/// hypermarkets) and 홈플러스 익스프레스 (`.homeplusExpress`).
///
/// - `POST /store/get_list` (form body, as the site's own store finder sends it): every store
///   as JSON rows under `data` (some answers use `rows`, and 2026 clients take the first
///   non-empty array of objects, the key not being fixed), with id, name, type, address, phone,
///   coordinates, the opening-hours text and the next closing day or two (`storDayoffCntt`).
///   Every 2026 client reads it.
/// - `GET /store/store_detail?storId=<id>`: the store's page, whose `dl.shop_detail_01` holds
///   the closing-day rule with its dates (`매월 둘째, 넷째 일요일 (11/8, 11/22)`) in the second
///   `dd`. A store the site no longer shows may redirect to a page without content. No 2026
///   client reads these pages (the last one is from 2025-11), so they are expected to move: a
///   store whose page is unreadable or blank keeps the list's next closing day
///   (`storDayoffCntt`) as its closing text (the list, not a blank page, says which stores
///   exist), and the days the list does not speak of are unknown. Its `sourceURL` says which
///   gave its days: the store page, or the list. When most pages are unreadable, the brand is
///   still published, with a warning that its days came from the list; when the first three
///   pages all carry no store data (client-rendered shells), the others are not asked that run.
///
/// A store that stopped trading says so only in its hours text (`마트 임시휴업. 몰영업시간
/// 10:00~21:00`, `계룡점 영업종료로 단골매장을 변경해주세요.`); such rows are kept with that text
/// as published.
public struct HomeplusSource: BrandSource {
  public static let name = "homeplus"
  public static let brands: [BrandSlug] = [.homeplus, .homeplusExpress]
  public static let origin = "https://my.homeplus.co.kr"
  /// `storDayoffCntt` holds the next closing day or two (`11/22(일)`); a store page adds the rule.
  public static let closingDateCoverage = DateCoverage.asOfThroughLastListed
  /// `storDayoffCntt` is a text of the next closing day or two (`09/28(월)`), not a month's list.
  public static let closingTextCoverage = DateCoverage.asOfThroughLastListed
  public static let primaryData = "homeplus store pages (/store/store_detail) over the store list (/store/get_list)"
  /// The fallback, as reports name it: the list alone.
  public static let storeListData = "homeplus store list's next closing days (/store/get_list storDayoffCntt)"

  public init() {}

  /// The store list's path (a POST form: ``storeListFields``).
  package static let storeListPath = "/store/get_list"

  /// The store-finder form: every covered store type (`H` 홈플러스, `S` 스페셜, `E` 익스프레스) in
  /// one answer; an empty `viewPlus` leaves out 365플러스, which publishes no closing days.
  package static let storeListFields: [(name: String, value: String)] = [
    ("viewHomeplus", "H"), ("viewExpress", "E"), ("viewPlus", ""), ("viewSpecial", "S"),
    ("draw", "1"), ("pageSize", "999"), ("sortFlag", "N"), ("searchRegion", ""),
    ("locatePage", "N"), ("searchStoreNm", ""),
  ]

  /// The headers the site's own store finder sends with its XHR.
  static let storeListHeaders = [
    HTTPHeader("X-Requested-With", "XMLHttpRequest"), HTTPHeader("Referer", origin + "/store"),
  ]

  /// Path and query of a store's detail page.
  package static func detailPath(storeID: String) -> String {
    "/store/store_detail?storId=\(FormEncoding.escape(storeID))"
  }

  /// The brand of a `storDivCd`: `H` and `S` (홈플러스 스페셜) are 홈플러스, `E` is 익스프레스;
  /// `P` (365플러스) and unknown codes are not covered.
  static func brand(forStoreType storeType: String) -> BrandSlug? {
    switch storeType.uppercased() {
    case "H", "S": .homeplus
    case "E": .homeplusExpress
    default: nil
    }
  }

  public func collect(_ session: SourceSession) async throws(SourceError) -> [RawBranch] {
    guard Self.brands.contains(where: session.brands.contains) else { return [] }
    let response = try await session.send(
      .postForm(session.url(Self.storeListPath), fields: Self.storeListFields, headers: Self.storeListHeaders))
    let list = try Self.readStoreList(response.body, url: response.requestURL, origin: session.baseURL)
    session.warn(skipped: list.skipped)
    let listed = list.branches.filter { session.brands.contains($0.id.brand) }

    let pages = Self.pagesBeforeStopping
    let firstOutcomes = await session.sideBySide(Array(listed.prefix(pages)), Self.readStorePage)
    // Store pages that carry no store data (client-rendered shells, the 2026 site) are not asked
    // for every store: when the first few all carry nothing, the list's next closing days stand
    // in for the run, said once. A later run tries the pages again.
    if firstOutcomes.count == pages, firstOutcomes.allSatisfy(\.carriesNothing),
      case .unreadable(_, let error, _, _)? = firstOutcomes.first
    {
      // What the pages were, said with it (as the probe says it): a shell's title and kind.
      let described = Set(firstOutcomes.compactMap { $0.answer.map(ResponseDescription.body) }).sorted()
      let pagesWere = described.isEmpty ? "" : " (\(described.joined(separator: "; ")))"
      session.usedFallback(
        "\(Self.storeListData), for all \(listed.count) stores: the first \(pages) store pages carry no store"
          + " data\(pagesWere), so the others were not asked this run",
        primaryFailure: error)
      return listed
    }
    let firstRead = zip(
      listed, firstOutcomes + (await session.sideBySide(Array(listed.dropFirst(pages)), Self.readStorePage)))
    // A page taken as another request's leftover before that request's answer was noted shows
    // now that every answer is in, or once the pages asked again are: each that came on a reused
    // connection and equals another request's answer is asked again on a fresh connection.
    let outcomes = await session.reaskingRepeats(Array(firstRead)) { item in
      guard let answer = item.1.answer, answer.cameOnReusedConnection else { return nil }
      return (.get(answer.requestURL), answer.body)
    } again: { session, item, _ in
      // Without a lane's proof, every page asked again goes on a fresh connection.
      (item.0, await Self.readStorePage(session, item.0, fresh: true))
    }.map(\.1)
    var branches: [RawBranch] = []
    var unreadable: [(id: BranchID, error: SourceError)] = []
    // A page that carries a store's days, phone and address is never another store's page
    // byte for byte: pages that are one answer (a cache that ignores the query string) say
    // nothing of whose they are, none of them is believed, and the list stands in for each.
    let answers = outcomes.compactMap(\.page).reduce(into: [AnswerBody: Int]()) {
      $0[AnswerBody($1.body), default: 0] += 1
    }

    for (outcome, branch) in zip(outcomes, listed) {
      switch outcome {
      case .merged(let merged, let page) where answers[AnswerBody(page.body)] == 1: branches.append(merged)
      case .merged(_, let page):
        unreadable.append(
          (
            branch.id,
            SourceError(
              source: Self.name, url: page.requestURL,
              reason: .unexpectedContent(
                "the same answer as \((answers[AnswerBody(page.body)] ?? 0) - 1) other store pages, which cannot say whose it is"
              ))
          ))
        branches.append(branch)
      case .unreadable(let branch, let error, _, _):
        unreadable.append((branch.id, error))
        branches.append(branch)
      }
    }
    // A few bad pages are warned about one by one; most pages unreadable is a redesign or an
    // outage: the list's next closing days stand in, said once.
    if let first = unreadable.first, unreadable.count * 2 > listed.count {
      session.usedFallback(
        "\(Self.storeListData), for \(unreadable.count) of \(listed.count) stores", primaryFailure: first.error)
    } else {
      for (id, error) in unreadable {
        session.warn("store page not read, closing days from the store list: \(error)", branch: id)
      }
    }
    return branches
  }

  /// How many store pages are asked first: when each of them carries no store data, the rest
  /// are not asked that run.
  static let pagesBeforeStopping = 3

  /// What a store page made of its branch.
  enum PageOutcome: Sendable {
    /// The list row completed by its page, and the page.
    case merged(RawBranch, HTTPResponse)
    /// The page could not be read or carries no store data (`carriesNothing`, the page then
    /// given): the branch as listed, and why.
    case unreadable(RawBranch, SourceError, carriesNothing: Bool, page: HTTPResponse? = nil)

    var carriesNothing: Bool {
      if case .unreadable(_, _, let nothing, _) = self { return nothing }
      return false
    }

    /// The answer the outcome was made of, when one came.
    var answer: HTTPResponse? {
      switch self {
      case .merged(_, let page): page
      case .unreadable(_, _, _, let page): page
      }
    }

    var page: HTTPResponse? {
      if case .merged(_, let page) = self { return page }
      return nil
    }
  }

  /// Reads `branch`'s store page. A page that cannot be read costs that branch its page, not
  /// the brand; a blank page (where the site sends a store it no longer shows) keeps the branch
  /// as listed: the list, not a blank page, says which stores exist.
  @Sendable static func readStorePage(_ session: SourceSession, _ branch: RawBranch) async -> PageOutcome {
    await readStorePage(session, branch, fresh: false)
  }

  /// ``readStorePage(_:_:)``, on a fresh connection when `fresh`.
  static func readStorePage(_ session: SourceSession, _ branch: RawBranch, fresh: Bool) async -> PageOutcome {
    let detailURL = session.url(detailPath(storeID: branch.id.storeID))
    let page: HTTPResponse
    do throws(SourceError) {
      page = try await storePage(at: detailURL, of: branch, fresh: fresh, session)
    } catch {
      return .unreadable(branch, session.described(error), carriesNothing: false)
    }
    do throws(SourceError) {
      guard let detail = try parseDetail(page.body, url: detailURL, charset: page.charset) else {
        let error = SourceError(
          source: name, url: detailURL, reason: .unexpectedContent("a page without content, no store data"))
        return .unreadable(branch, session.described(error), carriesNothing: true, page: page)
      }
      var merged = merging(detail, into: branch)
      merged.sourceURL = detailURL
      return .merged(merged, page)
    } catch {
      return .unreadable(branch, session.described(error), carriesNothing: true, page: page)
    }
  }

  // MARK: - Store list

  private struct StoreListBody: Decodable {
    let data: [JSONRow]?
    let rows: [JSONRow]?
  }

  /// Reads a `get_list` answer into branches of the covered store types, in feed order, with
  /// the list's next closing day (`storDayoffCntt`) as closing text. Each branch's `sourceURL`
  /// is `url`, the list; `pageURL` is its store page on `origin` (the site's `scheme://host`).
  ///
  /// Throws `SourceError.unexpectedContent` when the answer is not JSON with a `data` (or
  /// `rows`) array, or no row has an id and a name.
  public static func parseStoreList(
    _ data: Data, url: String, origin: String = origin
  ) throws(SourceError) -> [RawBranch] {
    try readStoreList(data, url: url, origin: origin).branches
  }

  /// ``parseStoreList(_:url:origin:)``, with the rows skipped for lack of a `storId` (or
  /// `storCd`) or a `storKorNm`.
  public static func readStoreList(
    _ data: Data, url: String, origin: String = origin
  ) throws(SourceError) -> BranchList {
    let found = try decodeRows(
      data, key: "data", url: url, expecting: "a \"data\" array", fallback: StoreListBody.self,
      rows: { $0.data ?? $0.rows })
    guard let rows = found ?? firstArrayOfObjects(in: data) else {
      throw SourceError(
        source: Self.name, url: url, reason: .unexpectedContent("no \"data\" or \"rows\" array, nor any array of rows"))
    }
    var branches: [RawBranch] = []
    var skipped: [SkippedRow] = []
    var seen = Set<BranchID>()
    var identifiedRows = 0
    for (index, row) in rows.enumerated() {
      guard let storeID = row.text("storId") ?? row.text("storCd"),
        let fullName = row.text("storKorNm")
      else {
        skipped.append(
          SkippedRow(
            row, at: index, of: "the store list", url: url, lacking: [["storId", "storCd"], ["storKorNm"]],
            nameKey: "storKorNm"))
        continue
      }
      identifiedRows += 1
      guard let brand = row.text("storDivCd").flatMap(brand(forStoreType:)) else { continue }
      let id = BranchID(brand: brand, storeID: storeID)
      guard seen.insert(id).inserted else { continue }
      let coordinate = row.point(latitude: "storLat", longitude: "storLon")
      branches.append(
        RawBranch(
          id: id,
          name: strippingBrandPrefix(fullName),
          banner: row.text("storDivCd") == "S" || fullName.hasPrefix("홈플러스 스페셜") ? Self.specialBanner : nil,
          address: row.text("storAddr"),
          phone: row.text("storTphnNo"),
          openingHours: row.text("storSlesTime"),
          coordinate: coordinate,
          closingText: row.text("storDayoffCntt"),
          sourceURL: url,
          pageURL: origin + detailPath(storeID: storeID)))
    }
    guard identifiedRows > 0 else {
      throw SourceError(
        source: Self.name, url: url,
        reason: .unexpectedContent("\(rows.count) rows but none with a storId and a storKorNm"))
    }
    return BranchList(branches: branches, skipped: skipped)
  }

  /// The non-empty array of objects among the top-level members of a JSON object (the key of
  /// `get_list`'s rows is not fixed); when several members hold one, the first by key order.
  static func firstArrayOfObjects(in data: Data) -> [JSONRow]? {
    guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return nil }
    for key in object.keys.sorted() {
      guard let array = object[key] as? [Any], !array.isEmpty, array.allSatisfy({ $0 is [String: Any] }),
        let arrayData = try? JSONSerialization.data(withJSONObject: array),
        let rows = try? JSONDecoder().decode([JSONRow].self, from: arrayData)
      else { continue }
      return rows
    }
    return nil
  }

  // MARK: - Store page

  /// What a store page adds to the list: the `dd`s of `dl.shop_detail_01`, trimmed, `nil` when
  /// blank.
  public struct StoreDetail: Hashable, Sendable {
    /// `dd` 0, e.g. `10:00 ~ 24:00`.
    public var openingHours: String?
    /// `dd` 1, the rule with its dates, e.g. `매월 둘째, 넷째 일요일 (11/8, 11/22)`.
    public var closingText: String?
    /// `dd` 2.
    public var phone: String?
    /// `dd` 4 without the trailing `길 찾기` link text.
    public var address: String?
  }

  /// Reads a store page. Returns `nil` for a page whose body is empty (where the site
  /// redirects for a store that no longer exists).
  ///
  /// Throws `SourceError.unexpectedContent` when the page has content but no
  /// `dl.shop_detail_01` with at least two `dd`s (a redesign or an error page).
  public static func parseDetail(
    _ data: Data, url: String, charset: String? = nil
  ) throws(SourceError) -> StoreDetail? {
    if isBlank(data) { return nil }
    if let cut = AnswerChecks.cutShort(data, after: "shop_detail_01", closing: ["dl"]) {
      throw SourceError(source: Self.name, url: url, reason: .unexpectedContent(cut))
    }
    do {
      let document = try HTMLDocument(data: data, url: url, charset: charset)
      guard let list = document.firstElement(where: { $0.hasName("dl") && $0.hasClass("shop_detail_01") }) else {
        let bodyText = document.firstElement(where: { $0.hasName("body") })?.text ?? document.root?.text ?? ""
        if bodyText.isEmpty { return nil }
        throw SourceError(source: Self.name, url: url, reason: .unexpectedContent("no dl.shop_detail_01"))
      }
      let cells = list.descendants.filter { $0.hasName("dd") }.map(\.text)
      guard cells.count >= 2 else {
        throw SourceError(
          source: Self.name, url: url,
          reason: .unexpectedContent("dl.shop_detail_01 has \(cells.count) dd, expected the closing days in the second")
        )
      }
      func cell(_ index: Int) -> String? {
        cells.indices.contains(index) && !cells[index].isEmpty ? cells[index] : nil
      }
      return StoreDetail(
        openingHours: cell(0), closingText: cell(1), phone: cell(2),
        address: cell(4).flatMap(strippingDirectionsLink))
    } catch let error as SourceError {
      throw error
    } catch {
      throw SourceError(source: Self.name, url: url, reason: .unexpectedContent("\(error)"))
    }
  }

  /// Whether the body, read as UTF-8, is whitespace only. A page starts with markup, so the
  /// first ASCII byte that is not whitespace answers; only a body without one is read as text.
  static func isBlank(_ data: Data) -> Bool {
    for byte in data {
      if byte >= 0x80 { break }
      if !(byte == 0x20 || (0x09...0x0D).contains(byte)) { return false }
    }
    return String(decoding: data, as: UTF8.self).allSatisfy(\.isWhitespace)
  }

  /// The list row completed by its store page: the page's closing rule wins over the list's
  /// next-day-off; the list's address, phone and hours win (the page fills only blanks; a
  /// placeholder phone such as Express's `00-000-0000` counts as blank).
  public static func merging(_ detail: StoreDetail, into branch: RawBranch) -> RawBranch {
    var merged = branch
    merged.closingText = detail.closingText ?? branch.closingText
    merged.address = branch.address ?? detail.address
    merged.phone = branch.phone.flatMap(realPhone) ?? detail.phone.flatMap(realPhone) ?? branch.phone ?? detail.phone
    merged.openingHours = branch.openingHours ?? detail.openingHours
    return merged
  }

  // MARK: - Field clean-up

  /// `경상남도 … 길 찾기` → `경상남도 …`: the address cell ends with the directions button's
  /// text; `nil` when nothing else is left.
  public static func strippingDirectionsLink(_ address: String) -> String? {
    var text = address.trimmingSpaces()
    for suffix in ["길 찾기", "길찾기"] {
      // Only a text whose last scalar is 기, precomposed or as the vowel of its jamo, can end
      // with the suffix; the usual, precomposed spelling is cut by its bytes, and the
      // Unicode-aware `hasSuffix` is left for the others.
      guard let last = text.unicodeScalars.last, last == "\u{AE30}" || last == "\u{1175}" else { break }
      if text.utf8.count >= suffix.utf8.count, text.utf8.suffix(suffix.utf8.count).elementsEqual(suffix.utf8) {
        text = String(decoding: text.utf8.dropLast(suffix.utf8.count), as: UTF8.self).trimmingSpaces()
      } else if text.hasSuffix(suffix) {
        text = String(text.dropLast(suffix.count)).trimmingSpaces()
      }
    }
    return text.isEmpty ? nil : text
  }

  /// `nil` for placeholders such as Express's `00-000-0000` (no digit other than zero), which
  /// are kept as published but never preferred over a real number.
  static func realPhone(_ phone: String) -> String? {
    phone.contains { $0.isASCII && $0.isNumber && $0 != "0" } ? phone : nil
  }

  /// The banner of 홈플러스 스페셜 stores (`storDivCd` `S`), which stay 홈플러스 branches.
  public static let specialBanner = "홈플러스 스페셜"

  /// `홈플러스 익스프레스 망원점` → `망원점`; names without a prefix are returned unchanged.
  /// A prefix counts when whitespace follows it: its characters, then a whitespace character.
  /// Byte for byte unless the name has conjoining jamo (the one way it can spell a prefix's
  /// Hangul differently): the prefix's bytes then a whitespace scalar, which starts a character
  /// of its own, read the same as `hasPrefix` then `isWhitespace` (of a character's first scalar).
  static func strippingBrandPrefix(_ name: String) -> String {
    let jamo = name.containsConjoiningJamo
    for prefix in brandPrefixes {
      let rest: Substring
      if jamo {
        guard name.hasPrefix(prefix) else { continue }
        rest = name.dropFirst(prefix.count)
        guard rest.first?.isWhitespace == true else { continue }
      } else {
        guard name.utf8.starts(with: prefix.utf8) else { continue }
        let end = name.utf8.index(name.utf8.startIndex, offsetBy: prefix.utf8.count)
        guard end < name.endIndex, Trimming.isWhitespace(name.unicodeScalars[end]) else { continue }
        rest = name[end...]
      }
      let stripped = rest.trimmingSpaces()
      if !stripped.isEmpty { return stripped }
    }
    return name
  }

  /// The prefixes ``strippingBrandPrefix(_:)`` drops, longest first.
  private static let brandPrefixes = ["홈플러스 익스프레스", "홈플러스 스페셜", "홈플러스", "익스프레스", "스페셜"]
}

extension BrandSlug {
  /// 홈플러스.
  public static let homeplus: BrandSlug = "homeplus"
  /// 홈플러스 익스프레스.
  public static let homeplusExpress: BrandSlug = "homeplus-express"
}

extension HomeplusSource {
  /// The store list (its rows and their next closing days) and the pages of its first three
  /// stores (at least one must still carry `dl.shop_detail_01` with the closing days).
  public func probe(_ session: SourceSession) async -> [ProbePage] {
    var listed: [RawBranch] = []
    let list = await session.probe(
      .postForm(session.url(Self.storeListPath), fields: Self.storeListFields, headers: Self.storeListHeaders)
    ) { response throws(SourceError) in
      listed = try Self.parseStoreList(response.body, url: response.requestURL, origin: session.baseURL)
      return [
        ProbeCount("rows with storId, storKorNm and a covered storDivCd", found: listed.count),
        ProbeCount("rows with storDayoffCntt", found: listed.count { $0.closingText != nil }),
      ]
    }
    var pages = [list]
    var withDays = 0
    var described: [String] = []
    let sampled = listed.prefix(Self.pagesBeforeStopping)
    for branch in sampled {
      let url = session.url(Self.detailPath(storeID: branch.id.storeID))
      let page = await session.probe(.get(url)) { response throws(SourceError) in
        described.append(ResponseDescription.body(response))
        let detail = try Self.parseDetail(response.body, url: url, charset: response.charset)
        return [
          ProbeCount("dl.shop_detail_01 with a closing-day dd", found: detail?.closingText == nil ? 0 : 1, needed: 0)
        ]
      }
      if page.counts.first?.found == 1 { withDays += 1 }
      // One page without the days is the list's fallback at work, not a change of the source.
      let counts =
        page.reached && page.problem != nil
        ? [ProbeCount("dl.shop_detail_01 with a closing-day dd", found: 0, needed: 0)] : page.counts
      pages.append(
        ProbePage(url: page.url, status: page.status, problem: page.reached ? nil : page.problem, counts: counts))
    }
    if !sampled.isEmpty {
      // What a run does when the first pages carry nothing, said where the probe reports it.
      let stopping =
        withDays == 0 && sampled.count == Self.pagesBeforeStopping && described.count == sampled.count
        ? "the first \(sampled.count) store pages carry no store data (\(Set(described).sorted().joined(separator: "; ")));"
          + " a run asks no other store page and reads the list's next closing days (storDayoffCntt)" : nil
      pages.append(
        ProbePage(
          url: session.url("/store/store_detail"), status: 200, problem: stopping,
          counts: [ProbeCount("of \(sampled.count) store pages, those carrying the closing days", found: withDays)]))
    }
    return pages
  }
}
