import Foundation
import MartBrands
import MartCore
import MartFetch
import Testing

@Suite("Brand sources collect from recorded exchanges")
struct CollectTests {
  static let asOf = CalendarDate(year: 2026, month: 11, day: 20)!

  static func session(_ source: any BrandSource, _ fetcher: FixtureFetcher, brands: Set<BrandSlug>)
    -> SourceSession
  {
    SourceSession(for: type(of: source), fetcher: fetcher, asOf: asOf, brands: brands)
  }

  /// The area letters of E-mart's holiday list, in request order.
  static let emartAreas = ["A", "C", "I", "F", "Q", "O", "N", "D", "K", "J", "G", "B", "M", "L", "E", "H", "P"]

  /// `POST holidayList.do <form>` for every area of the as-of month and the next two, in order.
  static let emartHolidayRequests = [("2026", "11"), ("2026", "12"), ("2027", "01")].flatMap { year, month in
    emartAreas.map {
      "POST https://store.emart.com/branch/holidayList.do areaCd=\($0)&year=\(year)&month=\(month)&keyword="
    }
  }

  /// `described` cut into consecutive runs as long as `phases`, each run holding its phase's
  /// requests in any order: requests a source sends side by side have no fixed order, but the
  /// phases that depend on one another come one after another.
  static func inPhases(_ described: [String], _ phases: [[String]]) -> [[String]] {
    var rest = described[...]
    return phases.map { phase in
      defer { rest = rest.dropFirst(phase.count) }
      return rest.prefix(phase.count).sorted()
    }
  }

  /// `POST searchList.do <form>` for `searchType` in the as-of month.
  static func emartStoreListRequest(_ searchType: String) -> String {
    "POST https://store.emart.com/branch/searchList.do "
      + "srchMode=jijum&year=2026&month=11&jMode=true&strConfirmYN=N&searchType=\(searchType)&keyword="
  }

  /// `METHOD url body` of each request.
  static func described(_ requests: [HTTPRequest]) -> [String] {
    requests.map { "\($0.method.rawValue) \($0.url) \($0.body.map { String(decoding: $0, as: UTF8.self) } ?? "")" }
  }

  @Test func emartCollectsThreeBrandsWithHolidaysAndPhones() async throws {
    let source = EmartSource()
    let fetcher = try FixtureFetcher(hosts: ["store.emart.com"])
    let branches = try await source.collect(Self.session(source, fetcher, brands: [.emart, .traders, .nobrand]))

    let requests = await fetcher.requests
    // Store lists (2021-2022 form), 17 areas x 3 months of holiday lists (2025 form), No Brand pages.
    #expect(requests.count == 3 + 51 + 15)
    let phases = [
      ["EM", "TR", "NO"].map(Self.emartStoreListRequest), Self.emartHolidayRequests,
      [
        "1604", "4123", "4507", "4530", "1611", "1627", "1635", "4042", "4055", "4068", "4513", "4521", "4544",
        "4552", "4567",
      ].map { "GET https://store.emart.com/branch/view.do?id=\($0) " },
    ]
    #expect(Self.inPhases(Self.described(requests), phases) == phases.map { $0.sorted() })
    #expect(
      requests.prefix(54).allSatisfy { $0.headers.value(named: "Content-Type") == "application/x-www-form-urlencoded" })

    #expect(branches.count == 46)
    #expect(
      Dictionary(grouping: branches, by: \.id.brand).mapValues(\.count) == [.emart: 16, .traders: 15, .nobrand: 15])
    // The holiday feed's orphan row (1035) and the SSG store (1700) yield no branch.
    #expect(!branches.contains { ["1035", "1700"].contains($0.id.storeID) })

    func branch(_ id: String) throws -> RawBranch {
      try #require(branches.first { $0.id.description == id })
    }
    // Second and fourth Sundays of Nov 2026, Dec 2026 and Jan 2027.
    #expect(
      try branch("emart-1059").closingDates.map(\.iso)
        == ["2026-11-08", "2026-11-22", "2026-12-13", "2026-12-27", "2027-01-10", "2027-01-24"])
    // Second and fourth Mondays (Daegu) and Wednesdays (Seocho-gu).
    #expect(
      try branch("emart-1032").closingDates.map(\.iso)
        == ["2026-11-09", "2026-11-23", "2026-12-14", "2026-12-28", "2027-01-11", "2027-01-25"])
    #expect(
      try branch("emart-1008").closingDates.map(\.iso)
        == ["2026-11-11", "2026-11-25", "2026-12-09", "2026-12-23", "2027-01-13", "2027-01-27"])
    // Second Friday and fourth Saturday (Jeju).
    #expect(
      try branch("emart-1091").closingDates.map(\.iso)
        == ["2026-11-13", "2026-11-28", "2026-12-11", "2026-12-26", "2027-01-08", "2027-01-23"])
    // Every slot truncated in all three months: nothing published.
    #expect(try branch("emart-1099").closingDates.isEmpty)
    // The site publishes dates, not text: no text is made up from them.
    #expect(branches.allSatisfy { $0.closingText == nil })
    #expect(try branch("traders-1419").name == "명지점")
    // 명지점 keeps the second and fourth Monday of its own (부산 강서구 designates none).
    #expect(
      try branch("traders-1419").closingDates.map(\.iso)
        == ["2026-11-09", "2026-11-23", "2026-12-14", "2026-12-28", "2027-01-11", "2027-01-25"])
    #expect(try branch("nobrand-1604").phone == "031-837-1604")
    #expect(try branch("nobrand-4507").phone == "031-8017-4507")
    #expect(try branch("nobrand-4530").phone == "042-489-4530")
  }

  @Test func emartRequestsOnlyTheRequestedBrands() async throws {
    let source = EmartSource()
    let fetcher = try FixtureFetcher(hosts: ["store.emart.com"])
    let branches = try await source.collect(Self.session(source, fetcher, brands: [.traders]))
    let requests = await fetcher.requests
    let phases = [[Self.emartStoreListRequest("TR")], Self.emartHolidayRequests]
    #expect(requests.count == 1 + Self.emartHolidayRequests.count)
    #expect(Self.inPhases(Self.described(requests), phases) == phases.map { $0.sorted() })
    #expect(
      branches.map(\.id.description)
        == [
          "1400", "1413", "1419", "1425", "2023", "2016", "1402", "1404", "1406", "1408", "1410", "1416", "1421",
          "1427", "2019",
        ].map { "traders-\($0)" })
  }

  @Test func everydayComesFromTheHolidayFeedAndIsPlacedByTheAllFormatList() async throws {
    let source = EmartSource()
    let fetcher = try FixtureFetcher(hosts: ["store.emart.com"])
    let branches = try await source.collect(Self.session(source, fetcher, brands: [.everyday]))
    // 에브리데이 has no searchType of its own: its stores are the holiday feed's, placed by the
    // all-format store list, and the three it does not list by their store pages.
    let described = Self.described(await fetcher.requests)
    let holidays = Self.emartHolidayRequests.count
    #expect(described.prefix(holidays).sorted() == Self.emartHolidayRequests.sorted())
    #expect(
      described.dropFirst(holidays).first
        == "POST https://store.emart.com/branch/searchList.do "
        + "srchMode=jijum&year=2026&month=11&areaId=&jMode=true&strConfirmYN=N")
    #expect(
      Set(described.dropFirst(holidays + 1))
        == Set(["4744", "4764", "4781"].map { "GET https://store.emart.com/branch/view.do?id=\($0) " }))
    #expect(described.count == holidays + 4)
    #expect(branches.count == 17)
    #expect(branches.allSatisfy { $0.id.brand == .everyday })
    let garak = try #require(branches.first { $0.id.description == "everyday-4733" })
    // Second and fourth Sundays of Nov 2026, Dec 2026 and Jan 2027.
    #expect(
      garak.closingText == "20261108, 20261122, 20261213, 20261227, 20270110, 20270124"
        || garak.closingDates.map(\.iso) == [
          "2026-11-08", "2026-11-22", "2026-12-13", "2026-12-27", "2027-01-10", "2027-01-24",
        ])
    // 상계점 publishes only truncated slots for December.
    let sanggye = try #require(branches.first { $0.id.storeID == "4712" })
    #expect(sanggye.closingText?.contains("202612") != true)
  }

  @Test func lotteMartPostsAnEmptyBodyWithTheQuery() async throws {
    let source = LotteMartSource()
    let fetcher = try FixtureFetcher(hosts: ["company.lottemart.com"])
    let branches = try await source.collect(Self.session(source, fetcher, brands: [.lottemart]))
    let requests = await fetcher.requests
    // The store search, then the all-format list.
    #expect(requests.count == 2)
    #expect(requests.first?.method == .post)
    #expect(
      requests.first?.url
        == "http://company.lottemart.com/shop/shop_search_type.asp?schArea=&schType=01&schWord=")
    #expect(requests.first?.body?.isEmpty ?? true)
    #expect(requests.last?.url == "http://company.lottemart.com/shop/shop_search.asp?page=1&list_num=500")
    #expect(branches.count == 19)
    #expect(branches.first { $0.id.storeID == "창원중앙점" }?.closingText == "매월 둘째, 넷째주 일요일 ( 11/8, 11/22 )")
  }

  @Test func missingRecordingIsAFetchError() async throws {
    let source = EmartSource()
    let fetcher = try FixtureFetcher(hosts: ["store.emart.com"])
    let march = CalendarDate(year: 2027, month: 3, day: 1)!
    let session = SourceSession(for: EmartSource.self, fetcher: fetcher, asOf: march, brands: [.emart])
    let error = await #expect(throws: SourceError.self) { try await source.collect(session) }
    guard case .fetch(let fetchError) = error?.reason else {
      Issue.record("expected a fetch error, got \(String(describing: error))")
      return
    }
    #expect(fetchError.code == .httpStatus(404))
    // The store list is asked for in the as-of month, which is not recorded.
    #expect(error?.url == "https://store.emart.com/branch/searchList.do")
    #expect(await fetcher.requests.count == 1)

    // 에브리데이 needs only the holiday lists: the per-area form gets a 404 (no recording), so
    // the older form is tried, which has no recording either.
    let holidayFetcher = try FixtureFetcher(hosts: ["store.emart.com"])
    let holidaySession = SourceSession(for: EmartSource.self, fetcher: holidayFetcher, asOf: march, brands: [.everyday])
    let holidayError = await #expect(throws: SourceError.self) { try await source.collect(holidaySession) }
    #expect(holidayError?.url == "https://store.emart.com/branch/holidayList.do?year=2027&month=03")
    #expect(
      Self.described(await holidayFetcher.requests) == [
        "POST https://store.emart.com/branch/holidayList.do areaCd=A&year=2027&month=03&keyword=",
        "GET https://store.emart.com/branch/holidayList.do?year=2027&month=03 ",
      ])
    #expect(holidaySession.warnings.map(\.message).contains { $0.contains("GET ?year=YYYY&month=MM") })
  }

  @Test func everySourceIsListedOnce() {
    let names = BrandSources.all.map(\.name)
    #expect(Set(names).count == names.count, "\(names)")
    let brands = BrandSources.all.flatMap(\.brands)
    #expect(Set(brands).count == brands.count)
  }
}
