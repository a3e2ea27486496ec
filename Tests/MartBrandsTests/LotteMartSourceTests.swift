import Foundation
import MartBrands
import MartCore
import TestSupport
import Testing

@Suite("LotteMartSource")
struct LotteMartSourceTests {
  static let url = "http://company.lottemart.com/shop/shop_search_type.asp?schArea=&schType=01&schWord="

  static func branches() throws -> [RawBranch] {
    try LotteMartSource.parseStoreList(
      try FixturePaths.data("web/company.lottemart.com/shop_search_type-01.body.html"), url: url,
      charset: "utf-8")
  }

  static func branch(_ code: String) throws -> RawBranch {
    try #require(try branches().first { $0.id.storeID == code })
  }

  @Test func listsEveryStoreWithALink() throws {
    let branches = try Self.branches()
    // 14 rows; the announced store without a detail link is skipped.
    #expect(branches.count == 13)
    #expect(branches.allSatisfy { $0.id.brand == .lottemart && $0.sourceURL == Self.url })
    #expect(branches.allSatisfy { $0.id.storeID.count == 7 })
    #expect(!branches.contains { $0.name.contains("동탄") })
    #expect(branches.first?.name == "제주점")
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

  @Test(arguments: [
    ("0100393", "064 798 2500"), ("0100312", "033 260 7700"), ("0100305", "0332402500"),
    ("0100161", "055-240-2500"),
  ])
  func phonesAreKeptAsPublished(code: String, phone: String) throws {
    #expect(try Self.branch(code).phone == phone)
  }

  @Test(arguments: [
    ("0100161", "매월 둘째, 넷째주 일요일 ( 11/8, 11/22 )"),
    ("0100225", "12/13,/27"),
    ("0100127", "11월 의무휴업안내(11/8(일요일),11/22(일요일)"),
    ("0100271", "11월 22일"),
    ("0100284", "※11/11(수요일) 정기휴무!! 11월22일 일요일 정상영업, 11월25일 정기휴무"),
    ("0100146", "매월 둘째, 넷째주 일요일"),
    ("0100248", "매월 둘째, 넷째주 월요일 ( 11/9, 11/23 )"),
    ("0100112", "11/22(일)"),
  ])
  func closingTextIsVerbatim(code: String, text: String) throws {
    #expect(try Self.branch(code).closingText == text)
  }

  @Test func addressesKeepBuildingsAndParentheses() throws {
    #expect(try Self.branch("0100225").address == "경기도 성남시 분당구 판교역로146번길 20, 현대백화점 지하2층 (백현동)")
    #expect(try Self.branch("0100284").address == "충북 청주시 흥덕구 비하로12번길 52 (비하동 332-1)")
    #expect(try Self.branch("0100225").name == "판교점")
  }

  @Test(
    arguments: [
      ("/shop/shop_view.asp?brnchCd=0100161", "0100161"),
      ("  /shop/shop_view.asp?schType=01&BRNCHCD=0100225#map ", "0100225"),
      ("/shop/shop_view.asp?brnchCd=", nil),
      ("/shop/shop_view.asp", nil),
    ] as [(String, String?)])
  func readsBranchCodesFromLinks(href: String, code: String?) {
    #expect(LotteMartSource.branchCode(fromHref: href) == code)
  }

  @Test(arguments: [
    "<html><body><p>점검 중입니다</p></body></html>",
    "<html><body><ul class='shop-list'></ul></body></html>",
    "<ul class='shop-list'><li><strong class='name'>오픈예정점</strong><span class='day-off'>11/22</span></li></ul>",
    "",
  ])
  func pageWithoutStoreRowsThrows(html: String) throws {
    let error = #expect(throws: SourceError.self) {
      try LotteMartSource.parseStoreList(Data(html.utf8), url: Self.url)
    }
    guard case .unexpectedContent = error?.reason else {
      Issue.record("expected unexpectedContent, got \(String(describing: error))")
      return
    }
    #expect(error?.url == Self.url)
  }
}
