import Foundation
import MartBrands
import MartCore
import TestSupport
import Testing

/// A store format a source names inside a brand (`홈플러스 스페셜`, `스타필드 마켓`) is the branch's
/// banner; the branch stays under its brand and its name loses the format.
@Suite("Banners")
struct BannerTests {
  @Test func homeplusSpecialRowsCarryTheirBanner() throws {
    let branches = try HomeplusSource.parseStoreList(
      try FixturePaths.data("web/my.homeplus.co.kr/get_list.body.json"), url: "https://my.homeplus.co.kr/store/get_list"
    )
    let special = branches.filter { $0.banner != nil }
    #expect(special.map(\.id.description).sorted() == ["homeplus-571", "homeplus-573"])
    #expect(special.allSatisfy { $0.banner == "홈플러스 스페셜" && $0.id.brand == .homeplus })
    #expect(special.map(\.name).sorted() == ["광주하남점", "상인점"])
  }

  @Test func emartFormatsAreBanners() {
    let table: [(String, String?, String)] = [
      ("스타필드 마켓 월계점", "스타필드 마켓", "월계점"), ("이마트 푸드마켓 고덕점", "이마트 푸드마켓", "고덕점"),
      ("이마트 창원점", nil, "창원점"), ("스타필드 마켓", nil, "스타필드 마켓"),
    ]
    forEachCase(table, named: \.0) { example, comment in
      #expect(EmartSource.banner(of: example.0) == example.1, comment)
      #expect(
        EmartSource.classify(storeType: nil, name: example.0)
          == (example.1 == nil && example.0.hasPrefix("스타필드") ? nil : .emart), comment)
    }
  }
}
