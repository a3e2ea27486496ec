import Foundation
import MartBrands
import MartCore
import MartFetch
import MartReplay
import TestSupport
import Testing

/// The store search in its older form (one `div.address` per row, `brnchCd` links), kept under
/// `fixtures/web-older/`: the parser still reads it, since sites flip back.
@Suite("LotteMartSource older rows")
struct LotteMartSourceTests {
  static let url = "http://company.lottemart.com/shop/shop_search_type.asp?schArea=&schType=01&schWord="

  static func branches() throws -> [RawBranch] {
    try LotteMartSource.parseStoreList(
      try FixturePaths.data("web-older/company.lottemart.com/shop_search_type-01.body.html"), url: url,
      charset: "utf-8")
  }

  static func branch(_ code: String) throws -> RawBranch {
    try #require(try branches().first { $0.id.storeID == code })
  }

  @Test func dayOffTextsKeepTheirQuirks() throws {
    // The misspelled ordinal 쨰 (for 째) and the M.D date form, as store staff type them.
    #expect(try Self.branch("0100170").closingText == "매월 둘쨰, 넷쨰주 일요일 (11/8, 11/22)")
    #expect(try Self.branch("0100215").closingText == "11.22(일) 정기휴무")
  }

  @Test func listsEveryStoreOnce() throws {
    let branches = try Self.branches()
    // 22 rows: 잠실점 and 원주점 are listed twice (under two regions) and the announced
    // (가칭)동탄2점 (오픈예정) is skipped.
    #expect(branches.count == 19)
    #expect(Set(branches.map(\.id)).count == 19 && Set(branches.map(\.name)).count == 19)
    #expect(branches.allSatisfy { $0.id.brand == .lottemart })
    // Every record was read from the search page; a row with a store link keeps that page
    // for people to open, a row without one has none.
    for branch in branches {
      #expect(branch.sourceURL == Self.url, "\(branch.name)")
      let expected =
        branch.id.storeID == branch.name
        ? nil : "http://company.lottemart.com/shop/shop_view.asp?brnchCd=\(branch.id.storeID)"
      #expect(branch.pageURL == expected, "\(branch.name)")
    }
    #expect(!branches.contains { $0.name.contains("동탄") })
    #expect(branches.first?.name == "제주점")
    // Rows with a store link keep the brnchCd as id; the others use the published name.
    #expect(branches.filter { $0.id.storeID.count == 7 && $0.id.storeID.allSatisfy(\.isNumber) }.count == 17)
    #expect(branches.filter { $0.id.storeID == $0.name }.map(\.name) == ["원주점", "구미점"])
  }

  @Test func rowWithoutAStoreLinkIsIdentifiedByItsName() throws {
    let branch = try Self.branch("원주점")
    #expect(branch.id.description == "lottemart-원주점")
    #expect(branch.phone == "033 769 2500")
    #expect(branch.closingText == "11/22(일)")
    #expect(branch.address == "강원도 원주시 남원로 544 (단구동)")
    #expect(try Self.branch("구미점").phone == "0544502500")
    // 2026-12-13 and 12-27 are the 2nd and 4th Sundays of December.
    #expect(try Self.branch("구미점").closingText == "12/13(일), 12/27(일)")
  }

  @Test func storesThatStoppedTradingAreKeptWithTheirState() throws {
    // span.state 임시휴업 (마산점, a refit notice as its day-off) and 영업종료 (도봉점): kept,
    // hours blank, the state cell passed on as published.
    let masan = try Self.branch("0100130")
    #expect(masan.statusText == "임시휴업")
    #expect(masan.openingHours == nil)
    #expect(masan.closingText == "매월 둘째, 넷째주 일요일 (리뉴얼 공사로 12/31까지 휴점)")
    let dobong = try Self.branch("0100118")
    #expect(dobong.statusText == "영업종료")
    #expect(dobong.openingHours == nil && dobong.closingText == nil)
    #expect(masan.address != nil && dobong.address != nil)
    // Every other row says 영업중.
    let all = try Self.branches()
    #expect(all.filter { $0.statusText == "영업중" }.count == all.count - 2)
  }

  @Test func readsTheJejuRow() throws {
    let branch = try Self.branch("0100393")
    #expect(branch.id == BranchID(brand: .lottemart, storeID: "0100393"))
    #expect(branch.name == "제주점")
    #expect(branch.address == "제주특별자치도 제주시 연북로 1 (노형동)")
    #expect(branch.phone == "064 798 2500")
    #expect(branch.openingHours == "10:00~23:00")
    // Fourth Saturday of November 2026, after the day-off icon.
    #expect(branch.closingText == "11/28(토)")
    #expect(branch.coordinate == nil && branch.lotAddress == nil)
  }

  @Test func phonesAreKeptAsPublished() {
    let table = [
      ("0100393", "064 798 2500"), ("0100312", "033 260 7700"), ("0100305", "0332402500"),
      ("0100161", "055-240-2500"),
    ]
    forEachCase(table, named: \.0) { example, name in
      let (code, phone) = example
      let branch = try Self.branch(code)
      #expect(branch.phone == phone, name)
    }
  }

  @Test func closingTextIsVerbatim() {
    let table = [
      ("0100161", "매월 둘째, 넷째주 일요일 ( 11/8, 11/22 )"),
      ("0100225", "12/13,/27"),
      ("0100127", "11월 의무휴업안내(11/8(일요일),11/22(일요일)"),
      ("0100271", "11월 22일"),
      ("0100284", "※11/11(수요일) 정기휴무!! 11월22일 일요일 정상영업, 11월25일 정기휴무"),
      ("0100146", "매월 둘째, 넷째주 일요일"),
      ("0100248", "매월 둘째, 넷째주 월요일 ( 11/9, 11/23 )"),
      ("0100112", "11/22(일)"),
    ]
    forEachCase(table, named: \.0) { example, name in
      let (code, text) = example
      let branch = try Self.branch(code)
      #expect(branch.closingText == text, name)
    }
  }

  @Test func addressesKeepBuildingsAndParentheses() throws {
    #expect(try Self.branch("0100225").address == "경기도 성남시 분당구 판교역로146번길 20, 현대백화점 지하2층 (백현동)")
    #expect(try Self.branch("0100284").address == "충북 청주시 흥덕구 비하로12번길 52 (비하동 332-1)")
    #expect(try Self.branch("0100225").name == "판교점")
  }

  @Test func readsBranchCodesFromLinks() {
    let table: [(String, String?)] = [
      ("/shop/shop_view.asp?brnchCd=0100161", "0100161"),
      ("  /shop/shop_view.asp?schType=01&BRNCHCD=0100225#map ", "0100225"),
      ("/shop/shop_view.asp?brnchCd=", nil),
      ("/shop/shop_view.asp", nil),
    ]
    for (href, code) in table {
      #expect(LotteMartSource.branchCode(fromHref: href) == code, "\(href)")
    }
  }

  @Test func pageWithoutStoreRowsThrows() {
    let table = [
      "<html><body><p>점검 중입니다</p></body></html>",
      "<html><body><ul class='shop-list'></ul></body></html>",
      "<ul class='shop-list'><li><strong class='name'>동탄2점</strong><span class='state'>오픈예정</span><span class='day-off'></span></li></ul>",
      "<ul class='shop-list'><li><span class='time'>10:00~23:00</span><span class='day-off'>11/22</span></li></ul>",
      "",
    ]
    for html in table {
      let name = Comment(rawValue: html.debugDescription)
      let error = #expect(throws: SourceError.self, name) {
        try LotteMartSource.parseStoreList(Data(html.utf8), url: Self.url)
      }
      guard case .unexpectedContent = error?.reason else {
        Issue.record("\(html.debugDescription): expected unexpectedContent, got \(String(describing: error))")
        continue
      }
      #expect(error?.url == Self.url, name)
    }
  }

  // MARK: The page as the shared reference grounds it

  /// The site's minimal page, byte for byte: one `ul.shop-list > li` with a name but no store link.
  static let minimalPage = "pages/lottemart-shop-search-minimal.html"

  @Test func parsesTheMinimalGroundedPage() throws {
    let branches = try LotteMartSource.parseStoreList(try FixturePaths.data(Self.minimalPage), url: Self.url)
    #expect(branches.count == 1)
    let jeju = try #require(branches.first)
    #expect(jeju.id.description == "lottemart-제주점")
    #expect(jeju.name == "제주점")
    #expect(jeju.phone == "064 798 2500")
    #expect(jeju.openingHours == "10:00~23:00")
    #expect(jeju.closingText == "07/23(토)")
    #expect(jeju.address == "제주특별자치도 제주시 연북로 1 (노형동)")
  }

  @Test func collectsFromAServerServingTheMinimalGroundedPage() async throws {
    let page = try FixturePaths.data(Self.minimalPage)
    let server = try LocalHTTPServer { request in
      guard request.method == "POST", request.path == "/shop/shop_search_type.asp" else {
        return .text("not found", status: 404)
      }
      return ServerResponse(status: 200, headers: [HTTPHeader("Content-Type", "text/html")], body: page)
    }
    let session = SourceSession(
      baseURL: "http://127.0.0.1:\(server.port)", fetcher: CurlHTTPClient(),
      asOf: CalendarDate(year: 2022, month: 7, day: 20)!, brands: [.lottemart], sourceName: LotteMartSource.name)
    let branches = try await LotteMartSource().collect(session)
    #expect(branches.map(\.id.description) == ["lottemart-제주점"])
    #expect(branches.first?.address == "제주특별자치도 제주시 연북로 1 (노형동)")
  }

  @Test func rowsNeedNoListMarkupAndNoNameClass() throws {
    // The screenshot's row text ("LOTTE Mart | 석사점 | 영업중 | …") in markup that has only the
    // grounded classes: the name is the text ending in 점 outside the fields.
    let html = """
      <div><div><img alt="LOTTE Mart"><b>석사점</b><em>영업중</em>
        <span class="time">10:00~23:00</span><span class="call">033 260 7700</span>
        <span class="day-off">07/24(일)</span><div class="address">강원도 춘천시 세실로 108 (석사동)</div></div>
      <div><img alt="LOTTE Mart"><b>춘천점</b><em>영업중</em>
        <span class="time">10:00~23:00</span><span class="call">0332402500</span>
        <span class="day-off">07/24(일)</span><div class="address">강원도 춘천시 방송길 84 (온의동)</div></div></div>
      """
    let branches = try LotteMartSource.parseStoreList(Data(html.utf8), url: Self.url)
    #expect(branches.map(\.id.description) == ["lottemart-석사점", "lottemart-춘천점"])
    #expect(branches.map(\.phone) == ["033 260 7700", "0332402500"])
    #expect(branches.map(\.closingText) == ["07/24(일)", "07/24(일)"])
  }
}
