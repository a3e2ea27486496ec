import Foundation
@testable import MartBrands
import MartCore
import MartFetch
import TestSupport
import Testing

@Suite("EmartSource")
struct EmartSourceTests {
  static let searchURL = "https://store.emart.com/branch/searchList.do"

  static func storeList(_ searchType: String) throws -> [RawBranch] {
    try EmartSource.parseStoreList(
      try FixturePaths.data("web/store.emart.com/searchList-\(searchType).body.json"), url: searchURL)
  }

  /// `month`'s closing dates, read from the recorded answers of every area together.
  static func holidays(_ month: String) throws -> [String: [String]] {
    try EmartSource.parseHolidayList(
      try EmartHolidayFixtures.allAreasBody(month: month), url: "https://store.emart.com/branch/holidayList.do")
  }

  @Test(arguments: [("EM", BrandSlug.emart, 16), ("TR", .traders, 15), ("NO", .nobrand, 15)])
  func storeListCountsPerBrand(searchType: String, brand: BrandSlug, count: Int) throws {
    let branches = try Self.storeList(searchType)
    #expect(branches.count == count)
    #expect(branches.allSatisfy { $0.id.brand == brand })
    #expect(
      branches.allSatisfy {
        $0.closingText == nil && $0.sourceURL == "https://store.emart.com/branch/searchList.do"
          && $0.pageURL == "https://store.emart.com/branch/view.do?id=\($0.id.storeID)"
      })
  }

  @Test func storeTypesOutsideTheBrandsAreSkipped() throws {
    // 1700 "SSG 도곡점" (STORE_TP M) is in the EM feed but is none of our brands.
    let ids = try Self.storeList("EM").map(\.id.storeID)
    #expect(!ids.contains("1700"))
    #expect(ids.contains("1000") && ids.contains("1073"))  // STORE_TP A counts as 이마트.
  }

  @Test func readsAnEmartRecord() throws {
    let branch = try #require(try Self.storeList("EM").first { $0.id.storeID == "1059" })
    #expect(branch.id == BranchID(brand: .emart, storeID: "1059"))
    #expect(branch.name == "창원점")
    #expect(branch.address == "경남 창원시 의창구 원이대로 320")
    #expect(branch.lotAddress == "경상남도 창원시 의창구 용호동 7-1")
    #expect(branch.phone == "055-211-1234")
    #expect(branch.openingHours == "10:00 ~ 23:00")
    // MAP_X is the latitude, MAP_Y the longitude.
    #expect(branch.coordinate?.latitude == 35.235298 && branch.coordinate?.longitude == 128.681017)
  }

  @Test func readsAddressWithBuildingAndFloor() throws {
    let branch = try #require(try Self.storeList("EM").first { $0.id.storeID == "1008" })
    #expect(branch.name == "양재점")
    #expect(branch.address == "서울특별시 서초구 매헌로 16, 하이브랜드 B1층")
    #expect(branch.coordinate?.latitude == 37.463694 && branch.coordinate?.longitude == 127.042882)
  }

  @Test(arguments: [
    ("TR", "1413", "고양점"), ("TR", "1419", "명지점"), ("TR", "1425", "안성점"),
    ("NO", "4123", "남양주 다산점"), ("NO", "4507", "판교알파돔점"),
    ("TR", "2023", "마곡점"), ("NO", "4042", "고양화정점"),
  ])
  func stripsBrandPrefixes(searchType: String, storeID: String, name: String) throws {
    let branch = try #require(try Self.storeList(searchType).first { $0.id.storeID == storeID })
    #expect(branch.name == name)
  }

  @Test func fallsBackToTheLotAddress() throws {
    let branch = try #require(try Self.storeList("NO").first { $0.id.storeID == "4530" })
    #expect(branch.address == "대전광역시 서구 둔산동 1029")
    #expect(branch.lotAddress == "대전광역시 서구 둔산동 1029")
    #expect(branch.phone == "042-489-4530")
  }

  @Test func noBrandMasterRowsHaveNoPhone() throws {
    let withoutPhone = try Self.storeList("NO").filter { $0.phone == nil }.map(\.id.storeID)
    #expect(
      withoutPhone == ["1604", "4123", "4507", "1635", "4042", "4055", "4068", "4513", "4521", "4544", "4552", "4567"])
  }

  @Test func holidayListKeepsOnlyFullDates() throws {
    let november = try Self.holidays("2026-11")
    // Second and fourth Sunday of November 2026; the third slot is the truncated "202611".
    #expect(november["1059"] == ["20261108", "20261122"])
    // Daegu closes on the second and fourth Monday, Seocho-gu on Wednesdays, Jeju on the second
    // Friday and the fourth Saturday.
    #expect(november["1032"] == ["20261109", "20261123"])
    #expect(november["1008"] == ["20261111", "20261125"])
    #expect(november["1091"] == ["20261113", "20261128"])
    // All three slots truncated: a store row with no closing day at all.
    #expect(november["1099"] == [])
    let january = try Self.holidays("2027-01")
    #expect(january["1059"] == ["20270110", "20270124"])
  }

  @Test func aPerAreaAnswerHoldsOnlyThatAreasStores() throws {
    // 경남 (J): 창원점, 트레이더스 김해점 and 에브리데이 창원반송점.
    let changwonArea = try EmartSource.parseHolidayList(
      try EmartHolidayFixtures.body(month: "2026-11", area: "J"), url: "https://store.emart.com/branch/holidayList.do")
    #expect(
      changwonArea == [
        "1059": ["20261108", "20261122"], "1406": ["20261108", "20261122"], "4777": ["20261108", "20261122"],
      ])
  }

  @Test func noBrandPhoneComesFromTheDetailPage() throws {
    let url = "https://store.emart.com/branch/view.do?id=1604"
    let phone = try EmartSource.parseDetailPhone(
      try FixturePaths.data("web/store.emart.com/view-1604.body.html"), url: url, charset: "utf-8")
    #expect(phone == "031-837-1604")
  }

  @Test func detailPageWithoutAPhoneLineGivesNil() throws {
    let phone = try EmartSource.parseDetailPhone(
      try FixturePaths.data("web/store.emart.com/view-4530.body.html"),
      url: "https://store.emart.com/branch/view.do?id=4530")
    #expect(phone == nil)
  }

  @Test(arguments: ["{}", #"{"dataList":[]}"#, #"{"dataList":[{"STORE_TP":"E"}]}"#, "[]", "<html></html>"])
  func brokenStoreListThrows(body: String) throws {
    let error = #expect(throws: SourceError.self) {
      try EmartSource.parseStoreList(Data(body.utf8), url: Self.searchURL)
    }
    guard case .unexpectedContent = error?.reason else {
      Issue.record("expected unexpectedContent, got \(String(describing: error))")
      return
    }
    #expect(error?.url == Self.searchURL)
    #expect(error?.description.contains(Self.searchURL) == true)
  }

  @Test(arguments: ["{}", #"{"dateList":[]}"#, #"{"dataList":[{"ID":"1059"}]}"#])
  func brokenHolidayListThrows(body: String) throws {
    let url = "https://store.emart.com/branch/holidayList.do?year=2026&month=11"
    let error = #expect(throws: SourceError.self) { try EmartSource.parseHolidayList(Data(body.utf8), url: url) }
    #expect(error?.url == url)
  }

  @Test func redesignedDetailPageThrows() throws {
    let url = "https://store.emart.com/branch/view.do?id=1604"
    let error = #expect(throws: SourceError.self) {
      try EmartSource.parseDetailPhone(Data("<html><body><div class='store'>x</div></body></html>".utf8), url: url)
    }
    #expect(error?.url == url)
  }

  // MARK: 에브리데이

  @Test func everydayStoresComeFromTheHolidayFeedByName() throws {
    let branches = try EmartSource.parseHolidayListStores(
      try EmartHolidayFixtures.allAreasBody(month: "2026-11"), url: "https://store.emart.com/branch/holidayList.do")
    let everyday = branches.filter { $0.id.brand == .everyday }
    #expect(everyday.count == 17)
    #expect(everyday.allSatisfy { $0.id.storeID.count == 4 && $0.id.storeID.hasPrefix("4") })
    let garak = try #require(everyday.first { $0.id.storeID == "4733" })
    #expect(garak.name == "가락동점")
    #expect(garak.phone == "02-403-4733")
    // The "이마트 에브리데이 " banner is everyday too, not 이마트.
    #expect(everyday.first { $0.id.storeID == "4726" }?.name == "부평점")
    // Other kinds of store in the same feed yield nothing.
    let ids = Set(branches.map(\.id.storeID))
    #expect(ids.isDisjoint(with: ["7721", "7301", "3018", "7810", "7904", "1700"]))
  }

  @Test(
    arguments: [
      ("에브리데이 가락동점", nil, BrandSlug.everyday),
      ("이마트 에브리데이 부평점", nil, .everyday),
      ("이마트 창원점", nil, .emart),
      ("스타필드 마켓 월계점", nil, .emart),
      ("이마트 푸드마켓 고덕점", nil, .emart),
      ("트레이더스 홀세일 클럽 마곡점", nil, .traders),
      ("노브랜드 판교알파돔점", nil, .nobrand),
      ("노브렌드 구리인창점", nil, .nobrand),
      ("창원점", "E", .emart),
      ("고양점", "T", .traders),
    ] as [(String, String?, BrandSlug)])
  func classifiesByStoreTypeThenName(name: String, storeType: String?, brand: BrandSlug) {
    #expect(EmartSource.classify(storeType: storeType, name: name) == brand)
  }

  @Test(
    arguments: [
      ("SSG 도곡점", "M"), ("Boots 대치역점", nil), ("일렉트로마트 명지점", nil), ("몰리스 월계점", nil),
      ("토이킹덤 하남점", nil), ("베이비서클 고양점", nil), ("창원점", nil), ("스타필드 하남", nil),
      // The marker spelled in conjoining jamo (as a decomposing system would send it).
      ("이마트 \u{1107}\u{116E}\u{110E}\u{1173} 명동점", nil), ("\u{1107}\u{116E}\u{110E}\u{1173}", nil),
    ] as [(String, String?)])
  func otherStoresAreNoBrandOfOurs(name: String, storeType: String?) {
    #expect(EmartSource.classify(storeType: storeType, name: name) == nil)
  }

  @Test(
    arguments: [
      // A marker anywhere in the name, at its start, its end or in the middle of a word, makes the
      // store another chain's; part of a marker, or a marker broken by a space, does not.
      ("PK마켓 마곡점", nil), ("이마트 마곡 PK마켓", nil), ("이마트 SSSG점", nil), ("이마트부츠", nil),
      ("이마트 PK마 마곡점", BrandSlug.emart), ("이마트 PK 마켓점", .emart), ("이마트 SS G점", .emart),
      // 츠 (EC B8 A0) is not found across the bytes of 부 and 트 (EB B6 80, ED 8A B8).
      ("이마트 부트점", .emart),
    ] as [(String, BrandSlug?)])
  func aMarkerIsFoundWhereverItsBytesAre(name: String, brand: BrandSlug?) {
    #expect(EmartSource.classify(storeType: nil, name: name) == brand)
  }

  /// A banner spelled in conjoining jamo is the same banner (Unicode calls the two spellings
  /// equal); the quick byte comparison must not decide for such a name.
  @Test(
    arguments: [
      ("\u{110B}\u{1175}\u{1106}\u{1161}\u{1110}\u{1173} 가양점", BrandSlug.emart),
      ("\u{1102}\u{1169}\u{1107}\u{1173}\u{1105}\u{1162}\u{11AB}\u{1103}\u{1173} 구리점", .nobrand),
      // 2026 feeds also write a banner against the name (`노브랜드예천호명점`).
      ("이마트 가양점", .emart), ("이마트가양점", .emart), ("이마트", nil), ("이마트24 역삼점", nil),
    ] as [(String, BrandSlug?)])
  func bannersAreReadWhateverTheHangulSpelling(name: String, brand: BrandSlug?) {
    #expect(EmartSource.classify(storeType: nil, name: name) == brand)
  }

  /// Conjoining jamo in each of Unicode's three blocks is found from its bytes; precomposed
  /// syllables from 가 to 힣, whose UTF-8 shares lead bytes with them, are not jamo.
  @Test func conjoiningJamoIsToldFromItsBytes() {
    for jamo in ["\u{1100}", "\u{11FF}", "\u{A960}", "\u{A97F}", "\u{D7B0}", "\u{D7FF}", "마트\u{1161}점"] {
      #expect(jamo.containsConjoiningJamo, "\(jamo.unicodeScalars.map { String($0.value, radix: 16) })")
    }
    for text in ["가", "깋", "힣", "\u{A95F}", "\u{A980}", "\u{D7AF}", "\u{10FF}", "\u{1200}", "노브랜드 구리점", "SSG"] {
      #expect(!text.containsConjoiningJamo, "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
    }
  }
}
