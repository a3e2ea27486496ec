import Foundation
import MartBrands
import MartCore
import MartFetch
import Testing

/// Answers each request with the body `answer` gives for it (HTTP 200, JSON), or 404.
struct BodyFetcher: HTTPFetching {
  let answer: @Sendable (HTTPRequest) -> String?

  func fetch(_ request: HTTPRequest) async throws(FetchError) -> HTTPResponse {
    guard let body = answer(request) else {
      return HTTPResponse(requestURL: request.url, finalURL: request.url, status: 404, headers: [], body: Data())
    }
    return HTTPResponse(
      requestURL: request.url, finalURL: request.url, status: 200,
      headers: [HTTPHeader("Content-Type", "application/json; charset=utf-8")], body: Data(body.utf8))
  }
}

/// A store-list row without a store id or name gives no branch, and the session warns once for
/// each such row, naming the source, the list and its URL, the row and what it lacks.
@Suite("A skipped store row is warned about")
struct SkippedRowWarningTests {
  static let asOf = CalendarDate(year: 2026, month: 11, day: 20)!

  /// The session's warnings that report skipped rows.
  static func skippedWarnings(_ session: SourceSession) -> [String] {
    session.warnings.map(\.message).filter { $0.hasSuffix("; skipped") && $0.contains(" of the ") }
  }

  @Test func emartStoreListRowWithoutAnIDIsWarnedOnceThoughTheRequestCheckReadsItToo() async throws {
    let list = #"""
      {"dataList":[
        {"ID":"1059","NAME":"이마트 성수점","STORE_TP":"E"},
        {"ID":"","NAME":"이마트 빈칸점","STORE_TP":"E"},
        {"NAME":"이마트 무번호점","STORE_TP":"E"},
        {"ID":"1070","STORE_TP":"E"}
      ]}
      """#
    let fetcher = try ScriptedFetcher { request in
      guard request.url.hasSuffix("/branch/searchList.do"), request.formField("searchType") == "EM" else { return nil }
      return HTTPResponse(
        requestURL: request.url, finalURL: request.url, status: 200,
        headers: [HTTPHeader("Content-Type", "application/json")], body: Data(list.utf8))
    }
    let session = SourceSession(for: EmartSource.self, fetcher: fetcher, asOf: Self.asOf, brands: [.emart])
    let branches = try await EmartSource().collect(session)

    #expect(branches.map(\.id.storeID) == ["1059"])
    let url = "https://store.emart.com/branch/searchList.do"
    #expect(
      Self.skippedWarnings(session) == [
        "emart: row 2 of the store list (searchType=EM) at \(url) has no ID (\"이마트 빈칸점\"); skipped",
        "emart: row 3 of the store list (searchType=EM) at \(url) has no ID (\"이마트 무번호점\"); skipped",
        "emart: row 4 of the store list (searchType=EM) at \(url) has no NAME; skipped",
      ])
  }

  @Test(arguments: [BrandSlug.everyday, .emart])
  func emartHolidayListRowWithoutAJIJUMIDIsWarnedForEachMonthItIsIn(brand: BrandSlug) async throws {
    let fetcher = try ScriptedFetcher { request in
      guard request.isPerAreaHolidayList, request.formField("areaCd") == "A",
        let month = request.formField("month"), let year = request.formField("year")
      else { return nil }
      guard var rows = try? EmartHolidayFixtures.rows(month: "\(year)-\(month)", area: "A") else { return nil }
      rows.insert(["NAME": "에브리데이 무번호점", "AREA": "서울"], at: 1)
      guard let body = try? JSONSerialization.data(withJSONObject: ["dateList": rows]) else { return nil }
      return HTTPResponse(
        requestURL: request.url, finalURL: request.url, status: 200,
        headers: [HTTPHeader("Content-Type", "application/json")], body: body)
    }
    // Whether or not 에브리데이 (read from these lists) is asked for, the row gives its days to
    // no store, and says so.
    let session = SourceSession(for: EmartSource.self, fetcher: fetcher, asOf: Self.asOf, brands: [brand])
    let branches = try await EmartSource().collect(session)

    #expect(!branches.isEmpty)
    let url = "https://store.emart.com/branch/holidayList.do"
    #expect(
      Self.skippedWarnings(session) == ["2026-11", "2026-12", "2027-01"].map {
        "emart: row 2 of the holiday list of \($0), area A at \(url) has no JIJUM_ID (\"에브리데이 무번호점\"); skipped"
      })
  }

  @Test func homeplusStoreListRowWithoutAnIDIsWarned() async throws {
    let list = #"""
      {"data":[
        {"storId":"10","storKorNm":"가좌점","storDivCd":"H"},
        {"storId":"  ","storKorNm":"빈칸점","storDivCd":"H"}
      ]}
      """#
    let fetcher = BodyFetcher { $0.url.hasSuffix("/store/get_list") ? list : nil }
    let session = SourceSession(for: HomeplusSource.self, fetcher: fetcher, asOf: Self.asOf, brands: [.homeplus])
    let branches = try await HomeplusSource().collect(session)

    #expect(branches.map(\.id.storeID) == ["10"])
    #expect(
      Self.skippedWarnings(session) == [
        "homeplus: row 2 of the store list at https://my.homeplus.co.kr/store/get_list has no storId or storCd "
          + "(\"빈칸점\"); skipped"
      ])
  }

  @Test func megamartRecordWithoutACodeIsWarned() async throws {
    let stores = #"""
      [{"storeCode":"1001","storeName":"메가마트 동래점"},{"storeCode":null,"storeName":"메가마트 새점"},{}]
      """#
    let fetcher = BodyFetcher { _ in stores }
    let session = SourceSession(for: MegamartSource.self, fetcher: fetcher, asOf: Self.asOf, brands: [.megamart])
    let branches = try await MegamartSource().collect(session)

    #expect(branches.map(\.id.storeID) == ["1001"])
    let url = "https://home.megamart.com/boardApi/query"
    #expect(
      Self.skippedWarnings(session) == [
        "megamart: row 2 of the store query at \(url) has no storeCode (\"메가마트 새점\"); skipped",
        "megamart: row 3 of the store query at \(url) has no storeCode and storeName; skipped",
      ])
  }

  @Test func gsTheFreshRowWithoutAShopCodeIsWarned() async throws {
    let page = #"""
      {"results":[
        {"shopCode":"VS001","shopName":"GS더프레시 역삼점"},
        {"shopCode":"","shopName":"GS더프레시 빈칸점"}
      ],
      "pagination":{"pageSize":10,"currentPage":0,"totalNumberOfResults":1,"numberOfPages":1}}
      """#
    let fetcher = BodyFetcher { _ in page }
    let session = SourceSession(for: GSTheFreshSource.self, fetcher: fetcher, asOf: Self.asOf, brands: [.gsTheFresh])
    let branches = try await GSTheFreshSource().collect(session)

    #expect(branches.map(\.id.storeID) == ["VS001"])
    let warnings = Self.skippedWarnings(session)
    #expect(warnings.count == 1)
    #expect(
      warnings.first?.hasPrefix("gs-thefresh: row 2 of the store list at http://gsthefresh.gsretail.com/") == true)
    #expect(warnings.first?.hasSuffix("has no shopCode (\"GS더프레시 빈칸점\"); skipped") == true)
  }

  @Test func aRowLackingSeveralFieldsNamesThemAll() {
    let row = SkippedRow(list: "the store list", url: "https://example.com/list", row: 3, missing: ["ID", "NAME"])
    #expect(row.description == "row 3 of the store list at https://example.com/list has no ID and NAME; skipped")
  }
}
