import Foundation
import MartCore
import MartExport
import MartFetch
import MartGeocoding
import MartPipeline
import PipelineTestSupport
import TestSupport
import Testing

/// The recordings and the researched table agree: every district the fixtures have a store in
/// has a cited designation in `data/designations.json` (or is listed below with why not), and the
/// bundle a replayed run publishes gives 2026's weekdays to the districts that moved off Sundays.
/// Weekdays from the calendar: 2026-11-01 is a Sunday, so the 2nd/4th Wednesdays of November are
/// 11-11 and 11-25 and its 2nd/4th Mondays 11-09 and 11-23.
@Suite(.serialized) struct FixtureDesignationTests {

  /// Districts with a fixture store that the table does not cite, each with why: no designation
  /// was found for them by 2026-12-02 (the search, run twice that day, is in fixtures/README.md).
  static let uncited: [String: String] = [
    "울산광역시 울주군":
      "메가마트 언양점 only, publishing no days (nor in 메가마트's own list for 2026-10); a 2017 bill of 2nd/4th Wednesdays (울산뉴스투데이, 2017-08-28; 경상일보) and its dispute (울산MBC) are all that was found, not its outcome, nor any later designation"
  ]

  @Test func everyFixtureDistrictHasACitedDesignationOrASaidReason() async throws {
    // The process's one run over the fixtures (read only).
    let shared = try await ReplayedFixtures.shared.published()
    let (output, result) = (shared.output, shared.result)
    #expect(result.report.outcome == .published)
    let published = try #require(try BundleStore(outputDirectory: output).latest())
    let table = try DesignationReferenceFile.read(DesignationReferenceFile.inRepository)
    let exempt = published.manifest.brands.exemptFromDesignation
    var districts: Set<District> = []
    // A store closed for good (홈플러스 김제점, `영업종료`) is bound by no designation: its
    // district has no open fixture store.
    for branch in published.branches.branches where !exempt.contains(branch.brand) && branch.storeStatus.state != .closed {
      if let district = District(branch.address) { districts.insert(district) }
    }
    #expect(districts.count > 60, "the fixtures' districts: \(districts.count)")
    let cited = Set(table.designations.map(\.district))
    let lacking = districts.filter { !cited.contains($0) }.map(\.description).sorted()
    #expect(lacking == Self.uncited.keys.sorted())
    // A listed reason goes once the table cites the district.
    #expect(Self.uncited.keys.filter { name in cited.contains { $0.description == name } } == [])

    // The districts that moved off Sundays carry 2026's weekdays in the bootstrap bundle, for
    // every class the fixtures have a store of there, learned or cited.
    let file = try BundleJSON.decode(
      DistrictsFile.self,
      from: Data(contentsOf: published.directory.appendingPathComponent("districts.json")),
      brands: published.manifest.brands.map(\.slug))
    let wednesdays = "2nd wednesday, 4th wednesday"
    let mondays = "2nd monday, 4th monday"
    let wanted: [(String, StoreClass, String)] = [
      ("강원특별자치도 원주시", .hypermarket, wednesdays), ("강원특별자치도 원주시", .ssm, wednesdays),
      ("경기도 고양시", .hypermarket, wednesdays), ("경기도 고양시", .ssm, wednesdays),
      ("경기도 남양주시", .ssm, wednesdays), ("경기도 의정부시", .hypermarket, wednesdays),
      ("경기도 의정부시", .ssm, wednesdays), ("경기도 하남시", .hypermarket, wednesdays),
      ("부산광역시 부산진구", .hypermarket, mondays), ("부산광역시 부산진구", .ssm, mondays),
      ("부산광역시 해운대구", .hypermarket, mondays), ("부산광역시 해운대구", .ssm, mondays),
      ("강원특별자치도 강릉시", .hypermarket, wednesdays), ("경기도 구리시", .hypermarket, wednesdays),
      // 구미시's hypermarkets since 2015-11-04 (롯데마트 구미점 alone among the fixtures).
      ("경상북도 구미시", .hypermarket, wednesdays),
    ]
    for (name, storeClass, days) in wanted {
      let entry = file.districts.first { $0.name == name && $0.storeClass == storeClass }
      #expect(entry?.patternDescription == days, "\(name) (\(storeClass))")
    }
    let moved = Set(wanted.map(\.0))
    #expect(file.districts.filter { moved.contains($0.name) && $0.patternDescription.contains("sunday") }.map(\.title) == [])
    // No district of the bootstrap bundle contradicts the table.
    #expect(result.report.warnings.filter { $0.kind == .designationContradiction }.map(\.message) == [])
  }
}
