import Foundation
import MartBrands
import MartCore
import MartFetch
import MartReplay
import TestSupport
import Testing

@Suite("HomeplusSource")
struct HomeplusSourceTests {
  static let listURL = "https://my.homeplus.co.kr/store/get_list"
  static let folder = "web/my.homeplus.co.kr"

  static func listed() throws -> [RawBranch] {
    try HomeplusSource.parseStoreList(try FixturePaths.data("\(folder)/get_list.body.json"), url: listURL)
  }

  static func listed(_ id: String) throws -> RawBranch {
    try #require(try listed().first { $0.id.description == id })
  }

  static func detail(_ storeID: String) throws -> HomeplusSource.StoreDetail? {
    try HomeplusSource.parseDetail(
      try FixturePaths.data("\(folder)/store_detail-\(storeID).body.html"),
      url: "https://my.homeplus.co.kr/store/store_detail?storId=\(storeID)", charset: "UTF-8")
  }

  // MARK: Store list

  @Test func listSortsStoreTypesIntoTheTwoBrands() throws {
    let branches = try Self.listed()
    // 20 홈플러스 rows (two of them 스페셜) and 20 익스프레스 rows.
    #expect(Dictionary(grouping: branches, by: \.id.brand).mapValues(\.count) == [.homeplus: 20, .homeplusExpress: 20])
    // 스페셜 stores are hypermarkets: 상인점 (571) and 광주하남점 (573) are homeplus.
    #expect(try Self.listed("homeplus-571").name == "상인점")
    #expect(try Self.listed("homeplus-573").name == "광주하남점")
    #expect(branches.contains { $0.id.description == "homeplus-express-1204" })
    #expect(Set(branches.map(\.id)).count == branches.count)
  }

  @Test func listRowCarriesItsOwnDetailPageAndFields() throws {
    let branch = try Self.listed("homeplus-595")
    #expect(branch.name == "창원점")
    #expect(branch.address == "경상남도 창원시 성산구 원이대로 682")
    #expect(branch.phone == "055-270-8000")
    #expect(branch.openingHours == "10:00~24:00")
    #expect(branch.closingText == "11/22(일)")
    #expect(branch.sourceURL == Self.listURL)
    #expect(branch.pageURL == "https://my.homeplus.co.kr/store/store_detail?storId=595")
  }

  /// A listed branch and the point it publishes, named in the test log by the branch.
  struct ListedPoint: CustomTestStringConvertible, Sendable {
    var id: String
    var latitude: Double
    var longitude: Double
    var fractionDigits: Int
    var testDescription: String { id }
  }

  @Test(arguments: [
    // storLat as a string with 7 decimals, storLon as a number.
    ListedPoint(id: "homeplus-616", latitude: 37.6446218, longitude: 127.0703341, fractionDigits: 7),
    // Both strings, 3 and 4 decimals: the point is as precise as the fewer.
    ListedPoint(id: "homeplus-685", latitude: 37.509, longitude: 127.0996, fractionDigits: 3),
    // Both numbers.
    ListedPoint(id: "homeplus-595", latitude: 35.2226, longitude: 128.6811, fractionDigits: 4),
  ])
  func coordinatesAreReadFromStringsAndNumbers(_ example: ListedPoint) throws {
    let point = GeoPoint(
      latitude: example.latitude, longitude: example.longitude, fractionDigits: example.fractionDigits)
    #expect(try Self.listed(example.id).coordinate == point)
  }

  @Test func expressPlaceholderPhoneIsKeptAsPublished() throws {
    // 정자점 publishes "00-000-0000" in the list and on its page: kept as published (the
    // normalizer makes no phone number of it), never preferred over a real one.
    #expect(try Self.listed("homeplus-express-1206").phone == "00-000-0000")
    #expect(try #require(try Self.detail("1206")).phone == "00-000-0000")
    var listed = try Self.listed("homeplus-express-1206")
    var detail = try #require(try Self.detail("1206"))
    detail.phone = "031-8022-1234"
    #expect(HomeplusSource.merging(detail, into: listed).phone == "031-8022-1234")
    listed.phone = "031-8022-9999"
    #expect(HomeplusSource.merging(detail, into: listed).phone == "031-8022-9999")
    #expect(
      try HomeplusSource.parseStoreList(
        Data(#"{"data":[{"storId":1,"storKorNm":"a점","storDivCd":"E","storTphnNo":"02-000-0001"}]}"#.utf8),
        url: Self.listURL
      ).first?.phone == "02-000-0001")
  }

  @Test func storesThatStoppedTradingAreKeptWithTheirHoursText() {
    let table = [
      ("homeplus-641", "마트 임시휴업. 몰영업시간 10:00~21:00"),
      ("homeplus-655", "계룡점 영업종료로 단골매장을 변경해주세요."),
      // The site's own typo for 김제점.
      ("homeplus-662", "감제점 영업종료로 단골매장을 변경해주세요."),
      ("homeplus-express-1219", "마트 임시휴업. 몰영업시간 10:00~21:00"),
      ("homeplus-express-1220", "원주단계점 영업종료로 단골매장을 변경해주세요."),
    ]
    forEachCase(table, named: \.0) { example, name in
      let (id, hours) = example
      let branch = try Self.listed(id)
      #expect(branch.openingHours == hours, name)
      // storDayoffCntt is "" for these rows.
      #expect(branch.closingText == nil, name)
    }
  }

  @Test func listClosingDayKeepsThePublishedForm() throws {
    // 2026-11-25 is the 4th Wednesday (Dongdaemun-gu closes on Wednesdays).
    #expect(try Self.listed("homeplus-603").closingText == "11/25(수)")
    #expect(try Self.listed("homeplus-571").closingText == "11/23(월)")
  }

  @Test func rowsKeyAnd365PlusAndUnknownTypes() throws {
    let json = """
      {"rows":[
        {"storId":"10","storKorNm":"가좌점","storDivCd":"H","storLat":"","storLon":null},
        {"storId":11,"storKorNm":"홈플러스 익스프레스 역삼점","storDivCd":"e"},
        {"storId":12,"storKorNm":"365플러스 한남점","storDivCd":"P"},
        {"storId":13,"storKorNm":"미정점","storDivCd":""},
        {"storCd":"0014","storKorNm":"세종점","storDivCd":"S"},
        {"storId":10,"storKorNm":"가좌점","storDivCd":"H"}
      ]}
      """
    let branches = try HomeplusSource.parseStoreList(Data(json.utf8), url: Self.listURL)
    #expect(branches.map(\.id.description) == ["homeplus-10", "homeplus-express-11", "homeplus-0014"])
    #expect(branches[0].coordinate == nil)
    #expect(branches[1].name == "역삼점")
  }

  @Test func unreadableListIsABrandFailure() {
    let table = [
      ("<html><body>점검 중</body></html>", "not JSON"),
      (#"{"result":"ok"}"#, "no data or rows"),
      (#"{"data":[{"storDivCd":"H"}]}"#, "no row with an id and a name"),
      (#"{"data":[]}"#, "no rows"),
    ]
    for (body, why) in table {
      let error = #expect(throws: SourceError.self, "\(why)") {
        try HomeplusSource.parseStoreList(Data(body.utf8), url: Self.listURL)
      }
      guard case .unexpectedContent = error?.reason else {
        Issue.record("expected unexpectedContent (\(why)), got \(String(describing: error))")
        continue
      }
      #expect(error?.url == Self.listURL, "\(why)")
    }
  }

  // MARK: Store pages

  @Test func detailPageGivesTheRuleWithItsDates() throws {
    let detail = try #require(try Self.detail("595"))
    #expect(detail.closingText == "매월 둘째, 넷째 일요일 (11/8, 11/22)")
    #expect(detail.openingHours == "10:00 ~ 24:00")
    #expect(detail.phone == "055-270-8000")
    // The address cell ends with a "길 찾기" link (no map link with the store's id: no evidenced
    // page carries one); only the address text is kept.
    let raw = String(decoding: try FixturePaths.data("\(Self.folder)/store_detail-595.body.html"), as: UTF8.self)
    #expect(raw.contains("<a href=\"#\" class=\"btn_route\">길 찾기</a>") && !raw.contains("store_map"))
    #expect(detail.address == "경상남도 창원시 성산구 원이대로 682")
  }

  @Test func detailClosingTextsAreVerbatim() {
    let table = [
      ("571", "매월 둘째, 넷째 월요일 (11/9, 11/23)"),
      ("651", "매월 둘째 금요일, 넷째 토요일 (11/13, 11/28)"),
      ("633", "매월 둘째 수요일, 넷째 일요일 (11/11, 11/22)"),
      ("644", "매월 둘째, 넷째 일요일 (11/22, 12/13)"),
      ("1213", "매월 둘째, 넷째 수요일 (11/11, 11/25)"),
    ]
    forEachCase(table, named: \.0) { example, name in
      let (storeID, text) = example
      let detail = try #require(try Self.detail(storeID), name)
      #expect(detail.closingText == text, name)
    }
  }

  @Test func blankClosingCellIsNil() throws {
    // 강릉점's page leaves the closing cell empty; the list's "11/25(수)" is used instead (강릉시's
    // 4th Wednesday of November 2026).
    let detail = try #require(try Self.detail("658"))
    #expect(detail.closingText == nil)
    let merged = HomeplusSource.merging(detail, into: try Self.listed("homeplus-658"))
    #expect(merged.closingText == "11/25(수)")
    #expect(merged.openingHours == "10:00~24:00")
  }

  @Test func pageWithAnEmptyBodyMeansTheStoreIsGone() throws {
    // Where the site redirects for a store that no longer exists: a head, an empty body.
    let page = try FixturePaths.data("\(Self.folder)/store_main.body.html")
    #expect(try HomeplusSource.parseDetail(page, url: "https://my.homeplus.co.kr/store/store_main") == nil)
    #expect(try HomeplusSource.parseDetail(Data(), url: "https://my.homeplus.co.kr/store/store_main") == nil)
    #expect(try HomeplusSource.parseDetail(Data(" \n".utf8), url: "https://my.homeplus.co.kr/store/store_main") == nil)
  }

  /// A page, named in the test log by what is wrong with it.
  struct Page: CustomTestStringConvertible, Sendable {
    var html: String
    var testDescription: String
  }

  @Test(arguments: [
    Page(html: "<html><body><h1>500 Internal Server Error</h1></body></html>", testDescription: "error page"),
    Page(
      html: "<html><body><dl class='shop_detail_02'><dd>10:00</dd><dd>11/22</dd></dl></body></html>",
      testDescription: "no shop_detail_01"),
    Page(
      html: "<html><body><dl class='shop_detail_01'><dd>10:00 ~ 24:00</dd></dl></body></html>",
      testDescription: "one cell"),
  ])
  func redesignedPageThrows(page: Page) throws {
    let url = "https://my.homeplus.co.kr/store/store_detail?storId=1"
    let error = #expect(throws: SourceError.self) { try HomeplusSource.parseDetail(Data(page.html.utf8), url: url) }
    #expect(error?.url == url)
  }

  @Test func cellsAtAnyDepthInsideTheListAreRead() throws {
    // Only "every dd inside dl.shop_detail_01" is grounded, not that they are its children.
    let html = """
      <html><body><dl class="shop_detail_01"><div><dt>영업시간</dt><dd>10:00 ~ 22:00</dd></div>
      <div><dt>휴점일</dt><dd>11/22(일)</dd></div><div><dt>전화번호</dt><dd>031-000-0000</dd></div></dl></body></html>
      """
    let url = "https://my.homeplus.co.kr/store/store_detail?storId=1"
    let detail = try #require(try HomeplusSource.parseDetail(Data(html.utf8), url: url))
    #expect(detail.openingHours == "10:00 ~ 22:00")
    #expect(detail.closingText == "11/22(일)")
    #expect(detail.phone == "031-000-0000")
  }

  @Test func addressWithoutTheDirectionsText() {
    #expect(HomeplusSource.strippingDirectionsLink("부산광역시 부산진구 가야대로 506 길 찾기") == "부산광역시 부산진구 가야대로 506")
    #expect(HomeplusSource.strippingDirectionsLink("부산광역시 부산진구 가야대로 506길찾기") == "부산광역시 부산진구 가야대로 506")
    #expect(HomeplusSource.strippingDirectionsLink("서울특별시 금천구 가산로 106, 112") == "서울특별시 금천구 가산로 106, 112")
    #expect(HomeplusSource.strippingDirectionsLink(" 길 찾기") == nil)
  }

  // MARK: Collecting over HTTP

  /// Records every request on its way to the real fetcher.
  actor RecordingFetcher: HTTPFetching {
    let upstream: any HTTPFetching
    private(set) var requests: [HTTPRequest] = []
    /// Requests whose URL contains this text get a 500 without reaching `upstream`.
    let failing: String?

    init(upstream: any HTTPFetching, failing: String? = nil) {
      self.upstream = upstream
      self.failing = failing
    }

    func fetch(_ request: HTTPRequest) async throws(FetchError) -> HTTPResponse {
      requests.append(request)
      if let failing, request.url.contains(failing) {
        return HTTPResponse(requestURL: request.url, finalURL: request.url, status: 500, headers: [], body: Data())
      }
      return try await upstream.fetch(request)
    }
  }

  static func collect(
    brands: Set<BrandSlug>, failing: String? = nil, folder: URL = FixturePaths.web
  ) async throws -> (branches: Result<[RawBranch], SourceError>, requests: [HTTPRequest], warnings: [String]) {
    let server = try ReplayServer.start(archive: try ReplayArchive.load(from: folder))
    defer { server.stop() }
    let fetcher = RecordingFetcher(
      upstream: OriginRedirectingFetcher(wrapping: CurlHTTPClient(), overrides: server.baseURLOverrides),
      failing: failing)
    let source = HomeplusSource()
    let session = SourceSession(
      baseURL: HomeplusSource.origin, fetcher: fetcher, asOf: CalendarDate(year: 2026, month: 11, day: 20)!,
      brands: brands, sourceName: HomeplusSource.name)
    let result: Result<[RawBranch], SourceError>
    do {
      result = .success(try await source.collect(session))
    } catch {
      result = .failure(error)
    }
    return (result, await fetcher.requests, session.warnings.map(\.description))
  }

  @Test func collectsBothBrandsThroughTheFetcher() async throws {
    let (result, requests, warnings) = try await Self.collect(brands: [.homeplus, .homeplusExpress])
    let branches = try result.get()

    // One list request, as the site's store finder sends it, then one page per listed store.
    let list = try #require(requests.first)
    #expect(list.method == .post && list.url == Self.listURL)
    #expect(list.headers.value(named: "X-Requested-With") == "XMLHttpRequest")
    let fields = FormEncoding.decode(String(decoding: list.body ?? Data(), as: UTF8.self))
    #expect(fields.first { $0.name == "viewExpress" }?.value == "E")
    #expect(fields.first { $0.name == "viewSpecial" }?.value == "S")
    #expect(fields.first { $0.name == "viewPlus" }?.value == "")
    // One page per listed store, each asked once: every page's title names its store, or it
    // repeats no other answer.
    let pages = requests.dropFirst().map(\.url)
    #expect(pages.count == 40 && Set(pages).count == 40)
    #expect(requests.dropFirst().allSatisfy { $0.method == .get && $0.url.contains("/store/store_detail?storId=") })

    // 동김해점 (648) redirects to a page without content: the list still lists it, so it is kept
    // with the list's next closing day, with a warning.
    #expect(try #require(branches.first { $0.id.storeID == "648" }).sourceURL == Self.listURL)
    #expect(warnings.contains { $0.hasPrefix("homeplus-648:") && $0.contains("no store data") })
    // 평촌점 (1207)'s page answers 500: kept with the list's next closing day, with a warning.
    let pyeongchon = try #require(branches.first { $0.id.description == "homeplus-express-1207" })
    #expect(pyeongchon.closingText == "11/25(수)")
    #expect(warnings.contains { $0.hasPrefix("homeplus-express-1207:") && $0.contains("500") })
    // 중계점 (616), 성수점 (1203) and 가산점 (1204) answer the redesigned page without the
    // closing days: kept with the list's next closing day, its source the list, with a warning.
    for id in ["homeplus-616", "homeplus-express-1203", "homeplus-express-1204"] {
      let branch = try #require(branches.first { $0.id.description == id })
      #expect(branch.closingText == "11/22(일)", "\(id)")
      #expect(branch.sourceURL == Self.listURL, "\(id)")
      #expect(warnings.contains { $0.hasPrefix("\(id):") && $0.contains("no dl.shop_detail_01") }, "\(id)")
    }
    #expect(warnings.count == 5)

    #expect(Dictionary(grouping: branches, by: \.id.brand).mapValues(\.count) == [.homeplus: 20, .homeplusExpress: 20])
    let changwon = try #require(branches.first { $0.id.description == "homeplus-595" })
    #expect(changwon.closingText == "매월 둘째, 넷째 일요일 (11/8, 11/22)")
    #expect(changwon.sourceURL == "https://my.homeplus.co.kr/store/store_detail?storId=595")
    // Every branch but the five that stopped trading has a closing text.
    #expect(
      branches.filter { $0.closingText == nil }.map(\.id.storeID).sorted() == ["1219", "1220", "641", "655", "662"])
  }

  @Test func requestsOnlyThePagesOfTheRequestedBrand() async throws {
    let (result, requests, _) = try await Self.collect(brands: [.homeplusExpress])
    let branches = try result.get()
    #expect(branches.count == 20 && branches.allSatisfy { $0.id.brand == .homeplusExpress })
    // One list, then one page per listed Express store, each once.
    #expect(Set(requests.dropFirst().map(\.url)).count == 20)
    #expect(requests.count == 1 + 20)
    #expect(!requests.contains { $0.url.hasSuffix("storId=595") })
  }

  @Test func mostPagesFailingFallsBackToTheListsNextClosingDays() async throws {
    let (result, _, warnings) = try await Self.collect(brands: [.homeplus, .homeplusExpress], failing: "store_detail")
    let branches = try result.get()
    // Every listed store is kept, 동김해점 (648) too (its page could not say it is gone), each with
    // the list's next closing day and the list as its source; one warning says so.
    #expect(branches.count == 40)
    #expect(branches.allSatisfy { $0.sourceURL == Self.listURL })
    #expect(try #require(branches.first { $0.id.description == "homeplus-595" }).closingText == "11/22(일)")
    #expect(warnings.count == 1)
    let warning = try #require(warnings.first)
    #expect(warning.contains("40 of 40") && warning.contains("storDayoffCntt") && warning.contains("500"), "\(warning)")
  }

  @Test func aRedesignOfEveryStorePageKeepsBothBrandsFromTheList() async throws {
    // A copy of the recordings in which every store page is the redesigned one (no closing days).
    let folder = Scratch.directory.appendingPathComponent("homeplus-\(UUID().uuidString)")
    let site = folder.appendingPathComponent("my.homeplus.co.kr")
    try FileManager.default.copyItem(at: FixturePaths.web.appendingPathComponent("my.homeplus.co.kr"), to: site)
    // The redesigned page without its title: a page that names no store and carries no days.
    let redesigned = Data(
      try String(contentsOf: site.appendingPathComponent("store_detail-616.body.html"), encoding: .utf8)
        .replacingOccurrences(of: "<title>홈플러스 중계점 | 매장안내 | 홈플러스</title>", with: "<title>홈플러스</title>").utf8)
    for name in try FileManager.default.contentsOfDirectory(atPath: site.path)
    where name.hasPrefix("store_detail-") && name.hasSuffix(".body.html") {
      try redesigned.write(to: site.appendingPathComponent(name))
    }
    let (result, _, warnings) = try await Self.collect(brands: [.homeplus, .homeplusExpress], folder: folder)
    let branches = try result.get()
    #expect(Dictionary(grouping: branches, by: \.id.brand).mapValues(\.count) == [.homeplus: 20, .homeplusExpress: 20])
    #expect(branches.filter { $0.sourceURL == Self.listURL }.count == 40)
    #expect(warnings.count == 1 && warnings.contains { $0.contains("carry no store data") }, "\(warnings)")
  }

  @Test func rowsUnderAnotherArrayKeyAreRead() throws {
    let body = #"{"draw": 1, "recordsTotal": 1, "list": [{"storId": 595, "storKorNm": "창원점", "storDivCd": "H", "storDayoffCntt": "11/22(일)"}]}"#
    let branches = try HomeplusSource.parseStoreList(Data(body.utf8), url: Self.listURL)
    #expect(branches.map(\.id.description) == ["homeplus-595"])
    #expect(branches.first?.closingText == "11/22(일)")
    #expect(throws: SourceError.self) {
      try HomeplusSource.parseStoreList(Data(#"{"draw": 1, "list": []}"#.utf8), url: Self.listURL)
    }
  }

  @Test func unreachableListIsABrandFailure() async throws {
    let (result, requests, _) = try await Self.collect(brands: [.homeplus], failing: "get_list")
    guard case .failure(let error) = result, case .fetch(let fetchError) = error.reason else {
      Issue.record("expected a fetch failure, got \(result)")
      return
    }
    #expect(fetchError.code == .httpStatus(500))
    #expect(requests.count == 1)
  }
}
