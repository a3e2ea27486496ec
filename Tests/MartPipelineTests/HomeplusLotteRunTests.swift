import Foundation
import MartBrands
import MartCore
import MartExport
import MartGeocoding
import MartPipeline
import PipelineTestSupport
import TestSupport
import Testing

/// Replayed runs seen from the Homeplus and Lotte Mart side: real libcurl requests to the
/// replay server on 127.0.0.1, real parsing, real bundles.
@Suite(.serialized) struct HomeplusLotteRunTests {
  let asOf = CalendarDate(iso: "2026-11-20")!

  /// A replayed run as of `asOf`, as ``PipelineRunTests`` makes one.
  func run(recordings: URL = FixturePaths.web, output: URL) async throws -> RunReport {
    try await PipelineRunTests().run(recordings: recordings, output: output)
  }

  /// The process's one run over `fixtures/web` (``ReplayedFixtures``, configured as ``run(recordings:output:)``
  /// configures one), read only: its output directory and report.
  func published() async throws -> (output: URL, report: RunReport) {
    let published = try await PipelineRunTests().published()
    return (published.output, published.report)
  }

  /// A private copy of that run's output, to rerun over.
  func publishedOutput() async throws -> URL {
    try await PipelineRunTests().publishedOutput()
  }

  func scratch(_ prefix: String) -> URL {
    Scratch.directory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
  }

  func latestBranches(_ output: URL) throws -> [Branch] {
    try #require(try BundleStore(outputDirectory: output).latest()).branches.branches
  }

  @Test func everyBrandExportsAtLeastFifteenBranchesWithClosingDays() async throws {
    let (output, report) = try await published()
    #expect(report.outcome == .published)
    let branches = try latestBranches(output)

    for brand in [BrandSlug.homeplus, .homeplusExpress, .lottemart] {
      let ofBrand = branches.filter { $0.brand == brand }
      #expect(ofBrand.count >= 15, "\(brand.rawValue) exports \(ofBrand.count) branches")
      #expect(report.brands.first { $0.slug == brand }?.status == .fresh)
    }
    // Every branch has closing days: the stores that stopped trading (temporarily or for good)
    // publish none, and are shut on every day of the window instead.
    let ofTheseBrands = branches.filter { [.homeplus, .homeplusExpress, .lottemart].contains($0.brand) }
    #expect(ofTheseBrands.filter { $0.closing.status != .closures }.isEmpty)
    #expect(
      ofTheseBrands.filter { !$0.storeStatus.isTrading }.map(\.id.description).sorted() == [
        "homeplus-641", "homeplus-655", "homeplus-662", "homeplus-express-1219", "homeplus-express-1220",
        "lottemart-도봉점", "lottemart-마산점",
      ])
  }

  @Test func homeplusBranchesCarryTheirPageRulesAndSiteCoordinates() async throws {
    let (output, report) = try await published()
    let branches = try latestBranches(output)
    func branch(_ id: String) throws -> Branch { try #require(branches.first { $0.id.description == id }) }

    // 상인점 (홈플러스 스페셜, Daegu): "매월 둘째, 넷째 월요일 (11/9, 11/23)". 2026-11-01 is a Sunday,
    // so Mondays fall on 2, 9, 16, 23, 30; 2026-12-01 is a Tuesday (Mondays 7, 14, 21, 28);
    // 2027-01-01 is a Friday (Mondays 4, 11, 18, 25).
    let sangin = try branch("homeplus-571")
    #expect(sangin.brand == .homeplus)
    #expect(
      sangin.closing.dates.map(\.iso) == [
        "2026-11-09", "2026-11-23", "2026-12-14", "2026-12-28", "2027-01-11", "2027-01-25",
      ])
    #expect(sangin.sourceURL == "https://my.homeplus.co.kr/store/store_detail?storId=571")
    #expect(sangin.coordinate?.source == .site)

    // 노형점 (Express, Jeju): the 2nd Friday and the 4th Saturday. 2026-11-01 is a Sunday, so
    // Fridays are 6, 13, 20, 27 and Saturdays 7, 14, 21, 28; December's Fridays are 4, 11, 18, 25
    // and Saturdays 5, 12, 19, 26; January 2027's Fridays 1, 8, 15, 22, 29 and Saturdays 2, 9, 16, 23, 30.
    #expect(
      try branch("homeplus-express-1218").closing.dates.map(\.iso) == [
        "2026-11-13", "2026-11-28", "2026-12-11", "2026-12-26", "2027-01-08", "2027-01-23",
      ])
    // The placeholder 00-000-0000 is no phone, but it is what the site published.
    #expect(try branch("homeplus-express-1206").phone == nil)
    #expect(try branch("homeplus-express-1206").phonePublished == "00-000-0000")
    // The address cell's "길 찾기" is not part of the address.
    #expect(try branch("homeplus-595").address.published == "경상남도 창원시 성산구 원이대로 682")
    // A store that stopped trading says so in its hours field: that notice is its status text,
    // and its opening hours are none.
    #expect(try branch("homeplus-662").openingHours == nil)
    #expect(try branch("homeplus-662").storeStatus.text?.contains("감제점 영업종료") == true)
    // 1207's page answered 500: its record came from the list, which is what it cites.
    #expect(try branch("homeplus-express-1207").sourceURL == "https://my.homeplus.co.kr/store/get_list")
    #expect(try branch("homeplus-express-1207").pageURL == "https://my.homeplus.co.kr/store/store_detail?storId=1207")
    // The store whose page redirects to a page without content is still listed: it keeps the
    // list's next closing day, with a warning; the broken page costs only its rule.
    #expect(try branch("homeplus-648").sourceURL == "https://my.homeplus.co.kr/store/get_list")
    #expect(report.warnings.contains { $0.branch?.description == "homeplus-648" && $0.kind == .source })
    #expect(try branch("homeplus-express-1207").closing.dates.map(\.iso) == ["2026-11-25"])
  }

  @Test func lotteMartRowsWithoutAStoreLinkAreIdentifiedByName() async throws {
    let output = try await published().output
    let lotte = try latestBranches(output).filter { $0.brand == .lottemart }
    let wonju = try #require(lotte.first { $0.id.description == "lottemart-원주점" })
    #expect(wonju.phone == "033-769-2500")
    // Its next day off after 2026-11-20: the 4th Wednesday, 11-25 (원주시, Wednesdays).
    #expect(wonju.closing.dates.map(\.iso) == ["2026-11-25"])
    #expect(lotte.first { $0.id.description == "lottemart-구미점" }?.phone == "054-450-2500")
    #expect(lotte.filter { $0.name == "잠실점" }.count == 1)
    // The day-off cells follow their districts: 동래점 (부산 동래구) states the rule of the 2nd and
    // 4th Mondays; 제주점 its next two days off (November's 4th Saturday, December's 2nd Friday);
    // 서울역점 (서울 중구) its next Wednesday.
    func dates(_ id: String) -> [String]? { lotte.first { $0.id.description == id }?.closing.dates.map(\.iso) }
    #expect(
      dates("lottemart-동래점") == [
        "2026-11-09", "2026-11-23", "2026-12-14", "2026-12-28", "2027-01-11", "2027-01-25",
      ])
    #expect(dates("lottemart-제주점") == ["2026-11-28", "2026-12-11"])
    #expect(dates("lottemart-서울역점") == ["2026-11-25"])
  }

  @Test func anUnreadableHomeplusListKeepsItsLastGoodBranches() async throws {
    let output = try await publishedOutput()

    let broken = scratch("web")
    try FileManager.default.copyItem(at: FixturePaths.web, to: broken)
    try Data("<html><body>점검 중입니다</body></html>".utf8)
      .write(to: broken.appendingPathComponent("my.homeplus.co.kr/get_list.body.json"))
    let report = try await run(recordings: broken, output: output)
    #expect(report.brands.first { $0.slug == .homeplus }?.status == .stale)
    #expect(report.brands.first { $0.slug == .homeplusExpress }?.status == .stale)
    #expect(report.brands.first { $0.slug == .lottemart }?.status == .fresh)
    let latest = try latestBranches(output)
    #expect(latest.filter { $0.brand == .homeplus }.count == 20)
    #expect(latest.filter { $0.brand == .homeplusExpress }.count == 20)
  }
}
