import Foundation
import MartBrands
import MartCore
import MartFetch
import MartReplay
import TestSupport
import Testing

/// A list that claims more pages than a run reads fails naming the safety cap, not as
/// pagination that does not add up.
@Suite struct GSTheFreshPageCapTests {
  @Test func aListClaimingMorePagesThanTheCapNamesTheCap() async throws {
    let page = try FixturePaths.data("web/gsthefresh.gsretail.com/find-storelist-page-1.body.json")
    let claimed = Data(
      String(decoding: page, as: UTF8.self)
        .replacingOccurrences(of: "\"totalNumberOfResults\":18,\"numberOfPages\":6", with: "\"totalNumberOfResults\":3003,\"numberOfPages\":1001")
        .utf8)
    #expect(claimed != page)
    let server = try LocalHTTPServer { _ in ServerResponse(headers: [HTTPHeader("Content-Type", "application/json")], body: claimed) }
    defer { server.stop() }
    let session = SourceSession(
      baseURL: server.baseURL, fetcher: CurlHTTPClient(), asOf: CalendarDate(year: 2026, month: 11, day: 20)!,
      brands: [.gsTheFresh], sourceName: GSTheFreshSource.name)
    let error = await #expect(throws: SourceError.self) { try await GSTheFreshSource().collect(session) }
    #expect(error?.description.contains("safety cap of 1000 pages") == true, "\(String(describing: error))")
    #expect(error?.description.contains("inconsistent") == false)
  }
}
