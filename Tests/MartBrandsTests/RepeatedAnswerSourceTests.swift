import Foundation
import MartCore
import MartFetch
import MartReplay
import ReplayTestSupport
import TestSupport
import Testing

@testable import MartBrands

/// Sources read through a real libcurl client from a loopback server that sends each recorded
/// answer twice on its kept-alive connections: every branch read is the one a clean read
/// gives, or the source fails; never another store's days.
@Suite(.serialized)
struct RepeatedAnswerSourceTests {
  static let asOf = CalendarDate(year: 2026, month: 11, day: 20)!

  /// A loopback server for `host`'s recordings, sending every answer twice (the copy after
  /// `delay`) unless `delay` is nil.
  static func server(host: String, repeatingAfter delay: Duration?) throws -> LocalHTTPServer {
    let index = RecordingIndex(try ReplayArchive.load(from: FixturePaths.web).restricted(toHosts: [host]))
    return try LocalHTTPServer { request in
      guard let exchange = index.match(request, host: host) else { return .text("no recording\n", status: 404) }
      let response = ServerResponse(
        status: exchange.status, headers: exchange.headers.filter { $0.name.lowercased() != "content-encoding" },
        body: exchange.body)
      return delay.map { response.delivered(by: RepeatedAnswer(delay: $0)) } ?? response
    }
  }

  /// What `source` reads of `brands` through `fetcher`, and its warnings.
  static func collect(
    _ source: any BrandSource, brands: Set<BrandSlug>, fetcher: any HTTPFetching
  ) async throws -> (branches: [RawBranch], warnings: [String]) {
    let session = SourceSession(for: type(of: source), fetcher: fetcher, asOf: asOf, brands: brands)
    let branches = try await source.collect(session)
    return (branches, session.warnings.map(\.description))
  }

  static let cases: [(any BrandSource, String, Set<BrandSlug>)] = [
    (HomeplusSource(), "my.homeplus.co.kr", [.homeplus, .homeplusExpress]),
    (LotteSuperSource(), "www.lotteon.com", [.lotteSuper]),
    (LotteDowaSource(), "company.lottemart.com", Set(LotteDowaSource.brands)),
    (EmartSource(), "store.emart.com", Set(EmartSource.brands)),
  ]

  @Test(arguments: [Duration.zero, .milliseconds(40)], [0, 1, 2, 3])
  func everyBranchReadIsTheOneACleanReadGives(delay: Duration, caseIndex: Int) async throws {
    let (source, host, brands) = Self.cases[caseIndex]
    func read(repeating: Bool) async throws -> (branches: [RawBranch], warnings: [String]) {
      let server = try Self.server(host: host, repeatingAfter: repeating ? delay : nil)
      defer { server.stop() }
      let fetcher = OriginRedirectingFetcher(
        wrapping: CurlHTTPClient(), overrides: [type(of: source).origin: server.baseURL])
      return try await Self.collect(source, brands: brands, fetcher: fetcher)
    }
    let clean = try await read(repeating: false)
    let repeated = try await read(repeating: true)
    let cleanByID = Dictionary(uniqueKeysWithValues: clean.branches.map { ($0.id, $0) })
    let differing = repeated.branches.filter { cleanByID[$0.id] != $0 }
    #expect(differing.isEmpty, "read otherwise than cleanly: \(differing.map(\.id)); warnings: \(repeated.warnings)")
    #expect(
      repeated.branches.map(\.id) == clean.branches.map(\.id),
      "missing: \(Set(clean.branches.map(\.id)).subtracting(repeated.branches.map(\.id))), extra: \(Set(repeated.branches.map(\.id)).subtracting(clean.branches.map(\.id))); warnings: \(repeated.warnings)"
    )

    // What an answer warned about is said once: the warnings of an asking whose answer was asked
    // again go with that answer. (A mismatch, noted as it happens, is the one addition.)
    func counts(_ warnings: [String]) -> [String: Int] {
      // The two servers listen on different ports, which failures name.
      let named = warnings.filter { !$0.contains("asked again") }.map {
        $0.replacing(/127\.0\.0\.1:[0-9]+/, with: "127.0.0.1")
      }
      return Dictionary(named.map { ($0, 1) }, uniquingKeysWith: +)
    }
    let cleanCounts = counts(clean.warnings)
    let saidMoreOften = counts(repeated.warnings).filter { $0.value > cleanCounts[$0.key, default: 0] }
    #expect(saidMoreOften.isEmpty, "said more often than in a clean read: \(saidMoreOften)")
  }

  @Test func anAnswerThatIsNeverThePageFailsTheRequestNamingTheMismatch() async throws {
    let server = try LocalHTTPServer { _ in .text("page 1") }
    defer { server.stop() }
    let session = SourceSession(
      baseURL: server.baseURL, fetcher: CurlHTTPClient(), asOf: Self.asOf, brands: [], sourceName: "test")
    let error = await #expect(throws: SourceError.self) {
      try await session.get("/page/2") { String(decoding: $0.body, as: UTF8.self) == "page 2" ? nil : "page 1, not 2" }
    }
    #expect(error?.description.contains("page 1, not 2") == true)
    #expect(error?.url == server.baseURL + "/page/2")
    #expect(session.warnings.count == SourceSession.askingsPerMismatchedAnswer)
    // The first asking on a kept-alive connection, the others on one each.
    #expect(server.acceptedConnections == SourceSession.askingsPerMismatchedAnswer)
  }

  @Test func aHomeplusStorePageNamingAnotherStoreIsAMismatch() throws {
    let page = try FixturePaths.data("web/my.homeplus.co.kr/store_detail-1201.body.html")
    let response = HTTPResponse(
      requestURL: "https://my.homeplus.co.kr/store/store_detail?storId=1202", finalURL: "", status: 200, headers: [],
      body: page)
    let listed = RawBranch(id: BranchID(brand: .homeplusExpress, storeID: "1202"), name: "상도점", sourceURL: "")
    let mismatch = try #require(HomeplusSource.storePageMismatch(response, listed: listed))
    #expect(mismatch.contains("망원점"))
    let own = RawBranch(id: BranchID(brand: .homeplusExpress, storeID: "1201"), name: "망원점", sourceURL: "")
    #expect(HomeplusSource.storePageMismatch(response, listed: own) == nil)
  }
}
