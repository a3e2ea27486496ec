import Foundation
import MartBrands
import MartCore
import MartExport
import MartFetch
import MartGeocoding
import MartPipeline
import PipelineTestSupport
import TestSupport
import Testing

/// The districts a replayed run over the recorded sites infers: real libcurl requests to the
/// replay server on 127.0.0.1, real parsing, the bundle as written and validated.
///
/// Weekdays from the calendar: 2026-11-01 is a Sunday, so November's Sundays are 1, 8, 15, 22,
/// 29 (2nd/4th: 11-08, 11-22); 2026-12-01 is a Tuesday, so December's Sundays are 6, 13, 20, 27
/// (12-13, 12-27) and 12-25 (성탄절) is a Friday; 2027-01-01 is a Friday, so January's Sundays
/// are 3, 10, 17, 24, 31 (01-10, 01-24).
@Suite(.serialized) struct DistrictRunTests {
  let asOf = ReplayedFixtures.asOf

  /// The process's one run over `fixtures/web` (``ReplayedFixtures``): its output, read only.
  func published() async throws -> (output: URL, report: RunReport) {
    let published = try await ReplayedFixtures.shared.published()
    #expect(
      published.result.unmatchedReplayRequests.isEmpty,
      "requests without a recording: \(published.result.unmatchedReplayRequests)")
    return (published.output, published.report)
  }

  static func days(_ isos: [String]) -> [CalendarDate] { isos.map { CalendarDate(iso: $0)! } }

  @Test func theRecordedChristmasSwapIsInDistrictsJSONAndMovesTheExpectedDays() async throws {
    let (output, report) = try await published()
    #expect(report.outcome == .published)
    let pointer = try BundleJSON.decode(
      LatestPointer.self, from: Data(contentsOf: output.appendingPathComponent("latest.json")))
    let bundle = output.appendingPathComponent(pointer.bundle)
    let published = try #require(try BundleStore(outputDirectory: output).latest())
    let brands = published.manifest.brands.map(\.slug)
    func read<T: Decodable>(_ type: T.Type, _ path: String) throws -> T {
      try BundleJSON.decode(type, from: Data(contentsOf: bundle.appendingPathComponent(path)), brands: brands)
    }

    // The manifest says which brands keep their district's days: all but the specialty stores.
    #expect(published.manifest.brands.filter { !$0.designated }.map(\.slug) == ["bottle-bunker", "toysrus"])

    // 춘천시's hypermarkets keep the 2nd/4th Sunday. The E-mart holiday feed gives 이마트 춘천점
    // (and the SSM 노브랜드 춘천석사점) 12-25 instead of 12-27 (the 4th Sunday): a swap to a public
    // holiday, reported with the id. 토이저러스 춘천점 closes on those Sundays too, but is a
    // specialty store: not evidence, not one of the district's stores. 노브랜드 is the city's one
    // SSM that publishes days: its class has no pattern there.
    let districts = try read(DistrictsFile.self, "districts.json")
    // The run writes districts.json from the inference it made for the expected days; inferring
    // again from the branches as published (expected days set) gives the same file.
    #expect(
      districts
        == DistrictsFile(
          branches: published.branches.branches, window: published.manifest.window,
          exempt: published.manifest.brands.exemptFromDesignation, storeClasses: published.manifest.brands.storeClasses,
          sources: Pipeline.independentSources, asOf: asOf, reference: try DesignationReferenceFile.read(DesignationReferenceFile.inRepository)))
    let chuncheon = try #require(districts.districts.first { $0.name == "강원특별자치도 춘천시" })
    #expect(chuncheon.storeClass == .hypermarket)
    #expect(chuncheon.basis == .learned && chuncheon.citation == nil)
    // Its SSMs: 노브랜드 alone publishes days, too few to establish a pattern; the table's
    // designation (the 2nd/4th Sunday, 신아일보 2013-09-11) is the class's, cited, with the store
    // following it as its evidence.
    let chuncheonSSM = try #require(
      districts.districts.first { $0.name == "강원특별자치도 춘천시" && $0.storeClass == .ssm })
    #expect(chuncheonSSM.basis == .cited && chuncheonSSM.citation?.sourceDate == "2013-09-11")
    #expect(chuncheonSSM.patternDescription == "2nd sunday, 4th sunday")
    #expect(chuncheonSSM.evidence.map(\.description) == ["nobrand-4055"])
    #expect(chuncheonSSM.firstConfirmed == nil && chuncheonSSM.lastConfirmed == nil)
    #expect(chuncheon.patternDescription == "2nd sunday, 4th sunday")
    #expect(chuncheon.evidence.map(\.description) == ["emart-1073", "lottemart-석사점", "lottemart-춘천점"])
    #expect(chuncheon.stores == 3)
    #expect(chuncheon.firstConfirmed == asOf && chuncheon.lastConfirmed == asOf)
    #expect(chuncheon.swaps.map(\.date.iso) == ["2026-12-25"])
    #expect(chuncheon.swaps.first?.ids.map(\.description) == ["emart-1073"])
    // 코스트코 세종점's 12-25 (below) is a swap of the cited designation it follows.
    #expect(
      Set(districts.districts.filter { !$0.swaps.isEmpty }.map(\.name)) == ["강원특별자치도 춘천시", "세종특별자치시"])
    let specialty: Set<BrandSlug> = ["toysrus", "bottle-bunker"]
    #expect(districts.districts.allSatisfy { $0.evidence.allSatisfy { !specialty.contains($0.brand) } })

    let byID = Dictionary(uniqueKeysWithValues: published.branches.branches.map { ($0.id.description, $0) })
    let swapped = Self.days(["2026-11-08", "2026-11-22", "2026-12-13", "2026-12-25", "2027-01-10", "2027-01-24"])
    for id in ["emart-1073", "nobrand-4055"] {
      #expect(byID[id]?.closing.dates == swapped, "\(id)")
    }
    // 메가마트 춘천점 publishes no days: every store of the city that speaks of December made the
    // swap, so its expected days follow it; its own fields stay as the source said.
    let megamart = try #require(byID["megamart-1011"])
    #expect(megamart.closing.status == .unknown)
    #expect(megamart.closing.dates.isEmpty)
    #expect(
      megamart.closing.expected
        == ExpectedClosing(dates: swapped, district: "강원특별자치도 춘천시", storeClass: .hypermarket))
    let closures = try read(ClosuresFile.self, "closures.json")
    #expect(closures.expected["2026-12-25"]?.contains(megamart.id) == true)
    #expect(closures.expected["2026-12-27"]?.contains(megamart.id) != true)
    // 코스트코 세종점 too: its special days swap its 4th Sunday (12-27) for 12-25.
    #expect(closures.dates["2026-12-25"]?.map(\.description) == ["costco-Sejong", "emart-1073", "nobrand-4055"])

    // No store is flagged against its district: the recordings follow 2026's designations
    // (fixtures/README.md), 코스트코 부산점 keeps the Sundays the table names it with in 수영구 of
    // Mondays, GS THE FRESH 세종도담점 is bound by none from the day it closes for good (12-15),
    // and a specialty store (토이저러스 춘천점, in a district of Sundays) is neither evidence nor
    // a mismatch.
    let mismatches = report.warnings.filter { $0.kind == .designationMismatch }
    #expect(mismatches.map(\.message) == [])

    #expect(BundleValidator(directory: output, sources: Pipeline.independentSources).validate().problems.map(\.description) == [])
  }
}
