import Foundation
import MartCore
import MartExport
import Testing

/// The Markdown diff keeps any limit from 1,000 bytes up, with removals, stale brands and
/// districts before the branches' detail.
@Suite struct MarkdownDiffLimitTests {
  /// Three stores of three chains (independent sources) in each of `count` districts, all
  /// keeping `text`; with `extra` stores more of the first chain.
  static func branches(districts count: Int, text: String, extra: Int = 0) -> [Branch] {
    let schedule = ClosingSchedule.parse(text, asOf: ExportFixtures.asOf)
    var result: [Branch] = []
    for district in 0..<count {
      let sigungu = "가상\(district)구"
      for brand in [BrandSlug.emart, BrandSlug.lottemart, BrandSlug.homeplus] {
        result.append(
          Branch(
            id: BranchID(brand: brand, storeID: "\(1000 + district)"), name: "가상\(district)점",
            address: BranchAddress(published: "서울특별시 \(sigungu) 가상로 1", sido: "서울특별시", sigungu: sigungu),
            phone: nil, phonePublished: nil, openingHours: nil, coordinate: nil,
            closing: BranchClosing(schedule: schedule, window: ExportFixtures.window),
            sourceURL: "https://example.com/\(district)"))
      }
    }
    for index in 0..<extra {
      result.append(ExportFixtures.branch(.emart, "\(9000 + index)", name: "사라질\(index)점", text: text))
    }
    return result
  }

  /// 28 districts move from the 2nd and 4th Sundays to the 2nd and 4th Wednesdays, three
  /// stores are removed and one brand is stale since the day before (the two fresh chains
  /// still make the districts' evidence).
  static func diff() -> BundleDiff {
    let old = branches(districts: 28, text: "매월 둘째·넷째 일요일", extra: 3)
    let new = branches(districts: 28, text: "매월 둘째·넷째 수요일")
    let yesterday = ExportFixtures.asOf.adding(days: -1)
    let brands = [
      BrandSummary(slug: BrandSlug.emart, name: "이마트", branchCount: 28, freshness: .fresh, lastFetchedAsOf: nil),
      BrandSummary(
        slug: BrandSlug.lottemart, name: "롯데마트", branchCount: 28, freshness: .fresh, lastFetchedAsOf: yesterday),
      BrandSummary(slug: BrandSlug.homeplus, name: "홈플러스", branchCount: 28, freshness: .fresh, lastFetchedAsOf: nil),
    ]
    var newBrands = brands
    newBrands[1].freshness = .stale
    return BundleDiff(
      old: .init(version: "v", asOf: yesterday, window: ExportFixtures.window, brands: brands), oldBranches: old,
      new: .init(version: "w", asOf: ExportFixtures.asOf, window: ExportFixtures.window, brands: newBrands),
      newBranches: new, brandNames: ExportFixtures.names.merging([.homeplus: "홈플러스"]) { first, _ in first }
    ).withStaleBrandErrors([
      BrandSlug.lottemart: "lottemart: fetching http://company.lottemart.com/shop/ failed: answered HTTP/1.1 503"
    ])
  }

  @Test(arguments: [1_000, 1_200, 1_500, 2_000, 4_000, 60_000])
  func theHeadComesFirstAndTheLimitHolds(maxBytes: Int) throws {
    let diff = Self.diff()
    #expect(diff.districts.count == 28)
    #expect(diff.removed.count == 3)
    let markdown = try diff.markdown(maxBytes: maxBytes)
    #expect(markdown.utf8.count <= maxBytes, "\(markdown.utf8.count) bytes")
    // Every removal is named, the stale brand told, the districts' change said.
    for branch in diff.removed { #expect(markdown.contains("`\(branch.id)`"), "\(branch.id) in \(markdown)") }
    #expect(markdown.contains("- **newly stale** 롯데마트 (`lottemart`): stale since 2026-11-19 (1 day)"))
    #expect(markdown.contains("- **district-pattern** 2nd sunday, 4th sunday → 2nd wednesday, 4th wednesday: "))
    // The head comes before any branch's detail.
    let head = try #require(markdown.range(of: "**district-pattern**"))
    if let detail = markdown.range(of: "#### ") { #expect(head.upperBound < detail.lowerBound) }
    if maxBytes == 60_000 {
      #expect(!markdown.contains("Shortened"))
      #expect(markdown.contains("가상27구"))
    }
    if maxBytes <= 1_500 {
      #expect(markdown.contains("_Shortened to stay within \(maxBytes) bytes: "), "\(markdown)")
      #expect(markdown.contains("left out: "))
    }
  }

  /// A bad day: a hundred branches changed (five kinds of new closing days), three removed,
  /// and four brands stale with long reasons.
  static func badDay() -> BundleDiff {
    let texts = ["매월 둘째·넷째 수요일", "매월 둘째·넷째 월요일", "매월 둘째 일요일", "매월 10일", "매월 넷째 일요일"]
    var old: [Branch] = []
    var new: [Branch] = []
    for index in 0..<100 {
      old.append(ExportFixtures.branch("\(1000 + index)", name: "가상\(index)점", text: "매월 둘째·넷째 일요일"))
      new.append(ExportFixtures.branch("\(1000 + index)", name: "가상\(index)점", text: texts[index % texts.count]))
    }
    for index in 0..<3 {
      old.append(ExportFixtures.branch("\(2000 + index)", name: "사라질\(index)점", text: "매월 둘째·넷째 일요일"))
    }
    let yesterday = ExportFixtures.asOf.adding(days: -1)
    let stale: [(BrandSlug, String)] = [
      ("lottemart", "롯데마트"), ("homeplus", "홈플러스"), ("megamart", "메가마트"), ("costco", "코스트코"),
    ]
    let fresh = BrandSummary(slug: "emart", name: "이마트", branchCount: 100, freshness: .fresh, lastFetchedAsOf: nil)
    let before = [fresh] + stale.map {
      BrandSummary(slug: $0.0, name: $0.1, branchCount: 10, freshness: .fresh, lastFetchedAsOf: yesterday)
    }
    let now = [fresh] + stale.map {
      BrandSummary(
        slug: $0.0, name: $0.1, branchCount: 10, freshness: .stale, lastFetchedAsOf: ExportFixtures.asOf.adding(days: -9))
    }
    let reason = String(repeating: "the site answered a page that is not its store list; ", count: 10)
    return BundleDiff(
      old: .init(version: "v", asOf: yesterday, window: ExportFixtures.window, brands: before), oldBranches: old,
      new: .init(version: "w", asOf: ExportFixtures.asOf, window: ExportFixtures.window, brands: now),
      newBranches: new, brandNames: Dictionary(uniqueKeysWithValues: stale) .merging(["emart": "이마트"]) { first, _ in first }
    ).withStaleBrandErrors(Dictionary(uniqueKeysWithValues: stale.map { ($0.0, "\($0.0): \(reason)") }))
  }

  /// As the limit shrinks, the diff keeps the counts and every stale brand, and says what it
  /// left out: down to 1,000 bytes and below (this day needs about 810 at the least).
  @Test(arguments: [850, 1_000, 1_500, 3_000])
  func aBadDayFitsDownToItsCountsAndStaleBrands(maxBytes: Int) throws {
    let diff = Self.badDay()
    #expect(diff.changed.count == 100 && diff.removed.count == 3 && diff.staleBrands.count == 4)
    let markdown = try diff.markdown(maxBytes: maxBytes, jsonOption: "--format json")
    #expect(markdown.utf8.count <= maxBytes, "\(markdown.utf8.count) bytes: \(markdown)")
    #expect(markdown.contains("**0 added, 3 removed, 100 changed**"), "\(markdown)")
    for slug in ["lottemart", "homeplus", "megamart", "costco"] {
      #expect(markdown.contains("`\(slug)`"), "\(slug) in \(markdown)")
    }
    #expect(markdown.contains("stale since 2026-11-11") || markdown.contains("since 2026-11-11 (9 days)"))
    #expect(markdown.contains("_Shortened to stay within \(maxBytes) bytes: "), "\(markdown)")
    #expect(markdown.contains("(`--format json`) has every change"))
    if maxBytes <= 1_000 {
      #expect(markdown.contains("left out: "), "\(markdown)")
      #expect(markdown.contains("why the stale brands failed"), "\(markdown)")
    }
  }
}
