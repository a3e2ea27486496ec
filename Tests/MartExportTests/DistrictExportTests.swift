import Foundation
import MartCore
import MartExport
import Testing

/// `districts.json`, expected days in `closures.json` and the calendars, and what `validate` says
/// of them. As of 2026-11-20 (window 2026-11-01 … 2027-01-31); 2026-11-01 is a Sunday, so the
/// 2nd/4th Wednesdays are 11-11 and 11-25, 2026-12-01 a Tuesday (12-09, 12-23), 2027-01-01 a
/// Friday (01-13, 01-27).
@Suite struct DistrictExportTests {
  static let cheongju = BranchAddress(published: "충청북도 청주시 흥덕구 어딘가로 1", sido: "충청북도", sigungu: "청주시 흥덕구")
  static let wednesdays = ["2026-11-11", "2026-11-25", "2026-12-09", "2026-12-23", "2027-01-13", "2027-01-27"]

  /// Two chains on the 2nd/4th Wednesday in 청주시, and a third store of the city publishing
  /// nothing, given its expected days as the pipeline gives them.
  static func branches() -> [Branch] {
    let branches = [
      ExportFixtures.branch(.emart, "1061", name: "청주점", text: "매월 둘째, 넷째 수요일", address: cheongju),
      ExportFixtures.branch(.lottemart, "0100200", name: "청주점", text: "매월 둘째·넷째 수요일 휴무", address: cheongju),
      ExportFixtures.branch("lotte-super", "5089", name: "청주용암점", text: "", address: cheongju),
    ]
    let inference = DistrictDesignations.infer(from: branches, window: ExportFixtures.window)
    return inference.withExpectedDays(branches, designated: ["lotte-super"])
  }

  @Test func theBundleListsTheDistrictAndKeepsExpectedDaysApart() throws {
    let contents = try BundleContents(
      branches: Self.branches(), brands: ExportFixtures.summaries(Self.branches()), asOf: ExportFixtures.asOf,
      window: ExportFixtures.window)
    func file(_ path: String) throws -> Data { try #require(contents.files.first { $0.path == path }?.data) }
    let districts = try BundleJSON.decode(
      DistrictsFile.self, from: file("districts.json"), brands: [.emart, .lottemart, "lotte-super"])
    #expect(districts.districts.map(\.name) == ["충청북도 청주시"])
    #expect(districts.districts.first?.patternDescription == "2nd wednesday, 4th wednesday")
    #expect(districts.districts.first?.evidence.map(\.description) == ["emart-1061", "lottemart-0100200"])
    #expect(districts.districts.first?.stores == 2)
    #expect(contents.manifest.files.contains { $0.path == "districts.json" })
    #expect(contents.manifest.files.contains { $0.path == "districts.json.gz" })

    let closures = try BundleJSON.decode(
      ClosuresFile.self, from: file("closures.json"), brands: [.emart, .lottemart, "lotte-super"])
    #expect(closures.expected.keys.sorted() == Self.wednesdays)
    #expect(closures.expected["2026-11-11"]?.map(\.description) == ["lotte-super-5089"])
    #expect(closures.dates["2026-11-11"]?.map(\.description) == ["emart-1061", "lottemart-0100200"])

    let calendar = String(decoding: try file("calendars/branches/lotte-super-5089.ics"), as: UTF8.self)
    #expect(calendar.components(separatedBy: "STATUS:TENTATIVE").count - 1 == 6)
    #expect(calendar.contains("UID:lotte-super-5089-20261111-expected@mart-holiday"))
    #expect(!calendar.contains("UID:lotte-super-5089-20261111@mart-holiday"))
    let confirmed = String(decoding: try file("calendars/branches/emart-1061.ics"), as: UTF8.self)
    #expect(!confirmed.contains("TENTATIVE"))
  }

  @Test func validateInfersTheDistrictsAgainAndChecksExpectedDays() throws {
    let (output, pointer) = try ExportFixtures.publish(Self.branches(), label: "districts")
    #expect(BundleValidator(directory: output).validate().problems.map(\.description) == [])
    let validator = BundleValidatorTests()
    try validator.rewrite("districts.json", in: output, pointer: pointer) {
      $0 = $0.replacingOccurrences(of: #""weekday":"wednesday""#, with: #""weekday":"sunday""#)
    }
    let found = validator.problems(output)
    #expect(found.contains { $0.hasPrefix("\(pointer.bundle)/districts.json: 충청북도 청주시: differs from what branches.json supports") })
  }
}
