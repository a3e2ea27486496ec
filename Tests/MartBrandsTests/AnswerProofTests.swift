import Foundation
@testable import MartBrands
import MartBench
import MartCore
import MartFetch
import MartReplay
import ReplayTestSupport
import Synchronization
import TestSupport
import Testing

/// Answers that carry nothing of their request, read through a real libcurl client from a
/// loopback server: a cache that ignores the query string, client-rendered shells, repeated
/// pages. Each source either reads exactly what a clean read gives, keeps a store's list data,
/// or fails (the brand stays stale); never another store's days.
@Suite(.serialized)
struct AnswerProofTests {
  static let asOf = CalendarDate(year: 2026, month: 11, day: 20)!

  /// A loopback server for `host`'s recordings in `folder`. With `ignoringQuery`, it answers
  /// every request of a path with the first answer it gave for that path, as a cache keyed on
  /// the path alone would.
  static func server(host: String, folder: URL = FixturePaths.web, ignoringQuery: Bool) throws -> LocalHTTPServer {
    let index = RecordingIndex(try ReplayArchive.load(from: folder).restricted(toHosts: [host]))
    let cache = Mutex<[String: ServerResponse]>([:])
    return try LocalHTTPServer { request in
      if ignoringQuery, let cached = cache.withLock({ $0[request.path] }) { return cached }
      guard let exchange = index.match(request, host: host) else { return .text("no recording\n", status: 404) }
      let response = ServerResponse(
        status: exchange.status, headers: exchange.headers.filter { $0.name.lowercased() != "content-encoding" },
        body: exchange.body)
      if ignoringQuery, exchange.status == 200 { cache.withLock { $0[request.path] = $0[request.path] ?? response } }
      return response
    }
  }

  /// What `source` reads of `brands` from `server`, and its warnings.
  static func collect(
    _ source: any BrandSource, brands: Set<BrandSlug>, from server: LocalHTTPServer
  ) async -> (branches: Result<[RawBranch], SourceError>, warnings: [String]) {
    let fetcher = OriginRedirectingFetcher(
      wrapping: CurlHTTPClient(), overrides: [type(of: source).origin: server.baseURL])
    let session = SourceSession(for: type(of: source), fetcher: fetcher, asOf: asOf, brands: brands)
    do {
      return (.success(try await source.collect(session)), session.warnings.map(\.description))
    } catch {
      return (.failure(error), session.warnings.map(\.description))
    }
  }

  /// A copy of the recordings in a new folder, for a test to change.
  static func copyOfRecordings(_ host: String) throws -> URL {
    let folder = Scratch.directory.appendingPathComponent("answers-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try FileManager.default.copyItem(
      at: FixturePaths.web.appendingPathComponent(host), to: folder.appendingPathComponent(host))
    return folder
  }

  // MARK: Homeplus

  static let homeplusList = "https://my.homeplus.co.kr/store/get_list"

  @Test func homeplusShellsAreAskedThreeTimesThenTheListStandsIn() async throws {
    let folder = try Self.copyOfRecordings("my.homeplus.co.kr")
    defer { try? FileManager.default.removeItem(at: folder) }
    let site = folder.appendingPathComponent("my.homeplus.co.kr")
    let shell = Data(
      """
      <!DOCTYPE html><html lang="ko"><head><meta charset="UTF-8"><title>홈플러스</title>
      <script src="/resources/js/store.js"></script></head><body><div id="app"></div></body></html>
      """.utf8)
    for name in try FileManager.default.contentsOfDirectory(atPath: site.path)
    where name.hasPrefix("store_detail-") && name.hasSuffix(".body.html") {
      try shell.write(to: site.appendingPathComponent(name))
    }
    let (result, requests, warnings) = try await HomeplusSourceTests.collect(
      brands: [.homeplus, .homeplusExpress], folder: folder)
    let branches = try result.get()
    // The list, then three store pages (a shell repeating another's, on a reused connection,
    // asked once more on a fresh one): the rest are not asked.
    let pages = requests.dropFirst().map(\.url)
    #expect(Set(pages).count == HomeplusSource.pagesBeforeStopping, "\(pages)")
    #expect(requests.count <= 1 + 2 * HomeplusSource.pagesBeforeStopping && requests.count <= 12)
    // Every listed store is kept with the list's next closing day.
    #expect(branches.count == 40)
    #expect(branches.allSatisfy { $0.sourceURL == Self.homeplusList })
    #expect(try #require(branches.first { $0.id.description == "homeplus-595" }).closingText == "11/22(일)")
    // Said once, with what the pages are.
    #expect(warnings.count == 1, "\(warnings)")
    let warning = try #require(warnings.first)
    #expect(warning.contains("carry no store data") && warning.contains("storDayoffCntt"), "\(warning)")
    #expect(warning.contains("HTML page titled '홈플러스'"), "\(warning)")
    // The stand-in itself (the brand's data source in the log and the report) says what the pages were.
    #expect(warning.contains("carry no store data (an HTML page titled '홈플러스'), so the others"), "\(warning)")
  }

  @Test func homeplusProbeSaysWhenTheFirstPagesCarryNothing() async throws {
    let folder = try Self.copyOfRecordings("my.homeplus.co.kr")
    defer { try? FileManager.default.removeItem(at: folder) }
    let site = folder.appendingPathComponent("my.homeplus.co.kr")
    let shell = Data(#"<html><head><title>홈플러스</title></head><body><div id="app"></div></body></html>"#.utf8)
    for name in try FileManager.default.contentsOfDirectory(atPath: site.path)
    where name.hasPrefix("store_detail-") && name.hasSuffix(".body.html") {
      try shell.write(to: site.appendingPathComponent(name))
    }
    let server = try Self.server(host: "my.homeplus.co.kr", folder: folder, ignoringQuery: false)
    defer { server.stop() }
    let fetcher = OriginRedirectingFetcher(wrapping: CurlHTTPClient(), overrides: [HomeplusSource.origin: server.baseURL])
    let session = SourceSession(for: HomeplusSource.self, fetcher: fetcher, asOf: Self.asOf, brands: [.homeplus])
    let pages = await HomeplusSource().probe(session)
    let summary = try #require(pages.last)
    #expect(summary.problem?.contains("carry no store data") == true, "\(summary)")
    #expect(summary.problem?.contains("HTML page titled '홈플러스'") == true, "\(summary)")
  }

  @Test func homeplusPagesThatCarryTheDaysAreEachAskedOnce() async throws {
    let (result, requests, _) = try await HomeplusSourceTests.collect(brands: [.homeplus, .homeplusExpress])
    _ = try result.get()
    // One list and one page per store: a page whose title names its store, or that repeats no
    // other answer, is not asked again.
    #expect(requests.count == 1 + 40, "\(requests.map(\.url))")
  }

  @Test func homeplusPagesKeepTheirKeptAliveConnections() async throws {
    // 41 requests (the list and forty pages) on kept-alive connections: nothing is asked again
    // on a fresh one, so at most one connection per four requests.
    // Four requests to the host at a time, as a run allows.
    let server = try Self.server(host: "my.homeplus.co.kr", ignoringQuery: false)
    defer { server.stop() }
    let fetcher = PoliteFetcher(
      wrapping: OriginRedirectingFetcher(wrapping: CurlHTTPClient(), overrides: [HomeplusSource.origin: server.baseURL]),
      policy: PolitenessPolicy(maxConcurrentRequestsPerHost: 4, minimumDelay: .zero, jitter: .zero, obeysRobotsTxt: false))
    let session = SourceSession(
      for: HomeplusSource.self, fetcher: fetcher, asOf: Self.asOf, brands: [.homeplus, .homeplusExpress])
    _ = try await HomeplusSource().collect(session)
    #expect(server.acceptedConnections * 4 <= 41, "\(server.acceptedConnections) connections")
  }

  @Test func homeplusBlankPageKeepsTheListedStore() async throws {
    let (result, _, warnings) = try await HomeplusSourceTests.collect(brands: [.homeplus])
    let branches = try result.get()
    // 동김해점 (648) redirects to a page without content: the list still lists it, so it stays,
    // with the list's next closing day.
    let store = try #require(branches.first { $0.id.description == "homeplus-648" })
    #expect(store.closingText == "11/22(일)" && store.sourceURL == Self.homeplusList)
    #expect(warnings.contains { $0.hasPrefix("homeplus-648:") })
  }

  @Test func homeplusCacheIgnoringTheQueryGivesNoStoreAnotherStoresPage() async throws {
    let clean = try Self.server(host: "my.homeplus.co.kr", ignoringQuery: false)
    let cleanRead = await Self.collect(HomeplusSource(), brands: [.homeplus, .homeplusExpress], from: clean)
    clean.stop()
    let cached = try Self.server(host: "my.homeplus.co.kr", ignoringQuery: true)
    let cachedRead = await Self.collect(HomeplusSource(), brands: [.homeplus, .homeplusExpress], from: cached)
    cached.stop()
    let cleanByID = Dictionary(uniqueKeysWithValues: try cleanRead.branches.get().map { ($0.id, $0) })
    let branches = try cachedRead.branches.get()
    #expect(branches.map(\.id) == (try cleanRead.branches.get()).map(\.id))
    // Each store is read as cleanly, or from the list alone: never from another store's page.
    let wrong = branches.filter { cleanByID[$0.id] != $0 && $0.sourceURL != Self.homeplusList }
    #expect(wrong.isEmpty, "\(wrong.map(\.id))")
    #expect(branches.filter { $0.sourceURL == Self.homeplusList }.count >= 38)
  }

  @Test func homeplusPagesThatAreAllOneAnswerAreBelievedForNone() async throws {
    // Pages without a title cannot name their store: served all alike, none is believed.
    let folder = try Self.copyOfRecordings("my.homeplus.co.kr")
    defer { try? FileManager.default.removeItem(at: folder) }
    let site = folder.appendingPathComponent("my.homeplus.co.kr")
    let page = try String(contentsOf: site.appendingPathComponent("store_detail-595.body.html"), encoding: .utf8)
    let untitled = page.replacingOccurrences(of: "<title>홈플러스 창원점 | 매장안내 | 홈플러스</title>", with: "")
    #expect(untitled != page)
    for name in try FileManager.default.contentsOfDirectory(atPath: site.path)
    where name.hasPrefix("store_detail-") && name.hasSuffix(".body.html") {
      try Data(untitled.utf8).write(to: site.appendingPathComponent(name))
    }
    let server = try Self.server(host: "my.homeplus.co.kr", folder: folder, ignoringQuery: false)
    defer { server.stop() }
    let read = await Self.collect(HomeplusSource(), brands: [.homeplus, .homeplusExpress], from: server)
    let branches = try read.branches.get()
    #expect(branches.count == 40)
    #expect(branches.allSatisfy { $0.sourceURL == Self.homeplusList }, "\(branches.filter { $0.sourceURL != Self.homeplusList }.map(\.id))")
    #expect(read.warnings.contains { $0.contains("the same answer as") }, "\(read.warnings)")
  }

  @Test func homeplusTitleNamingAnotherStoreIsAMismatchAndNoMapLinkIsNeeded() throws {
    let page = try FixturePaths.data("web/my.homeplus.co.kr/store_detail-1201.body.html")
    #expect(page.range(of: Data("store_map".utf8)) == nil)
    let response = HTTPResponse(
      requestURL: "https://my.homeplus.co.kr/store/store_detail?storId=1202", finalURL: "", status: 200, headers: [],
      body: page)
    let other = RawBranch(id: BranchID(brand: .homeplusExpress, storeID: "1202"), name: "상도점", sourceURL: "")
    #expect(HomeplusSource.storePageMismatch(response, listed: other)?.contains("망원점") == true)
    let own = RawBranch(id: BranchID(brand: .homeplusExpress, storeID: "1201"), name: "망원점", sourceURL: "")
    #expect(HomeplusSource.storePageMismatch(response, listed: own) == nil)
    #expect(HomeplusSource.titleStoreName(in: Data("<title>홈플러스</title>".utf8)) == nil)
    #expect(HomeplusSource.titleStoreName(in: Data("<title>매장안내 | 홈플러스</title>".utf8)) == nil)
  }

  // MARK: Lotte ON

  /// A server for a generated Lotte ON web of `stores` stores, answering by path alone when
  /// `ignoringQuery`.
  static func lotteOnServer(stores: Int, ignoringQuery: Bool) throws -> LocalHTTPServer {
    let generator = LotteSuperSampleGenerator(mix: BrandMix(counts: [.lotteSuper: stores]), asOf: asOf)
    var random = SeededRandom(seed: 7)
    let index = RecordingIndex(ReplayArchive(exchanges: generator.exchanges(&random).map(\.exchange)))
    let cache = Mutex<[String: ServerResponse]>([:])
    return try LocalHTTPServer { request in
      if ignoringQuery, let cached = cache.withLock({ $0[request.path] }) { return cached }
      guard let exchange = index.match(request, host: "www.lotteon.com") else { return .text("none\n", status: 404) }
      let response = ServerResponse(status: exchange.status, headers: exchange.headers, body: exchange.body)
      if ignoringQuery, request.path.hasSuffix("selectHolidayList") {
        cache.withLock { $0[request.path] = $0[request.path] ?? response }
      }
      return response
    }
  }

  @Test func lotteSuperHolidayListsThatAreAllOneAnswerFailTheSource() async throws {
    let clean = try Self.lotteOnServer(stores: 40, ignoringQuery: false)
    let cleanRead = await Self.collect(LotteSuperSource(), brands: [.lotteSuper], from: clean)
    clean.stop()
    // Forty stores' holiday lists differ somewhere (weekday districts): a clean read believes them.
    let cleanBranches = try cleanRead.branches.get()
    #expect(cleanBranches.count == 40)
    #expect(Set(cleanBranches.map(\.closingDates)).count > 1)
    let cached = try Self.lotteOnServer(stores: 40, ignoringQuery: true)
    defer { cached.stop() }
    let cachedRead = await Self.collect(LotteSuperSource(), brands: [.lotteSuper], from: cached)
    guard case .failure(let error) = cachedRead.branches else {
      Issue.record("a cache that answers every store alike was believed: \(cachedRead.branches)")
      return
    }
    #expect(error.description.contains("one answer"), "\(error)")
  }

  @Test func lotteSuperStoresSharingTheirDaysAreBelieved() async throws {
    // The recordings' seven stores: three share one answer (2nd/4th Wednesday), two another
    // (2nd/4th Sunday).
    let server = try Self.server(host: "www.lotteon.com", ignoringQuery: false)
    defer { server.stop() }
    let branches = try await Self.collect(LotteSuperSource(), brands: [.lotteSuper], from: server).branches.get()
    for id in ["5010", "5031"] {
      #expect(branches.first { $0.id.storeID == id }?.closingDates.map(\.iso) == ["2026-11-08", "2026-11-22"], "\(id)")
    }
    for id in ["5023", "5044", "5089"] {
      #expect(branches.first { $0.id.storeID == id }?.closingDates.map(\.iso) == ["2026-11-11", "2026-11-25"], "\(id)")
    }
  }

  @Test func lotteOnHolidayRowsCarryNoStoreCode() throws {
    for file in try FileManager.default.contentsOfDirectory(
      atPath: FixturePaths.web.appendingPathComponent("www.lotteon.com").path)
    where file.hasPrefix("selectHolidayList") && file.hasSuffix(".body.json") {
      let body = try FixturePaths.data("web/www.lotteon.com/\(file)")
      #expect(body.range(of: Data("strCd".utf8)) == nil, "\(file)")
    }
  }

  /// A holiday answer is read once, for its check and its dates: the reading says a store list
  /// page is not a holiday list, and gives the dates the parser gives, also for answers its
  /// fast reader declines (a byte-order mark) or that do not read at all.
  @Test func lotteSuperHolidayAnswersAreReadOnceForTheirCheckAndTheirDates() throws {
    func reading(_ body: String) -> LotteSuperSource.HolidayListReading {
      LotteSuperSource.HolidayListReading(
        HTTPResponse(
          requestURL: "https://www.lotteon.com/p/lotteplus/holiday/selectHolidayList?trNo=1", finalURL: "",
          status: 200, headers: [], body: Data(body.utf8)))
    }
    let store = LotteSuperSource.Store(code: "5010", publishedName: "E다산역점")
    let storeList = reading(#"{"storeInfo":[{"sstrCd":"5023","strNm":"G속초조양점"}]}"#)
    #expect(LotteSuperSource.holidayListMismatch(storeList, store: store)?.contains("store list") == true)
    for body in [
      #"{"holidayList":[{"holidayDate":"20261122"},{"holidayDate":"20261108"},{"holidayDate":"미정"}]}"#,
      "\u{FEFF}" + #"{"holidayList":[{"holidayDate":"20261111"}]}"#, #"{"holidayList":null}"#, "{}",
    ] {
      let read = reading(body)
      #expect(LotteSuperSource.holidayListMismatch(read, store: store) == nil, "\(body)")
      let parsed = try LotteSuperSource.parseHolidayList(Data(body.utf8), url: "u")
      #expect(try read.holidays.get() == parsed, "\(body)")
    }
    let one = try reading(#"{"holidayList":[{"holidayDate":"20261122"}]}"#).holidays.get()
    #expect(one.dates.map(\.iso) == ["2026-11-22"])
    #expect(throws: SourceError.self) { try reading(#"{"holidayList":"#).holidays.get() }
  }

  // MARK: E-mart

  /// 노브랜드 store pages (`view.do?id=`) carry no name of their store that the check can rest
  /// on: behind a cache that answers every store page with the first one, no store takes
  /// another store's phone, and every store's days are the clean read's.
  @Test func nobrandStorePagesBehindACacheIgnoringTheQueryGiveNoStoreAnotherStoresPhone() async throws {
    let clean = try Self.server(host: "store.emart.com", ignoringQuery: false)
    let cleanRead = await Self.collect(EmartSource(), brands: [.nobrand], from: clean)
    clean.stop()
    let index = RecordingIndex(try ReplayArchive.load(from: FixturePaths.web).restricted(toHosts: ["store.emart.com"]))
    let firstPage = Mutex<ServerResponse?>(nil)
    let cached = try LocalHTTPServer { request in
      let isStorePage = request.path.hasSuffix("/branch/view.do")
      if isStorePage, let page = firstPage.withLock({ $0 }) { return page }
      guard let exchange = index.match(request, host: "store.emart.com") else { return .text("no recording\n", status: 404) }
      let response = ServerResponse(
        status: exchange.status, headers: exchange.headers.filter { $0.name.lowercased() != "content-encoding" },
        body: exchange.body)
      if isStorePage { firstPage.withLock { $0 = $0 ?? response } }
      return response
    }
    let cachedRead = await Self.collect(EmartSource(), brands: [.nobrand], from: cached)
    cached.stop()
    let cleanBranches = try cleanRead.branches.get()
    let branches = try cachedRead.branches.get()
    #expect(branches.map(\.id) == cleanBranches.map(\.id))
    #expect(cleanBranches.filter { $0.phone != nil }.count >= 2)
    let cleanByID = Dictionary(uniqueKeysWithValues: cleanBranches.map { ($0.id, $0) })
    // The first page answers for its own store alone: every other store's phone is its own
    // (from its list row) or none.
    for branch in branches {
      #expect(branch.phone == nil || branch.phone == cleanByID[branch.id]?.phone, "\(branch.id): \(branch.phone ?? "")")
      #expect(branch.closingDates == cleanByID[branch.id]?.closingDates, "\(branch.id)")
    }
    #expect(branches.filter { $0.phone == nil }.count >= branches.count - cleanBranches.filter { $0.phone != nil }.count)
    #expect(cachedRead.warnings.contains { $0.contains("phone not read") }, "\(cachedRead.warnings)")
  }
}
