import Foundation
import MartCore
import MartFetch

extension LotteDowaSource {
  /// The answer to `request`, the search page of `area`, checked by ``areaMismatch(_:area:)``;
  /// a page without stores shows no area, so it is believed only from a fresh connection.
  static func searchPage(
    _ request: HTTPRequest, area: String, _ session: SourceSession
  ) async throws(SourceError) -> HTTPResponse {
    try await session.send(
      request, answering: { areaMismatch($0, area: area) },
      unproven: { page in !page.body.contains(Data("shop-tit".utf8)) })
  }

  /// Why `page` is not the search page of `area`, or nil when it may be: the page's stores are
  /// read and their addresses' first words (`서울`, `경기도`, …) name the province each is in; a
  /// page with stores placed in provinces but none in `area`'s is another area's page. `기타`
  /// (제주 and what fits no other area) and pages whose addresses name no province are not
  /// checked; a page that does not read passes (its reader then says what is wrong).
  static func areaMismatch(_ page: HTTPResponse, area: String) -> String? {
    guard let asked = Province(alias: area), !isBlank(page.body) else { return nil }
    let stores: [Store]
    do {
      stores = try parseSearchPage(page.body, url: page.requestURL, charset: page.charset)
    } catch {
      return nil
    }
    let provinces = stores.compactMap { store -> Province? in
      guard let firstWord = store.address?.split(whereSeparator: \.isWhitespace).first else { return nil }
      return Province(alias: String(firstWord))
    }
    guard let other = provinces.first, !provinces.contains(asked) else { return nil }
    return "m_area=\(area) answered \(stores.count) stores, none in \(asked.officialName) (the first in \(other.officialName))"
  }
}
