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

  /// Each generator writes a listed source's sites, and no source has two.
  @Test func everyGeneratorWritesOneListedSource() {
    let names = SampleGenerators.all.map { $0.source.name }
    #expect(Set(names).count == names.count)
    #expect(names == BrandSources.all.map(\.name).filter(names.contains))
    #expect(SampleGenerators.generator(for: .costco)?.source.name == CostcoSource.name)
    #expect(SampleGenerators.generator(for: "nowhere") == nil)
  }

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

  @Test func theNationalMixCoversEveryBrandOfTheBench() {
    let mix = BrandMix.national(total: 10_000)
    #expect(mix.total == 10_000)
    #expect(Set(mix.counts.keys) == Set(SampleGenerators.brands))
    forEachCase(SampleGenerators.brands, named: \.rawValue) { brand, comment in
      #expect(mix.count(brand) >= 1, comment)
    }
    // Proportions follow the registry: 롯데슈퍼 (about 240 stores) outnumbers 메가마트 (about 11).
    #expect(mix.count(.lotteSuper) > 10 * mix.count(.megamart))
  }
}
