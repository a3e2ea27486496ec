import Foundation
import MartBrands
import MartCore
import TestSupport
import Testing

/// E-mart rows named as the 2026 feeds name them, placed by name when the type code is missing
/// or unseen (no 2026 client reads `STORE_TP`).
@Suite("EmartSource 2026 names")
struct EmartNamesTests {
  static let listURL = "https://store.emart.com/branch/searchList.do"

  @Test(
    arguments: [
      ("스타필드마켓 일산점", BrandSlug.emart, "스타필드 마켓", "일산점"),
      ("스타필드 마켓 월계점", .emart, "스타필드 마켓", "월계점"),
      ("스타필드마켓 군산점", .emart, "스타필드 마켓", "군산점"),
      ("이마트 푸드마켓 수성점", .emart, "이마트 푸드마켓", "수성점"),
      ("이마트푸드마켓 고덕점", .emart, "이마트 푸드마켓", "고덕점"),
      ("노브랜드예천호명점", .nobrand, nil, "예천호명점"),
      ("노브렌드 고양화정점", .nobrand, nil, "고양화정점"),
      ("트레이더스 홀세일 클럽 마곡점", .traders, nil, "마곡점"),
      ("이마트 창동점", .emart, nil, "창동점"),
      ("에브리데이 가락동점", .everyday, nil, "가락동점"),
    ] as [(String, BrandSlug, String?, String)])
  func rowsWithoutATypeCodeArePlacedByName(_ example: (String, BrandSlug, String?, String)) throws {
    let (published, brand, banner, name) = example
    for storeType in [nil, "", "Z"] as [String?] {
      #expect(
        EmartSource.classify(storeType: storeType, name: published) == brand, "\(published) \(storeType ?? "nil")")
    }
    var row = #"{"ID": "9999", "NAME": "\#(published)", "TEL": "02-000-0000", "ADDRESS1": "서울특별시 중구 세종대로 110"}"#
    row = #"{"dataList": [\#(row)]}"#
    let branch = try #require(try EmartSource.parseStoreList(Data(row.utf8), url: Self.listURL).first)
    #expect(branch.id == BranchID(brand: brand, storeID: "9999"))
    #expect(branch.name == name)
    #expect(branch.banner == banner)
  }

  @Test func storesOfOtherKindsStayOut() {
    for name in ["일렉트로마트 스타필드 고양점", "몰리스 월계점", "토이킹덤 하남점", "SSG 푸드마켓 도곡점"] {
      #expect(EmartSource.classify(storeType: nil, name: name) == nil, "\(name)")
      #expect(EmartSource.classify(storeType: "E", name: name) == nil, "\(name)")
    }
    // A banner alone is no branch name.
    #expect(EmartSource.classify(storeType: nil, name: "스타필드마켓") == nil)
  }

  @Test func theRecordedListsSpellNamesAsIn2026() throws {
    // 창동점 without a type code, 춘천점 with the unseen code `H`; 의정부민락점 and 대구범어점
    // written against their banner, the first without a type code.
    func branches(_ type: String) throws -> [RawBranch] {
      try EmartSource.parseStoreList(
        try FixturePaths.data("web/store.emart.com/searchList-\(type).body.json"), url: Self.listURL)
    }
    let emart = try branches("EM")
    #expect(emart.first { $0.id.storeID == "1000" }?.name == "창동점")
    #expect(emart.first { $0.id.storeID == "1073" }?.name == "춘천점")
    #expect(emart.allSatisfy { $0.id.brand == .emart && $0.banner == nil })
    let nobrand = try branches("NO")
    #expect(nobrand.first { $0.id.storeID == "1604" }?.name == "의정부민락점")
    #expect(nobrand.first { $0.id.storeID == "4513" }?.name == "대구범어점")
    #expect(nobrand.allSatisfy { $0.id.brand == .nobrand })
    #expect(try branches("TR").contains { $0.name == "안성점" && $0.id.brand == .traders })
  }
}
