import Foundation
import MartBrands
import MartCore
import MartExport
import MartFetch
import MartGeocoding
import MartPipeline
import Testing

/// The pipeline's stages one at a time, on hand-made inputs.
@Suite struct StageTests {
  let asOf = CalendarDate(iso: "2026-11-20")!

  func raw(_ brand: BrandSlug, _ storeID: String, name: String = "점") -> RawBranch {
    RawBranch(id: BranchID(brand: brand, storeID: storeID), name: name, sourceURL: "https://example.com/")
  }

  func branch(_ brand: BrandSlug, _ storeID: String) -> Branch {
    let normalizer = BranchNormalizer(day: RunDay(asOf: asOf))
    var problems = RunProblems()
    return normalizer.normalize(raw(brand, storeID), problems: &problems).0
  }

  @Test func selectionSplitsRequestedBrandsBySource() {
    let sources: [any BrandSource] = [EmartSource(), LotteMartSource()]
    let all = BrandSelection(asked: [], sources: sources)
    #expect(all.requested == (EmartSource.brands + LotteMartSource.brands).sorted())
    #expect(all.unsourced.isEmpty)

    let some = BrandSelection(asked: [.traders, .costco], sources: sources)
    #expect(some.requested == [.traders])
    #expect(some.unsourced == [.costco])
    #expect(some.brands(of: EmartSource()) == [.traders])
    #expect(some.brands(of: LotteMartSource()).isEmpty)
    #expect(some.contains(.costco) && !some.contains(.emart))
  }

  @Test func admissionDropsRepeatedIdsWithAWarning() {
    let branches = [raw(.emart, "1"), raw(.emart, "2", name: "둘"), raw(.emart, "2", name: "셋")]
    let (admission, problems) = AdmitStage().admit(.emart, result: .success(branches), previous: PreviousBundle())
    guard case .fresh(let admitted) = admission else {
      Issue.record("expected fresh, got \(admission)")
      return
    }
    #expect(admitted.map(\.name) == ["점", "둘"])
    #expect(problems.warnings.map(\.kind) == [.duplicateBranch])
    #expect(problems.warnings.first?.branch == BranchID(brand: .emart, storeID: "2"))
    #expect(problems.errors.isEmpty)
  }

  @Test func aCollapsedCountIsCarriedOverFromTheLastBundle() {
    let lastFetched = CalendarDate(iso: "2026-10-01")!
    let previous = PreviousBundle(
      branches: [.emart: (1...10).map { branch(.emart, "\($0)") }],
      summaries: [
        .emart: BrandSummary(
          slug: .emart, name: "이마트", branchCount: 10, freshness: .fresh, lastFetchedAsOf: lastFetched)
      ])
    // 4 of 10 is below the default half.
    let (admission, problems) = AdmitStage().admit(
      .emart, result: .success((1...4).map { raw(.emart, "\($0)") }), previous: previous)
    guard case .carriedOver(let carried, let since, let reason) = admission else {
      Issue.record("expected a carry-over, got \(admission)")
      return
    }
    #expect(carried.count == 10)
    #expect(since == lastFetched)
    #expect(reason.contains("down from 10"))
    #expect(problems.warnings.map(\.kind) == [.brandStale])
  }

  @Test func aFailureWithNothingToKeepIsMissing() {
    let error = SourceError(source: "lottemart", url: "http://company.lottemart.com/", reason: .unexpectedContent("x"))
    let (admission, problems) = AdmitStage().admit(.lottemart, result: .failure(error), previous: PreviousBundle())
    #expect(admission == .missing(reason: error.description))
    #expect(problems.errors.map(\.kind) == [.brandFailed])
    #expect(problems.errors.first?.brand == .lottemart)
    // No rows at all is a failure too, never an empty brand.
    let (empty, _) = AdmitStage().admit(.lottemart, result: .success([]), previous: PreviousBundle())
    #expect(empty == .missing(reason: "the source returned no branches"))
  }

  @Test func normalizingKeepsABranchNoOneCanLocate() async {
    var placed = raw(.emart, "1")
    placed.coordinate = GeoPoint(latitude: 35.2, longitude: 128.6)
    let unplaced = raw(.emart, "2")
    let stage = NormalizeStage(
      normalizer: BranchNormalizer(day: RunDay(asOf: asOf)),
      geocoding: GeocodingChain(geocoders: [], cache: nil))
    let (branches, problems) = await stage.normalize([placed, unplaced])
    #expect(branches.map(\.id.storeID) == ["1", "2"])
    #expect(branches[0].coordinate?.source == .site)
    #expect(branches[1].coordinate == nil)
    #expect(problems.warnings.contains { $0.branch == unplaced.id && $0.kind == .location })
  }

  /// Normalizing in slices on several threads gives what one branch after another gives: the
  /// same branches and the same problems in the same order, across slice boundaries.
  @Test func normalizingInSlicesKeepsTheOrderOfBranchesAndProblems() async {
    let phones = ["055-211-1234", "00-000-0000", "not a phone", nil]
    let addresses = ["경상남도 창원시 의창구 원이대로 430", "서울 송파구 신천동 올림픽로 300", "어딘가 모를 곳 1층", nil]
    let texts = ["매월 둘째·넷째 일요일", "11/12(수), 11/26(수)", "설·추석 당일 휴무", "격주 화요일", nil]
    let raws = (0..<1_031).map { index in
      RawBranch(
        id: BranchID(brand: index % 3 == 0 ? .emart : .homeplus, storeID: String(index)), name: "\(index)호점",
        address: addresses[index % addresses.count], phone: phones[index % phones.count],
        coordinate: index % 5 == 0 ? GeoPoint(latitude: 126.9, longitude: 37.5) : nil,
        closingText: texts[index % texts.count], sourceURL: "https://example.com/")
    }
    let normalizer = BranchNormalizer(day: RunDay(asOf: asOf))
    let stage = NormalizeStage(normalizer: normalizer, geocoding: GeocodingChain(geocoders: [], cache: nil))
    let (branches, problems) = await stage.normalize(raws)

    // The reference: one branch at a time, each in a call of its own.
    var expectedProblems = RunProblems()
    var expected: [Branch] = []
    for raw in raws {
      let (one, found) = await stage.normalize([raw])
      expected += one
      expectedProblems.warnings += found.warnings
      expectedProblems.errors += found.errors
    }
    #expect(branches == expected)
    #expect(problems == expectedProblems)
    #expect(problems.warnings.count > 1_031)
  }

  @Test func problemsAlwaysWriteTheirFourKeys() throws {
    let problem = RunProblem(kind: .publish, message: "disk full")
    let json = try #require(
      try JSONSerialization.jsonObject(with: BundleJSON.encode([problem])) as? [[String: Any]])
    #expect(json.first?["brand"] is NSNull)
    #expect(json.first?["branch"] is NSNull)
    #expect(json.first?["kind"] as? String == "publish")
    #expect(json.first?["message"] as? String == "disk full")
    let named = RunProblem(branch: BranchID(brand: .traders, storeID: "1413"), kind: .location, message: "m")
    #expect(named.brand == .traders)
    #expect(named.description == "traders-1413: m")
  }
}
