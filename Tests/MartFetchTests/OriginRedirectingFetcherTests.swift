import Foundation
import MartFetch
import MartReplay
import Testing

@Suite(.serialized) struct OriginRedirectingFetcherTests {
  @Test func sendsToTheOverrideAndReportsTheRealURL() async throws {
    let mirror = try LocalHTTPServer { request in .text("\(request.method) \(request.path)?\(request.query)") }
    defer { mirror.stop() }
    let fetcher = OriginRedirectingFetcher(
      wrapping: CurlHTTPClient(), overrides: ["https://store.emart.com": mirror.baseURL + "/"])

    let response = try await fetcher.fetch(.get("https://store.emart.com/branch/holidayList.do?year=2026&month=11"))
    #expect(String(decoding: response.body, as: UTF8.self) == "GET /branch/holidayList.do?year=2026&month=11")
    #expect(response.requestURL == "https://store.emart.com/branch/holidayList.do?year=2026&month=11")
    #expect(response.finalURL.hasPrefix(mirror.baseURL))
  }

  @Test func leavesOtherOriginsAlone() async throws {
    let mirror = try LocalHTTPServer { _ in .text("mirror") }
    let other = try LocalHTTPServer { _ in .text("other") }
    defer {
      mirror.stop()
      other.stop()
    }
    // An origin that merely starts with the overridden one is a different origin.
    let fetcher = OriginRedirectingFetcher(
      wrapping: CurlHTTPClient(), overrides: [String(other.baseURL.dropLast()): mirror.baseURL])
    let response = try await fetcher.fetch(.get(other.baseURL + "/x"))
    #expect(String(decoding: response.body, as: UTF8.self) == "other")
  }

  @Test func aPartOfASiteCanGoElsewhereThanTheRest() async throws {
    let site = try LocalHTTPServer { request in .text("site \(request.path)") }
    let part = try LocalHTTPServer { request in .text("part \(request.path)") }
    defer {
      site.stop()
      part.stop()
    }
    let fetcher = OriginRedirectingFetcher(
      wrapping: CurlHTTPClient(),
      overrides: [
        "http://company.lottemart.com": site.baseURL,
        "http://company.lottemart.com/mobiledowa": part.baseURL + "/mobiledowa",
      ])
    func body(_ url: String) async throws -> String {
      String(decoding: try await fetcher.fetch(.get(url)).body, as: UTF8.self)
    }
    #expect(
      try await body("http://company.lottemart.com/mobiledowa/market/search_shop.asp")
        == "part /mobiledowa/market/search_shop.asp")
    #expect(
      try await body("http://company.lottemart.com/shop/shop_search_type.asp") == "site /shop/shop_search_type.asp")
    // A path that merely starts with the part's is not in it.
    #expect(try await body("http://company.lottemart.com/mobiledowax") == "site /mobiledowax")
  }

  @Test func errorsNameTheRealURLAndWhereTheRequestWent() async throws {
    let closed = try LocalHTTPServer { _ in .text("") }
    let deadBase = closed.baseURL
    closed.stop()
    let fetcher = OriginRedirectingFetcher(wrapping: CurlHTTPClient(), overrides: ["https://store.emart.com": deadBase])
    do {
      _ = try await fetcher.fetch(.get("https://store.emart.com/branch/searchList.do"))
      Issue.record("a request to a closed port succeeded")
    } catch {
      #expect(error.url == "https://store.emart.com/branch/searchList.do")
      #expect(error.message.contains(deadBase))
    }
  }
}
