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
