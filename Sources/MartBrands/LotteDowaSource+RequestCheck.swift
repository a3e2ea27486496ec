import Foundation
import MartCore
import MartFetch

extension LotteDowaSource {
  /// The answer to `request`, the search page of `area`, checked by ``areaMismatch(of:area:)``;
  /// a page without stores shows no area, so it is believed only from a fresh connection. With
  /// the answer, its stores as ``parseSearchPage(_:url:charset:)`` reads them, nil for a blank
  /// page: the check reads each answer's stores, and the answer it lets through is not read again.
  static func searchPage(
    _ request: HTTPRequest, area: String, _ session: SourceSession
  ) async throws(SourceError) -> (page: HTTPResponse, stores: Result<[Store], SourceError>?) {
    var lastStores: Result<[Store], SourceError>?
    let page = try await session.send(
      request,
      answering: { page in
        lastStores = stores(of: page)
        return areaMismatch(of: lastStores, area: area)
      },
      unproven: { page in !page.body.contains(Data("shop-tit".utf8)) })
    return (page, lastStores)
  }

  /// The stores of `page` as ``parseSearchPage(_:url:charset:)`` reads them, or why it does not
  /// read; nil for a blank page.
  static func stores(of page: HTTPResponse) -> Result<[Store], SourceError>? {
    guard !isBlank(page.body) else { return nil }
    do {
      return .success(try parseSearchPage(page.body, url: page.requestURL, charset: page.charset))
    } catch {
      return .failure(error)
    }
  }

  /// Why a page whose stores read as `reading` (``stores(of:)``) is not the search page of
  /// `area`, or nil when it may be: the addresses' first words (`서울`, `경기도`, …) name the
  /// province each store is in; a page with stores placed in provinces but none in `area`'s is
  /// another area's page, and a `기타` page (제주 and what fits no named area) whose stores all
  /// lie in named areas is too. Pages whose addresses name no province pass, as do a blank page
  /// and a page that does not read (its reader then says what is wrong).
  static func areaMismatch(of reading: Result<[Store], SourceError>?, area: String) -> String? {
    guard case .success(let stores)? = reading else { return nil }
    let regions = stores.compactMap { store in
      store.address?.split(whereSeparator: Trimming.isWhitespace).first.flatMap { region(String($0)) }
    }
    guard let asked = region(area) else {
      // `기타` holds what no named area does: a page whose stores all lie in named areas is not it.
      let named = Set(areas.compactMap(region))
      guard let first = regions.first, regions.count == stores.count, regions.allSatisfy(named.contains) else {
        return nil
      }
      return "m_area=\(area) answered \(stores.count) stores, all in named areas (the first in \(first))"
    }
    guard let other = regions.first, !regions.contains(asked) else { return nil }
    return "m_area=\(area) answered \(stores.count) stores, none in \(asked) (the first in \(other))"
  }

  /// The area a word names as the area picker tells them apart: its province, but 광주 and 전남
  /// apart (one province since 2026-07-01, two areas of the picker); nil for other words, and for
  /// the merged province's own names (`전남광주통합특별시`, `전남광주특별시`, `광주특별시`), which
  /// an address of either area may be written with.
  static func region(_ word: String) -> String? {
    guard let province = Province(alias: word) else { return nil }
    guard province == .jeonnamGwangju else { return province.officialName }
    if word.hasPrefix("전남광주") || word.hasPrefix("광주전남") || word.hasPrefix("광주특별시") { return nil }
    return word.hasPrefix("광주") ? "광주" : "전남"
  }
}
