import Foundation
import MartBrands
import MartCore
import TestSupport
import Testing

/// The store finder, the fallback: its older form of the warehouses, kept under `fixtures/web-older/`.
@Suite("CostcoSource store finder")
struct CostcoSourceTests {
  static let url = "https://www.costco.co.kr/store-finder/search?q=Korea%2C+Republic+of&page=0"
  static let asOf = CalendarDate(year: 2026, month: 11, day: 20)!

  static func branches() throws -> [RawBranch] {
    try CostcoSource.parseStoreFinder(
      try FixturePaths.data("web-older/www.costco.co.kr/store-finder-search.body.json"), url: url)
  }

  static func branch(_ storeID: String) throws -> RawBranch {
    try #require(try branches().first { $0.id.storeID == storeID })
  }

  /// The dates the branch's closing text yields in the fixture window.
  static func closedDates(_ storeID: String) throws -> [String] {
    let text = try #require(try branch(storeID).closingText)
    return ClosingSchedule.parse(text, asOf: asOf)
      .closedDates(
        from: CalendarDate(year: 2026, month: 11, day: 1)!, through: CalendarDate(year: 2027, month: 1, day: 31)!
      )
      .map(\.iso)
  }

  @Test func readsEveryWarehouse() throws {
    let branches = try Self.branches()
    #expect(branches.count == 19)
    #expect(Set(branches.map(\.id)).count == 19)
    #expect(branches.allSatisfy { $0.closingText != nil && $0.openingHours != nil })
  }

  @Test func readsTheRealRecordsFields() throws {
    let branch = try Self.branch("Daejeon")
    #expect(branch.id.description == "costco-Daejeon")
    #expect(branch.name == "대전점")
    #expect(branch.address == "대전광역시 중구 오류로 41")
    #expect(branch.lotAddress == "(오류동 116-3)")
    #expect(branch.phone == "+82-1899-9900")
    #expect(branch.openingHours == "오전 10:00 - 오후 10:00")
    // Six decimals published: precise enough for the building.
    #expect(branch.coordinate == GeoPoint(latitude: 36.324444, longitude: 127.403515, fractionDigits: 6))
    // The record was read from the store finder; the feed's url has a space and a comma in
    // its search query, and the warehouse page is its path.
    #expect(branch.sourceURL == Self.url)
    #expect(branch.pageURL == "https://www.costco.co.kr/store/Daejeon")
  }

  @Test func idJoinsAMultiWordNameWithHyphens() throws {
    let branch = try Self.branch("Daegu-Innovation-City")
    #expect(branch.name == "대구 혁신도시점")
    #expect(branch.pageURL == "https://www.costco.co.kr/store/Daegu%20Innovation%20City")
  }

  @Test func anEmptyPhoneStaysUnpublished() throws {
    // The site shows its nationwide number for such a warehouse, but the record has none.
    #expect(try Self.branch("Uijeongbu").phone == nil)
  }

  @Test func ruleInsideAParagraphSpanWithTheStrayDocumentEnd() throws {
    // The 2019 layout: the rule in a <span> inside the <p>, then "</body> </html>" and a notice.
    let text = try #require(try Self.branch("Daejeon").closingText)
    #expect(text.hasPrefix("매월 둘째, 넷째 일요일 의무 휴무"))
    #expect(text.contains("*휴무일: 1/1, 설날, 추석 (전일은 오후 7시까지 영업)"))
    // 2026-11-01 is a Sunday, so the 2nd and 4th Sundays are 11-08 and 11-22; 2026-12-01 is a
    // Tuesday (Sundays 6, 13, 20, 27 → 13, 27); 2027-01-01 is a Friday (Sundays 3, 10, 17, 24
    // → 10, 24), and 1/1 is a holiday.
    #expect(
      try Self.closedDates("Daejeon")
        == ["2026-11-08", "2026-11-22", "2026-12-13", "2026-12-27", "2027-01-01", "2027-01-10", "2027-01-24"])
  }

  @Test func noticeForAnotherWarehouseDoesNotApply() throws {
    #expect(try Self.branch("Daejeon").closingText?.contains("일산점") == false)
    #expect(try Self.branch("Yangpyung").closingText?.contains("정상영업") == false)
  }

  @Test func noticeForThisWarehouseIsAnException() throws {
    let text = try #require(try Self.branch("Ilsan").closingText)
    #expect(text.contains("※ 일산점은 12월 23일 (수요일) 정상영업 합니다."))
    // 2nd and 4th Wednesdays: Nov 2026 (Wednesdays 4, 11, 18, 25) → 11, 25; Dec (2, 9, 16, 23,
    // 30) → 9, 23, but 12-23 is open by the notice; Jan 2027 (6, 13, 20, 27) → 13, 27; plus 1/1.
    #expect(
      try Self.closedDates("Ilsan")
        == ["2026-11-11", "2026-11-25", "2026-12-09", "2027-01-01", "2027-01-13", "2027-01-27"])
  }

  @Test func laterLayoutWithFontAndTheRuleInTheLastParagraph() throws {
    let branch = try Self.branch("Ulsan")
    #expect(branch.openingHours == "오전 10:00 - 오후 10:00")
    #expect(branch.closingText?.hasPrefix("매월 둘째 수요일, 넷째 일요일 의무 휴무") == true)
    // Type 2 pairs each ordinal with its own weekday: 2nd Wednesday and 4th Sunday only.
    // Nov 2026: Wed 11, Sun 22; Dec: Wed 9, Sun 27; Jan 2027: 1/1, Wed 13, Sun 24.
    #expect(
      try Self.closedDates("Ulsan")
        == ["2026-11-11", "2026-11-22", "2026-12-09", "2026-12-27", "2027-01-01", "2027-01-13", "2027-01-24"])
  }

  @Test func fragmentWithoutTheStrayEndReadsTheSame() throws {
    let html =
      "<h3 class='headline'>영업시간</h3><p><font>오전 10:00 - 오후 10:00</font></p><p>정부시책에 의거 유통산업 발전법에 따라 <span style='color:red;'>매월 둘째 수요일, 넷째 일요일 의무 휴무</span>합니다.</p>"
    let record: [String: String] = [
      "displayName": "울산점", "name": "Ulsan", "url": "/store/Ulsan?q=Korea, Republic of", "phone": "",
      "line1": "울산광역시 북구 진장유통로 78", "latitude": "35.575845", "longitude": "129.356962", "storeContent": html,
    ]
    let data = try JSONEncoder().encode(["data": [record]])
    let branch = try #require(try CostcoSource.parseStoreFinder(data, url: Self.url).first)
    #expect(branch.closingText == "매월 둘째 수요일, 넷째 일요일 의무 휴무")
    #expect(branch.openingHours == "오전 10:00 - 오후 10:00")
  }

  @Test func bodyWithoutDataIsAnError() {
    #expect(throws: SourceError.self) {
      try CostcoSource.parseStoreFinder(Data(#"{"stores": []}"#.utf8), url: Self.url)
    }
    #expect(throws: SourceError.self) {
      try CostcoSource.parseStoreFinder(Data(#"{"data": [{"town": ""}]}"#.utf8), url: Self.url)
    }
  }
}
