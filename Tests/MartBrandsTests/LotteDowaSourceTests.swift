import Foundation
import MartBrands
import MartCore
import MartFetch
import TestSupport
import Testing

@Suite("LotteDowaSource")
struct LotteDowaSourceTests {
  static let asOf = CalendarDate(year: 2026, month: 11, day: 20)!
  static let searchURL = "http://company.lottemart.com/mobiledowa/market/search_shop.asp"

  static func collect(
    _ fetcher: some HTTPFetching, brands: Set<BrandSlug> = Set(LotteDowaSource.brands)
  ) async throws(SourceError) -> (branches: [RawBranch], warnings: [SourceWarning]) {
    let session = SourceSession(for: LotteDowaSource.self, fetcher: fetcher, asOf: asOf, brands: brands)
    let branches = try await LotteDowaSource().collect(session)
    return (branches, session.warnings)
  }

  static func page(_ number: Int) throws -> [LotteDowaSource.Store] {
    let name = String(format: "web/company.lottemart.com/mobiledowa-search_shop-%02d.body.html", number)
    return try LotteDowaSource.parseSearchPage(try FixturePaths.data(name), url: searchURL, charset: "utf-8")
  }

  @Test func asksEveryAreaIncludingJejuUnderOther() async throws {
    let fetcher = try FixtureFetcher(hosts: ["company.lottemart.com"])
    _ = try await Self.collect(fetcher)
    let requests = await fetcher.requests
    #expect(requests.map(\.url).allSatisfy { $0 == Self.searchURL })
    let areas = requests.map { FormEncoding.decode(String(decoding: $0.body ?? Data(), as: UTF8.self)) }
    // The first area is asked alone (its answer sets the session cookie); the others side by
    // side, in no fixed order.
    let asked = areas.map { $0.first { $0.name == "m_area" }?.value ?? "" }
    #expect(asked.first == LotteDowaSource.areas.first)
    #expect(asked.dropFirst().sorted() == LotteDowaSource.areas.dropFirst().sorted())
    #expect(LotteDowaSource.areas.last == "기타" && LotteDowaSource.areas.count == 16)
    // The cookie the first answer set goes with every later request.
    #expect(requests.first?.headers.value(named: "Cookie") == nil)
    #expect(
      requests.dropFirst().allSatisfy {
        $0.headers.value(named: "Cookie") == "ASPSESSIONIDQQBSCTAD=PLKDMNOBHDJFHMEOCAFGNCAB"
      })
  }

  @Test func exportsTheFamilyBrandsOnly() async throws {
    let (branches, warnings) = try await Self.collect(try FixtureFetcher(hosts: ["company.lottemart.com"]))
    let counts = Dictionary(grouping: branches, by: \.id.brand).mapValues(\.count)
    #expect(counts == [.lotteMaxx: 6, .toysrus: 5, .grandGrocery: 5, .bottleBunker: 6])
    // 롯데마트 rows (강변점 2301, 고양점 2455, 원주점 2801, 제주점 2601) belong to LotteMartSource;
    // Mealguru is none of our brands.
    for code in ["2301", "2455", "2801", "2601", "3612"] {
      #expect(!branches.contains { $0.id.storeID == code }, "\(code)")
    }
    #expect(!branches.contains { $0.name.contains("Mealguru") || $0.id.brand == .lottemart })
    // 맥스 상무점 is listed twice under 광주: one branch.
    #expect(Set(branches.map(\.id)).count == branches.count)
    #expect(warnings.count == 2 && warnings.allSatisfy { $0.message.contains("361") })
  }

  @Test func sharedCodeGivesTwoDistinctStableIDs() async throws {
    let (branches, warnings) = try await Self.collect(try FixtureFetcher(hosts: ["company.lottemart.com"]))
    let shared = branches.filter { $0.id.storeID.hasPrefix("361") }.map(\.id.description).sorted()
    #expect(shared == ["bottle-bunker-361-서울역점", "bottle-bunker-361-제타플렉스"])
    #expect(Set(warnings.compactMap(\.branch?.description)) == Set(shared))
    // Order does not decide the ids.
    let stores = try Self.page(1)
    func ids(_ stores: [LotteDowaSource.Store]) -> [String] {
      LotteDowaSource.branches(from: stores, origin: LotteDowaSource.origin, searchURL: Self.searchURL) { _, _ in }
        .map(\.id.description).sorted()
    }
    #expect(ids(stores) == ids(stores.reversed()))
    #expect(ids(stores).contains("bottle-bunker-361-서울역점"))
  }

  @Test func readsFieldsByLabelWhateverPrecedesTheMarkup() throws {
    // Page 1 (서울) starts with `<-schWord<br>콜라`.
    let seoul = try Self.page(1)
    #expect(seoul.count == 9)
    let zeta = try #require(seoul.first { $0.title == "토이저러스 제타플렉스" })
    #expect(zeta.code == "2326")
    #expect(zeta.hours == "10:00~23:00")
    #expect(zeta.closingText == "11/08(일), 11/22(일)")
    #expect(zeta.address == "서울 송파구 올림픽로 240 롯데월드몰 B1")
    #expect(zeta.phone == "02-411-8700")
    #expect(zeta.detailHref == "./detail_shop.asp?werks=2326")
    // Without a detail link, the code comes from goClick('…').
    let junggye = try #require(seoul.first { $0.title == "토이저러스 중계점" })
    #expect(junggye.code == "2339" && junggye.detailHref == nil)
    // An area without stores is an empty page.
    #expect(try Self.page(5).isEmpty)
  }

  @Test func branchesCarryTheBrandlessNameAndThePage() async throws {
    let (branches, _) = try await Self.collect(try FixtureFetcher(hosts: ["company.lottemart.com"]))
    func branch(_ id: String) throws -> RawBranch { try #require(branches.first { $0.id.description == id }) }
    let geumcheon = try branch("lotte-maxx-2101")
    #expect(geumcheon.name == "금천점")
    // The record is read from the area's search page; the store's own page is its link.
    #expect(geumcheon.sourceURL == "http://company.lottemart.com/mobiledowa/market/search_shop.asp")
    #expect(geumcheon.pageURL == "http://company.lottemart.com/mobiledowa/market/detail_shop.asp?werks=2101")
    // An absolute link with spaces around it.
    #expect(
      try branch("lotte-maxx-2103").pageURL
        == "http://company.lottemart.com/mobiledowa/market/detail_shop.asp?werks=2103")
    #expect(try branch("toysrus-2326").name == "제타플렉스")
    #expect(try branch("toysrus-28021").name == "춘천점")
    // 제주 (기타): Saturdays 2026-11-14 and 11-28.
    let jeju = try branch("toysrus-26011")
    #expect(jeju.closingText == "11/14(토), 11/28(토)")
    let schedule = ClosingSchedule.published(text: jeju.closingText, dates: [], asOf: Self.asOf)
    #expect(
      schedule.closedDates(from: Self.asOf.firstOfMonth(), through: Self.asOf.lastOfMonth).map(\.iso)
        == ["2026-11-14", "2026-11-28"])
    // 구리시: the 2nd/4th Wednesday (data/designations.json).
    #expect(try branch("grand-grocery-2405").closingText == "매월 둘째, 넷째 수요일")
    #expect(branches.allSatisfy { $0.coordinate == nil && $0.banner == nil })
  }

  @Test func titlesNameTheBrand() {
    let table: [(String, BrandSlug?, String?)] = [
      ("맥스 금천점", .lotteMaxx, "금천점"), ("롯데마트 맥스 상무점", .lotteMaxx, "상무점"),
      ("토이저러스 제타플렉스", .toysrus, "제타플렉스"), ("보틀벙커 서울역점", .bottleBunker, "서울역점"),
      ("그랑그로서리 구리점", .grandGrocery, "구리점"), ("강변점", nil, nil), ("Mealguru 서울역점", nil, nil),
    ]
    forEachCase(table, named: \.0) { example, comment in
      let read = LotteDowaSource.brand(ofTitle: example.0)
      #expect(read?.brand == example.1, comment)
      #expect(read?.name == example.2, comment)
    }
  }

  @Test func emptyAnswerThatSetsTheCookieIsAskedOnceMore() async throws {
    let fetcher = try SessionFetcher(upstream: try FixtureFetcher(hosts: ["company.lottemart.com"]))
    let (branches, _) = try await Self.collect(fetcher)
    #expect(branches.count == 22)
    let seen = await fetcher.seen
    // The first area twice (without, then with the cookie), then the other 15 once each.
    #expect(seen.count == 17)
    #expect(seen.prefix(2).map(\.cookie) == [nil, "ASPSESSIONIDSESSION=FRESH"])
    #expect(seen.dropFirst().allSatisfy { $0.cookie == "ASPSESSIONIDSESSION=FRESH" })
  }

  @Test func emptyAnswersEverywhereAreAnError() async throws {
    let fetcher = EmptyFetcher()
    await #expect(throws: SourceError.self) { _ = try await Self.collect(fetcher) }
  }
}

/// A site that answers a request without its session cookie with an empty 200 that sets the
/// cookie, and answers the recordings otherwise.
actor SessionFetcher: HTTPFetching {
  let upstream: FixtureFetcher
  private(set) var seen: [(url: String, cookie: String?)] = []

  init(upstream: FixtureFetcher) throws { self.upstream = upstream }

  func fetch(_ request: HTTPRequest) async throws(FetchError) -> HTTPResponse {
    let cookie = request.headers.value(named: "Cookie")
    seen.append((request.url, cookie))
    guard cookie?.contains("ASPSESSIONIDSESSION=FRESH") == true else {
      return HTTPResponse(
        requestURL: request.url, finalURL: request.url, status: 200,
        headers: [HTTPHeader("Set-Cookie", "ASPSESSIONIDSESSION=FRESH; path=/")], body: Data())
    }
    var response = try await upstream.fetch(request)
    response.headers.removeAll { $0.name == "Set-Cookie" }
    return response
  }
}

/// Answers every request with an empty 200.
struct EmptyFetcher: HTTPFetching {
  func fetch(_ request: HTTPRequest) async throws(FetchError) -> HTTPResponse {
    HTTPResponse(requestURL: request.url, finalURL: request.url, status: 200, headers: [], body: Data())
  }
}
