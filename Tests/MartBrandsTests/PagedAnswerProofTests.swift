import Foundation
@testable import MartBrands
import MartCore
import MartFetch
import MartReplay
import Synchronization
import TestSupport
import Testing

/// Paged and listed answers checked against their request, through a real libcurl client from
/// a loopback server: a repeated Costco page, the Lotte Mart search's answer in the all-format
/// list's place, E-mart area and month lists of the wrong kind, pages cut mid-row.
@Suite(.serialized)
struct PagedAnswerProofTests {
  /// What `source` reads of `brands` from `server`, and its warnings (as ``AnswerProofTests``
  /// reads it).
  static func collect(
    _ source: any BrandSource, brands: Set<BrandSlug>, from server: LocalHTTPServer
  ) async -> (branches: Result<[RawBranch], SourceError>, warnings: [String]) {
    await AnswerProofTests.collect(source, brands: brands, from: server)
  }

  static func json(_ response: ServerResponse) -> ServerResponse {
    ServerResponse(status: 200, headers: [HTTPHeader("Content-Type", "application/json;charset=UTF-8")], body: response.body)
  }

  // MARK: Costco

  /// The recorded warehouses on two pages of the OCC API (10 and the rest), each naming its
  /// `currentPage`.
  static func costcoPages() throws -> [Data] {
    let recorded = try FixturePaths.data("web/www.costco.co.kr/occ-stores-0.body.json")
    let object = try #require(try JSONSerialization.jsonObject(with: recorded) as? [String: Any])
    let stores = try #require(object["stores"] as? [Any])
    let parts = [Array(stores.prefix(10)), Array(stores.dropFirst(10))]
    return try parts.enumerated().map { page, part in
      var body = object
      body["stores"] = part
      body["pagination"] = ["currentPage": page, "pageSize": 50, "totalPages": 2, "totalResults": stores.count]
      return try JSONSerialization.data(withJSONObject: body, options: [.sortedKeys])
    }
  }

  /// A server for the two pages that answers page 1 with page 0 `repeats` times.
  static func costcoServer(repeatingPageZero repeats: Int) throws -> LocalHTTPServer {
    let pages = try costcoPages()
    let left = Mutex(repeats)
    return try LocalHTTPServer { request in
      guard request.path == "/rest/v2/korea/stores" else { return .text("not found\n", status: 404) }
      var page = request.query.contains("currentPage=1") ? 1 : 0
      if page == 1, left.withLock({ count in
        defer { count -= 1 }
        return count > 0
      }) {
        page = 0
      }
      return Self.json(ServerResponse(body: pages[page]))
    }
  }

  @Test func costcoPageZeroAnsweredForPageOneIsAskedAgainAndLosesNoWarehouse() async throws {
    let clean = try Self.costcoServer(repeatingPageZero: 0)
    let cleanRead = await Self.collect(CostcoSource(), brands: [.costco], from: clean)
    clean.stop()
    let cleanBranches = try cleanRead.branches.get()
    // Every warehouse the one recorded page gives, read from two pages.
    let onePage = try CostcoSource.parseStores(
      try FixturePaths.data("web/www.costco.co.kr/occ-stores-0.body.json"), url: "https://www.costco.co.kr")
    #expect(cleanBranches.map(\.id) == onePage.branches.map(\.id))
    let repeated = try Self.costcoServer(repeatingPageZero: 1)
    let repeatedRead = await Self.collect(CostcoSource(), brands: [.costco], from: repeated)
    repeated.stop()
    #expect(try repeatedRead.branches.get() == cleanBranches)
    #expect(repeatedRead.warnings.contains { $0.contains("page 0 of the store list, not page 1") }, "\(repeatedRead.warnings)")
  }

  @Test func costcoPageZeroAlwaysAnsweredForPageOneFailsTheSource() async throws {
    let server = try Self.costcoServer(repeatingPageZero: 1000)
    defer { server.stop() }
    let read = await Self.collect(CostcoSource(), brands: [.costco], from: server)
    guard case .failure(let error) = read.branches else {
      Issue.record("a repeated page was believed: \(read.branches)")
      return
    }
    #expect(error.description.contains("not page 1"), "\(error)")
  }

  // MARK: Lotte Mart

  /// The Lotte Mart recordings, the all-format list answered by the store search's answer
  /// when `searchForAllFormats`.
  static func lotteMartServer(searchForAllFormats: Bool) throws -> LocalHTTPServer {
    let search = try FixturePaths.data("web/company.lottemart.com/shop_search_type-01.body.html")
    let all = try FixturePaths.data("web/company.lottemart.com/shop_search-all.body.html")
    return try LocalHTTPServer { request in
      let html = [HTTPHeader("Content-Type", "text/html; charset=utf-8")]
      switch request.path {
      case "/shop/shop_search_type.asp": return ServerResponse(headers: html, body: search)
      case "/shop/shop_search.asp": return ServerResponse(headers: html, body: searchForAllFormats ? search : all)
      default: return .text("not found\n", status: 404)
      }
    }
  }

  @Test func lotteMartSearchAnswerForTheAllFormatListKeepsTheBrandStale() async throws {
    let clean = try Self.lotteMartServer(searchForAllFormats: false)
    let cleanRead = await Self.collect(LotteMartSource(), brands: [.lottemart], from: clean)
    clean.stop()
    let names = try cleanRead.branches.get().map(\.name)
    #expect(names.contains("잠실점") && names.contains("서울역점"), "\(names)")
    let wrong = try Self.lotteMartServer(searchForAllFormats: true)
    defer { wrong.stop() }
    let read = await Self.collect(LotteMartSource(), brands: [.lottemart], from: wrong)
    guard case .failure(let error) = read.branches else {
      Issue.record("the search's answer stood in for the all-format list: \(read.branches)")
      return
    }
    #expect(error.isMismatch && error.description.contains("store search's answer"), "\(error)")
  }

  @Test func lotteMartNamesMayEndInYeokOrSeu() throws {
    let page = """
      <html><body><table><tbody></tbody><tbody>
      <tr><td><img alt="롯데마트"></td><td>서울역</td><td><span class="time">10:00~22:00</span>
      <span class="call">02-390-2500</span><span class="day-off">11/22(일)</span></td>
      <td><div class="address">서울특별시 중구 청파로</div><div class="address">426 (봉래동2가)</div></td></tr>
      </tbody></table></body></html>
      """
    let branches = try LotteMartSource.parseStoreList(Data(page.utf8), url: "http://company.lottemart.com/shop/shop_search.asp")
    #expect(branches.map(\.name) == ["서울역"])
  }

  // MARK: Cut pages

  @Test func anHTMLPageCutMidRowFailsItsRequest() throws {
    let all = try FixturePaths.data("web/company.lottemart.com/shop_search-all.body.html")
    let text = String(decoding: all, as: UTF8.self)
    // Cut inside the last row's address: the row has its day-off but no end.
    let lastAddress = try #require(text.range(of: "class=\"address\"", options: .backwards))
    let cut = Data(text[..<lastAddress.upperBound].utf8) + Data(">서울특별시 ".utf8)
    let url = "http://company.lottemart.com/shop/shop_search.asp"
    #expect(throws: SourceError.self) { try LotteMartSource.parseStoreList(cut, url: url) }
    #expect(try !LotteMartSource.parseStoreList(all, url: url).isEmpty)

    let homeplus = try FixturePaths.data("web/my.homeplus.co.kr/store_detail-595.body.html")
    let homeplusText = String(decoding: homeplus, as: UTF8.self)
    let closing = try #require(homeplusText.range(of: "</dl>"))
    let cutPage = Data(homeplusText[..<closing.lowerBound].utf8)
    let error = #expect(throws: SourceError.self) {
      try HomeplusSource.parseDetail(cutPage, url: "https://my.homeplus.co.kr/store/store_detail?storId=595")
    }
    #expect(error?.description.contains("cut short") == true)
    #expect(try HomeplusSource.parseDetail(homeplus, url: "https://my.homeplus.co.kr/store/store_detail?storId=595") != nil)
  }

  @Test func aCutStorePageServedWithItsOwnLengthCostsOnlyThatStoresPage() async throws {
    let index = RecordingIndex(try ReplayArchive.load(from: FixturePaths.web).restricted(toHosts: ["my.homeplus.co.kr"]))
    let server = try LocalHTTPServer { request in
      guard let exchange = index.match(request, host: "my.homeplus.co.kr") else { return .text("none\n", status: 404) }
      var body = exchange.body
      if request.query == "storId=595" {
        // Cut in the closing text, with a Content-Length that matches what is sent.
        let text = String(decoding: body, as: UTF8.self)
        guard let cut = text.range(of: "넷째") else { return .text("the recording changed\n", status: 500) }
        body = Data(text[..<cut.lowerBound].utf8)
      }
      return ServerResponse(status: exchange.status, headers: exchange.headers, body: body)
    }
    defer { server.stop() }
    let read = await Self.collect(HomeplusSource(), brands: [.homeplus], from: server)
    let branch = try #require(try read.branches.get().first { $0.id.description == "homeplus-595" })
    // The list's next closing day, not a cut rule.
    #expect(branch.closingText == "11/22(일)")
    #expect(branch.sourceURL == "https://my.homeplus.co.kr/store/get_list")
    #expect(read.warnings.contains { $0.hasPrefix("homeplus-595:") && $0.contains("cut short") }, "\(read.warnings)")
  }
}
