import Foundation
import MartBrands
import MartCore
import MartFetch
import MartReplay
import TestSupport
import Testing

/// Adding a brand is its source file (with its slug), one registry line and its fixtures: a
/// registered brand that lacks one of them fails here.
@Suite("KnownBrands")
struct KnownBrandsTests {
  @Test func everyRegisteredBrandHasANameASourceAndFixtures() throws {
    let recorded = Set(try ReplayArchive.load(from: FixturePaths.web).exchanges.map { URLParts($0.url).origin })
    forEachCase(KnownBrands.entries, named: \.slug.rawValue) { entry, comment in
      #expect(BrandSlug.isWellFormed(entry.slug.rawValue), comment)
      #expect(!entry.brand.koreanName.trimmingCharacters(in: .whitespaces).isEmpty, comment)
      // A name in Hangul (GS더프레시 mixes in Latin letters).
      #expect(entry.brand.koreanName.unicodeScalars.contains { (0xAC00...0xD7A3).contains($0.value) }, comment)
      #expect(entry.source.brands.contains(entry.slug), comment)
      #expect(BrandSources.all.contains { type(of: $0) == entry.source }, comment)
      #expect(
        recorded.contains(entry.source.origin), "\(comment): no recording of \(entry.source.origin) under fixtures/web")
    }
  }

  @Test func everySourceBrandIsRegisteredOnce() throws {
    let registered = KnownBrands.entries.map(\.slug)
    #expect(Set(registered).count == registered.count)
    let served = BrandSources.all.flatMap(\.brands)
    #expect(Set(served).count == served.count)
    #expect(Set(served) == Set(registered))
    // Every registered brand has its recordings' count in fixtures/branch-counts.json, and no other.
    #expect(Set(KnownBrands.all.map(\.slug.rawValue)) == Set(try FixturePaths.branchCounts().keys))
  }

  /// The sites of brand-sources.md: store.emart.com publishes E-mart's four brands,
  /// my.homeplus.co.kr 홈플러스 and its Express, company.lottemart.com 롯데마트 (the store finder)
  /// and the formats of its 도와센터 (/mobiledowa); every other brand has a site of its own.
  @Test func brandsOfOneSiteAreOneIndependentSource() {
    let sources = KnownBrands.independentSources
    #expect(Set(sources.keys) == Set(KnownBrands.entries.map(\.slug)))
    let grouped = Dictionary(grouping: sources.keys.map(\.rawValue), by: { sources[BrandSlug(rawValue: $0)!]! })
      .mapValues { $0.sorted() }
    #expect(
      grouped == [
        "store.emart.com": ["emart", "everyday", "nobrand", "traders"],
        "my.homeplus.co.kr": ["homeplus", "homeplus-express"],
        "company.lottemart.com": ["bottle-bunker", "grand-grocery", "lotte-maxx", "lottemart", "toysrus"],
        "www.lotteon.com": ["lotte-super"],
        "home.megamart.com": ["megamart"],
        "www.costco.co.kr": ["costco"],
        "gsthefresh.gsretail.com": ["gs-thefresh"],
      ])
  }

  @Test func slugsAreLowerCaseWordsJoinedByHyphens() {
    let table: [(String, Bool)] = [
      ("emart", true), ("homeplus-express", true), ("lotte-maxx", true), ("", false), ("Emart", false),
      ("lotte--maxx", false), ("-emart", false), ("emart-", false), ("gs_thefresh", false), ("mart1", false),
    ]
    forEachCase(table, named: \.0) { example, comment in
      #expect((BrandSlug(rawValue: example.0) != nil) == example.1, comment)
    }
  }
}
