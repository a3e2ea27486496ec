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

  /// Districts with a fixture store that the table does not cite yet, each with why: no 2026
  /// designation was found for them by 2026-12-02 (see fixtures/README.md).
  static let uncited: [String: String] = [
    "강원특별자치도 강릉시":
      "홈플러스 강릉점 only; reports of 2015-2024 have 강릉's hypermarkets on Wednesdays (홈플러스 and 이마트 강릉점 open on 2nd Sundays), the recording shows Sundays, no notice found",
    "경기도 구리시":
      "그랑그로서리 구리점 only; 2019 reports have 롯데마트 구리점 and 노브랜드 구리 stores open on a 2nd Sunday, the recording shows Sundays, no notice found",
    "울산광역시 울주군": "메가마트 언양점 only, publishing no days; a 2017 proposal of Wednesdays (경상일보) is all that was found",
    "인천광역시 제물포구": "트레이더스 송림점 only; a 구 formed 2026-07-01, no designation of its own found",
    "전북특별자치도 김제시": "홈플러스 김제점 only, closed; no designation found",
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
    for branch in published.branches.branches where !exempt.contains(branch.brand) {
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
