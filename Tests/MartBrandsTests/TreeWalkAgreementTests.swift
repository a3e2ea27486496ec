import Foundation
import MartBench
import MartCore
import MartFetch
import MartReplay
import TestSupport
import Testing

@testable import MartBrands

/// The HTML parsers read every recorded page and every generated sample page exactly as their
/// XPath versions did (`XPathReference`): the same values, and a failure where those failed.
@Suite("Tree walk agrees with XPath")
struct TreeWalkAgreementTests {
  /// The recorded fixtures and a generated national sample of 1,000 branches.
  static let archives: [(name: String, archive: ReplayArchive)] = {
    var random = SeededRandom(seed: 20_261_120)
    let asOf = CalendarDate(year: 2026, month: 11, day: 20)!
    var generated: [RecordedExchange] = []
    for generator in SampleGenerators.all {
      generated += generator.init(mix: .national(total: 1_000), asOf: asOf).exchanges(&random).map(\.exchange)
    }
    var archives = [(name: "generated", archive: ReplayArchive(exchanges: generated))]
    if let recorded = try? ReplayArchive.load(from: FixturePaths.web) {
      archives.insert((name: "fixtures", archive: recorded), at: 0)
    }
    return archives
  }()

  /// Both results succeeded with equal values, or both failed.
  static func agree<Value: Equatable>(
    _ walked: () throws -> Value, _ reference: () throws -> Value, _ comment: Comment
  ) {
    switch (Result(catching: walked), Result(catching: reference)) {
    case (.success(let new), .success(let old)): #expect(new == old, comment)
    case (.failure, .failure): break
    case (let new, let old): Issue.record(Comment(rawValue: "\(comment.rawValue): walk \(new), XPath \(old)"))
    }
  }

  /// The exchanges of `archive` whose URL contains `marker`, with the charset they were served in.
  static func pages(_ archive: ReplayArchive, _ marker: String) -> [(url: String, body: Data, charset: String?)] {
    archive.exchanges.filter { $0.url.contains(marker) }.map { ($0.url, $0.body, $0.response(to: $0.url).charset) }
  }

  @Test func fixturesAreThere() throws {
    #expect(Self.archives.map(\.name) == ["fixtures", "generated"])
  }

  @Test(arguments: ["fixtures", "generated"])
  func lotteMartStoreList(_ name: String) throws {
    let archive = try #require(Self.archives.first { $0.name == name }?.archive)
    let pages = Self.pages(archive, "shop_search_type.asp")
    #expect(!pages.isEmpty)
    for page in pages {
      Self.agree(
        { try LotteMartSource.parseStoreList(page.body, url: page.url, charset: page.charset) },
        { try XPathReference.lotteMartStoreList(page.body, url: page.url, charset: page.charset) },
        Comment(rawValue: page.url))
    }
  }

  @Test(arguments: ["fixtures", "generated"])
  func homeplusStorePages(_ name: String) throws {
    let archive = try #require(Self.archives.first { $0.name == name }?.archive)
    let pages = Self.pages(archive, "/store/store_detail")
    #expect(!pages.isEmpty)
    for page in pages {
      Self.agree(
        { try HomeplusSource.parseDetail(page.body, url: page.url, charset: page.charset) },
        { try XPathReference.homeplusDetail(page.body, url: page.url, charset: page.charset) },
        Comment(rawValue: page.url))
    }
  }

  @Test(arguments: ["fixtures", "generated"])
  func emartStorePages(_ name: String) throws {
    let archive = try #require(Self.archives.first { $0.name == name }?.archive)
    let pages = Self.pages(archive, "/branch/view.do")
    #expect(!pages.isEmpty)
    for page in pages {
      Self.agree(
        { try EmartSource.parseDetailPhone(page.body, url: page.url, charset: page.charset) },
        { try XPathReference.emartDetailPhone(page.body, url: page.url, charset: page.charset) },
        Comment(rawValue: "phone \(page.url)"))
      Self.agree(
        { try EmartSource.parseStorePlace(page.body, url: page.url, charset: page.charset) },
        { try XPathReference.emartStorePlace(page.body, url: page.url, charset: page.charset) },
        Comment(rawValue: "place \(page.url)"))
    }
  }

  @Test(arguments: ["fixtures", "generated"])
  func lotteDowaSearchPages(_ name: String) throws {
    let archive = try #require(Self.archives.first { $0.name == name }?.archive)
    let pages = Self.pages(archive, "search_shop.asp")
    #expect(!pages.isEmpty)
    for page in pages {
      Self.agree(
        { try LotteDowaSource.parseSearchPage(page.body, url: page.url, charset: page.charset) },
        { try XPathReference.lotteDowaSearchPage(page.body, url: page.url, charset: page.charset) },
        Comment(rawValue: page.url))
    }
  }

  @Test(arguments: ["fixtures", "generated"])
  func costcoStoreContent(_ name: String) throws {
    let archive = try #require(Self.archives.first { $0.name == name }?.archive)
    var fragments = 0
    // The store finder's `storeContent` and the OCC API's `warehouseInformation`.
    let pages = Self.pages(archive, "/store-finder/search") + Self.pages(archive, "/rest/v2/korea/stores")
    for page in pages {
      let body = try #require(try JSONSerialization.jsonObject(with: page.body) as? [String: Any])
      for record in (body["data"] as? [[String: Any]] ?? []) + (body["stores"] as? [[String: Any]] ?? []) {
        guard let html = (record["storeContent"] ?? record["warehouseInformation"]) as? String else { continue }
        fragments += 1
        #expect(
          StoreContent(html: html, url: page.url).text == XPathReference.costcoContentText(html: html, url: page.url),
          Comment(rawValue: "\(page.url): \(record["name"] ?? "?")"))
      }
    }
    #expect(fragments > 0)
  }
}
