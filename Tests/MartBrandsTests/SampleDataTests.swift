import Foundation
import MartBench
import MartBrands
import MartCore
import MartFetch
import MartReplay
import TestSupport
import Testing

/// Answers requests from generated exchanges, matched as the replay server matches them.
struct GeneratedFetcher: HTTPFetching {
  let archive: ReplayArchive

  func fetch(_ request: HTTPRequest) async throws(FetchError) -> HTTPResponse {
    guard let exchange = archive.match(request) else {
      return HTTPResponse(requestURL: request.url, finalURL: request.url, status: 404, headers: [], body: Data())
    }
    return exchange.response(to: request.url)
  }
}

/// What the bench's generators write is what the sources read: each brand's branches, as many
/// as asked for.
@Suite("Sample data")
struct SampleDataTests {
  static let asOf = CalendarDate(year: 2026, month: 11, day: 20)!

  @Test func everySourceReadsBackWhatItsGeneratorWrote() async throws {
    let mix = BrandMix(counts: Dictionary(uniqueKeysWithValues: KnownBrands.entries.map { ($0.slug, 7) }))
    var random = SeededRandom(seed: 42)
    for generatorType in SampleGenerators.all {
      let source = try #require(BrandSources.all.first { $0.name == generatorType.source.name })
      let exchanges = generatorType.init(mix: mix, asOf: Self.asOf).exchanges(&random).map(\.exchange)
      let fetcher = GeneratedFetcher(archive: ReplayArchive(exchanges: exchanges))
      let session = SourceSession(
        for: type(of: source), fetcher: fetcher, asOf: Self.asOf, brands: Set(source.brands))
      let branches = try await source.collect(session)
      let counts = Dictionary(grouping: branches, by: \.id.brand).mapValues(\.count)
      for brand in source.brands {
        #expect(counts[brand] == 7, "\(source.name): \(brand.rawValue) read \(counts[brand] ?? 0) of 7")
      }
    }
  }

  @Test func theNationalMixCoversEveryRegisteredBrand() {
    let mix = BrandMix.national(total: 10_000)
    #expect(mix.total == 10_000)
    forEachCase(KnownBrands.entries, named: \.slug.rawValue) { entry, comment in
      #expect(mix.count(entry.slug) >= 1, comment)
    }
    // Proportions follow the registry: 롯데슈퍼 (about 240 stores) outnumbers 메가마트 (about 11).
    #expect(mix.count(.lotteSuper) > 10 * mix.count(.megamart))
  }
}
