import Foundation
import MartCore
import MartFetch
import TestSupport
import Testing

@testable import MartBrands

/// Costco's OCC API, the primary source (`fixtures/web/www.costco.co.kr/occ-stores-0`), and the
/// fall back to the store finder when it fails.
@Suite("CostcoSource OCC API")
struct CostcoAPITests {
  static let url = "https://www.costco.co.kr/rest/v2/korea/stores?fields=FULL&pageSize=50&currentPage=0"
  static let asOf = CalendarDate(year: 2026, month: 11, day: 20)!
  static let hosts: Set<String> = ["www.costco.co.kr"]

  static func page() throws -> CostcoSource.StoresPage {
    try CostcoSource.parseStores(try FixturePaths.data("web/www.costco.co.kr/occ-stores-0.body.json"), url: url)
  }

  static func branch(_ storeID: String) throws -> RawBranch {
    try #require(try page().branches.first { $0.id.storeID == storeID })
  }

  /// The days the branch closes in the fixture window, as the engine reads its text and dates.
  static func closedDates(_ branch: RawBranch) -> [String] {
    ClosingSchedule.published(
      text: branch.closingText, dates: branch.closingDates, asOf: asOf, coverage: CostcoSource.closingDateCoverage
    )
    .closedDates(
      from: CalendarDate(year: 2026, month: 11, day: 1)!, through: CalendarDate(year: 2027, month: 1, day: 31)!
    )
    .map(\.iso)
  }

  @Test func readsEveryWarehouseAndSkipsTheStubWithoutAWarehouseCode() throws {
    let page = try Self.page()
    #expect(page.totalPages == 1)
    #expect(page.branches.count == 19)
    #expect(!page.branches.contains { $0.name == "창원점" }, "the row without warehouseCode is an unopened warehouse")
    #expect(page.branches.allSatisfy { $0.closingText != nil && $0.openingHours != nil && $0.coordinate != nil })
  }

  @Test func idsAreTheStoreFindersIds() throws {
    // The same English names in both sources: a warehouse keeps its id when the source changes.
    let api = Set(try Self.page().branches.map(\.id))
    let finder = Set(
      try CostcoSource.parseStoreFinder(
        try FixturePaths.data("web-older/www.costco.co.kr/store-finder-search.body.json"), url: CostcoSourceTests.url
      ).map(\.id))
    #expect(api == finder)
    #expect(api.contains(BranchID(brand: .costco, storeID: "Daegu-Innovation-City")))
  }

  @Test func readsTheNestedFields() throws {
    let branch = try Self.branch("Daejeon")
    #expect(branch.name == "대전점")
    #expect(branch.address == "대전광역시 중구 오류로 41")
    #expect(branch.lotAddress == "(오류동 116-3)")
    #expect(branch.phone == "+82-1899-9900")
    #expect(branch.openingHours == "오전 10:00 - 오후 10:00")
    #expect(branch.coordinate == GeoPoint(latitude: 36.324444, longitude: 127.403515, fractionDigits: 6))
    #expect(branch.sourceURL == Self.url)
    #expect(branch.pageURL == "https://www.costco.co.kr/store/Daejeon")
    #expect(
      try Self.branch("Daegu-Innovation-City").pageURL == "https://www.costco.co.kr/store/Daegu%20Innovation%20City")
  }

  @Test func theRuleComesFromWarehouseInformation() throws {
    let text = try #require(try Self.branch("Ulsan").closingText)
    #expect(text.hasPrefix("매월 둘째 수요일, 넷째 일요일 의무 휴무"))
    #expect(try Self.branch("Daejeon").closingText?.contains("일산점") == false)
  }

  @Test func aRepeatedNamedClosureCountsOnce() throws {
    // 대전점 lists 2026-11-22 twice: the 2nd and 4th Sundays of Nov (1st is a Sunday) and Dec.
    #expect(
      try Self.branch("Daejeon").closingDates.map(\.iso) == ["2026-11-08", "2026-11-22", "2026-12-13", "2026-12-27"])
  }

  @Test func unnamedClosedDaysAreNotClosures() throws {
    // 양평점 lists 11-24 … 11-26 closed without a name: not closures.
    let branch = try Self.branch("Yangpyung")
    #expect(branch.closingDates.map(\.iso) == ["2026-11-08", "2026-11-22", "2026-12-13", "2026-12-27"])
    let closed = Self.closedDates(branch)
    #expect(!closed.contains("2026-11-24") && !closed.contains("2026-11-25") && !closed.contains("2026-11-26"))
  }

  @Test func aDaySwappedInTheListAloneWins() throws {
    // 세종점's rule says 2nd and 4th Sundays; its list has 12-25 instead of 12-27 (4th Sunday).
    let branch = try Self.branch("Sejong")
    #expect(branch.closingText?.hasPrefix("매월 둘째, 넷째 일요일 의무 휴무") == true)
    let closed = Self.closedDates(branch)
    #expect(closed.contains("2026-12-25") && !closed.contains("2026-12-27"), "\(closed)")
    // January is not in the list: the rule speaks (1/1, then Sundays 10 and 24; 2027-01-03 is a Sunday).
    #expect(closed.filter { $0.hasPrefix("2027-01") } == ["2027-01-01", "2027-01-10", "2027-01-24"])
  }

  @Test func theSpecialDayListAgreesWithANoticeOfThisWarehouse() throws {
    // 일산점: 2nd/4th Wednesdays (Nov 11, 25; Dec 9, 23). Its notice opens 2027-02-10, the 2nd
    // Wednesday of 설's month (고양시 moves one day of a 명절's month to the 명절), after the window.
    let closed = Self.closedDates(try Self.branch("Ilsan"))
    #expect(closed.filter { $0 < "2027-01-01" } == ["2026-11-11", "2026-11-25", "2026-12-09", "2026-12-23"])
  }

  @Test func namedClosuresNeedClosedAndAName() {
    let dates = CostcoSource.namedClosures([
      ("2026-11-08T00:00:00+0900", .bool(true), "의무휴업"),
      ("2026-11-09T00:00:00+0900", .bool(false), "영업"),
      ("2026-11-10T00:00:00+0900", .bool(true), nil),
      ("2026-11-22", .string("true"), "의무휴업"),
      ("2026-11-22T00:00:00+0900", .bool(true), "의무휴업"),
      ("not a date", .bool(true), "의무휴업"),
    ])
    #expect(dates.map(\.iso) == ["2026-11-08", "2026-11-22"])
  }

  @Test func theSinglePageAppsHTMLIsAnError() {
    let html = Data(
      #"<!DOCTYPE html><html><head><base href="/spartacus/assets/"></head><body><app-root></app-root></body></html>"#
        .utf8)
    #expect(throws: SourceError.self) { try CostcoSource.parseStores(html, url: Self.url) }
    #expect(throws: SourceError.self) { try CostcoSource.parseStoreFinder(html, url: CostcoSourceTests.url) }
  }

  @Test func collectsFromTheAPIWithoutTheFallback() async throws {
    let fetcher = try FixtureFetcher(hosts: Self.hosts)
    let session = SourceSession(for: CostcoSource.self, fetcher: fetcher, asOf: Self.asOf, brands: [.costco])
    let branches = try await CostcoSource().collect(session)
    #expect(branches.count == 19)
    #expect(session.fallbackUsed == nil)
    #expect(session.warnings.isEmpty)
    #expect(await fetcher.requests.map(\.url) == [Self.url])
  }

  @Test func fallsBackToTheStoreFinderWhenTheAPIFails() async throws {
    // The older recordings have no API answer (404), only the store finder.
    let fetcher = try FixtureFetcher(hosts: Self.hosts, folder: FixturePaths.olderWeb)
    let session = SourceSession(for: CostcoSource.self, fetcher: fetcher, asOf: Self.asOf, brands: [.costco])
    let branches = try await CostcoSource().collect(session)
    #expect(branches.count == 19)
    #expect(branches.allSatisfy { $0.sourceURL == CostcoSourceTests.url })
    #expect(session.fallbackUsed == CostcoSource.storeFinderSource)
    let warning = try #require(session.warnings.first)
    #expect(warning.message.contains("/rest/v2/korea/stores") && warning.message.contains("store finder"))
  }

  @Test func bothFailingIsOneErrorNamingBoth() async throws {
    let empty = Scratch.directory.appendingPathComponent("costco-none-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
    try Data(#"{"recordedOn": "2026-11-20"}"#.utf8).write(to: empty.appendingPathComponent("replay.json"))
    let fetcher = try FixtureFetcher(hosts: Self.hosts, folder: empty)
    let session = SourceSession(for: CostcoSource.self, fetcher: fetcher, asOf: Self.asOf, brands: [.costco])
    let error = await #expect(throws: SourceError.self) { try await CostcoSource().collect(session) }
    let text = "\(try #require(error))"
    #expect(text.contains("/rest/v2/korea/stores") && text.contains("/store-finder/search"), "\(text)")
  }
}
