import Foundation
import MartBrands
import MartCore
import MartFetch
import TestSupport
import Testing

@Suite("GSTheFreshSource")
struct GSTheFreshSourceTests {
  static let asOf = CalendarDate(year: 2026, month: 11, day: 20)!
  static let listURL = "http://gsthefresh.gsretail.com/thefresh/ko/market-info/find-storelist"

  static func page(_ number: Int) throws -> GSTheFreshSource.Page {
    try GSTheFreshSource.parsePage(
      try FixturePaths.data("web/gsthefresh.gsretail.com/find-storelist-page-\(number).body.json"), url: listURL)
  }

  static func collect() async throws -> (branches: [RawBranch], requests: [HTTPRequest], warnings: [String]) {
    let source = GSTheFreshSource()
    let fetcher = try FixtureFetcher(hosts: ["gsthefresh.gsretail.com"])
    let session = SourceSession(
      baseURL: GSTheFreshSource.origin, fetcher: fetcher, asOf: asOf, brands: [.gsTheFresh],
      sourceName: GSTheFreshSource.name)
    let branches = try await source.collect(session)
    return (branches, await fetcher.requests, session.warnings.map(\.description))
  }

  static func date(_ iso: String) throws -> CalendarDate { try #require(CalendarDate(iso: iso)) }

  @Test func readsTheRealRecord() throws {
    let store = try #require(try Self.page(1).stores.first)
    #expect(store.shopCode == "12021")
    #expect(store.shopName == "포항죽도점")
    #expect(store.phone == "054)278-1448~9")
    #expect(store.address == "경북 포항시 북구 중흥로 244(죽도동 607-1)")
    #expect(store.openingHours == "10:00 ~ 23:00")
    // Published as "lat":"129.36009447", "longs":"36.02490301": swapped.
    #expect(store.coordinate == GeoPoint(latitude: 36.02490301, longitude: 129.36009447, fractionDigits: 8))
    // closedDate3 and closedDate4 are "".
    #expect(store.closingDays == ["11월 08일", "11월 22일"])
    #expect(store.shutDownDate == nil)
  }

  @Test func paginationIsRead() throws {
    let first = try Self.page(1).pagination
    #expect(first == .init(pageSize: 3, currentPage: 0, totalNumberOfResults: 18, numberOfPages: 6))
    #expect(try Self.page(6).pagination.currentPage == 5)
  }

  @Test func requestsEveryPageThroughTheSession() async throws {
    let (branches, requests, _) = try await Self.collect()
    #expect(requests.count == 6)
    #expect(requests.allSatisfy { $0.method == .get && $0.url.hasPrefix(Self.listURL + "?") })
    let pageNumbers = requests.compactMap {
      URLComponents(string: $0.url)?.queryItems?.first { $0.name == "pageNum" }?.value
    }
    // The first page says how many there are; the others are asked side by side.
    #expect(pageNumbers.first == "1")
    #expect(pageNumbers.dropFirst().sorted() == ["2", "3", "4", "5", "6"])
    #expect(branches.count == 18)
    #expect(Set(branches.map(\.id)).count == 18)
    #expect(branches.allSatisfy { $0.id.brand == .gsTheFresh })
  }

  @Test func closingDaysAreDatesWithTheYearFromTheAsOfDate() async throws {
    let (branches, _, _) = try await Self.collect()
    func branch(_ code: String) throws -> RawBranch { try #require(branches.first { $0.id.storeID == code }) }
    let pohang = try branch("12021")
    #expect(pohang.closingDates == [try Self.date("2026-11-08"), try Self.date("2026-11-22")])
    #expect(pohang.closingText == nil)
    // Recorded in November: "01월 10일" and "01월 24일" are next January.
    #expect(
      try branch("11084").closingDates
        == [
          try Self.date("2026-12-13"), try Self.date("2026-12-27"), try Self.date("2027-01-10"),
          try Self.date("2027-01-24"),
        ])
    // "11월08일" without the space.
    #expect(try branch("10533").closingDates.first == (try Self.date("2026-11-08")))
    // 2026-11-01 is a Sunday: the 2nd and 4th Mondays (Daegu) are 11-09 and 11-23.
    #expect(try branch("11208").closingDates.prefix(2) == [try Self.date("2026-11-09"), try Self.date("2026-11-23")])
  }

  @Test func storeIDNameAndOwnURL() async throws {
    let (branches, _, _) = try await Self.collect()
    let pohang = try #require(branches.first)
    #expect(pohang.id.description == "gs-thefresh-12021")
    #expect(pohang.name == "포항죽도점")
    // Read from the first list page; the site has no page of a store's own.
    #expect(pohang.sourceURL.hasPrefix(Self.listURL + "?searchType=&pageNum=1&"))
    #expect(pohang.pageURL == nil)
  }

  @Test func coordinatesAreOrientedPerStore() throws {
    // 수원영통점 publishes them the right way round; 포항죽도점 swapped.
    let suwon = try #require(try Self.page(2).stores.first { $0.shopCode == "10421" })
    #expect(suwon.coordinate == GeoPoint(latitude: 37.25245678, longitude: 127.07311234, fractionDigits: 8))
    #expect(
      GSTheFreshSource.orientedCoordinate(129.1, 35.1) == GeoPoint(latitude: 35.1, longitude: 129.1))
    #expect(GSTheFreshSource.orientedCoordinate(0, 0) == nil)
    #expect(GSTheFreshSource.orientedCoordinate(37.5, nil) == nil)
  }

  @Test func closedStoreKeepsItsShutDownDateAsPublished() async throws {
    let store = try #require(try Self.page(6).stores.first { $0.shopCode == "11759" })
    #expect(store.shutDownDate == "20250831")
    #expect(store.closingDays.isEmpty)
    let (branches, _, _) = try await Self.collect()
    let branch = try #require(branches.first { $0.id.storeID == "11759" })
    #expect(branch.statusText == "20250831")
    // 세종도담점 announces a shut-down day after the as-of date; every other store has none.
    #expect(branches.first { $0.id.storeID == "10972" }?.statusText == "20261215")
    #expect(branches.filter { $0.statusText != nil }.count == 2)
  }

  @Test(arguments: [("03월 08일", 3, 8), ("3월8일", 3, 8), ("12월 27일", 12, 27)])
  func monthDay(text: String, month: Int, day: Int) throws {
    let parsed = try #require(GSTheFreshSource.monthDay(text))
    #expect(parsed.month == month && parsed.day == day)
  }

  @Test func notAMonthDay() {
    for text in ["", "휴무 없음", "13월 01일", "2026-11-08"] {
      #expect(GSTheFreshSource.monthDay(text) == nil, "\(text.debugDescription)")
    }
  }

  @Test func inconsistentPaginationStopsWithAnError() async throws {
    // Pages 2 and 3 claim to be page 1 again: the source must not loop or publish a part. The
    // first page gives the count (3); the other two are asked for together, each asked again
    // while its answer names another page (this fetcher has no more pages then), and the
    // source fails.
    let repeating = PagesFetcher(pages: [0, 0, 0].map { Self.pageBody(currentPage: $0, total: 9, pages: 3) })
    await #expect(throws: SourceError.self) { try await Self.collect(with: repeating) }
    let asked = await repeating.requestCount
    #expect((3...(1 + 2 * SourceSession.askingsPerMismatchedAnswer)).contains(asked), "\(asked)")

    // A page count too high for the total is refused before any second request.
    let inflated = PagesFetcher(pages: [Self.pageBody(currentPage: 0, total: 2, pages: 50_000)])
    await #expect(throws: SourceError.self) { try await Self.collect(with: inflated) }
    #expect(await inflated.requestCount == 1)
  }

  @Test func aSiteCountingPagesFromZeroIsReadWhole() async throws {
    // The first request (pageNum=1) answers currentPage 1: the site counts from 0, so page 0
    // is fetched too, and page 2, and nothing twice. Pages after the first are asked for side
    // by side, so 0 and 2 come in either order.
    let zeroBased = PageNumberFetcher { pageNumber in
      Self.pageBody(currentPage: pageNumber, total: 3, pages: 3)
    }
    let branches = try await Self.collect(with: zeroBased)
    #expect(Set(branches.map(\.name)) == ["테스트0점", "테스트1점", "테스트2점"])
    let asked = await zeroBased.pageNumbers
    #expect(asked.first == 1 && asked.count == 3 && Set(asked) == [0, 1, 2], "\(asked)")
  }

  static func collect(with fetcher: some HTTPFetching) async throws -> [RawBranch] {
    let session = SourceSession(
      baseURL: GSTheFreshSource.origin, fetcher: fetcher, asOf: asOf, brands: [.gsTheFresh],
      sourceName: GSTheFreshSource.name)
    return try await GSTheFreshSource().collect(session)
  }

  static func pageBody(currentPage: Int, total: Int, pages: Int) -> Data {
    Data(
      """
      {"results":[{"shopCode":"9\(currentPage)","shopName":"테스트\(currentPage)점","closedDate1":"11월 22일"}],
       "pagination":{"sort":null,"pageSize":3,"currentPage":\(currentPage),"totalNumberOfResults":\(total),"numberOfPages":\(pages)},"sorts":null}
      """.utf8)
  }
}

/// Answers the n-th request with the n-th body (404 after the last), counting requests.
actor PagesFetcher: HTTPFetching {
  let pages: [Data]
  private(set) var requestCount = 0

  init(pages: [Data]) { self.pages = pages }

  func fetch(_ request: HTTPRequest) async throws(FetchError) -> HTTPResponse {
    defer { requestCount += 1 }
    guard requestCount < pages.count else {
      return HTTPResponse(requestURL: request.url, finalURL: request.url, status: 404, headers: [], body: Data())
    }
    return HTTPResponse(
      requestURL: request.url, finalURL: request.url, status: 200,
      headers: [HTTPHeader("Content-Type", "application/json")], body: pages[requestCount])
  }
}

/// Answers each request with the body for its `pageNum` query parameter, remembering the
/// page numbers asked for.
actor PageNumberFetcher: HTTPFetching {
  let body: @Sendable (Int) -> Data
  private(set) var pageNumbers: [Int] = []

  init(body: @escaping @Sendable (Int) -> Data) { self.body = body }

  func fetch(_ request: HTTPRequest) async throws(FetchError) -> HTTPResponse {
    let query = URLComponents(string: request.url)?.queryItems ?? []
    let pageNumber = query.first { $0.name == "pageNum" }?.value.flatMap { Int($0) } ?? -1
    pageNumbers.append(pageNumber)
    return HTTPResponse(
      requestURL: request.url, finalURL: request.url, status: 200,
      headers: [HTTPHeader("Content-Type", "application/json")], body: body(pageNumber))
  }
}
