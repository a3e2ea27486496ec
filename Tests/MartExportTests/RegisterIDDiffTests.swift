import Foundation
import MartCore
import MartExport
import TestSupport
import Testing

/// A branch's entry in the national register of large stores appearing, changing or vanishing
/// is a `register-id` change of the diff.
@Suite struct RegisterIDDiffTests {
  let side = BundleDiff.Side(version: "v", asOf: ExportFixtures.asOf, window: ExportFixtures.window)

  func diff(_ old: [Branch], _ new: [Branch]) -> BundleDiff {
    BundleDiff(old: side, oldBranches: old, new: side, newBranches: new, brandNames: ExportFixtures.names)
  }

  @Test func aRegisterIDThatAppearsOrVanishesIsAChange() throws {
    let unmatched = ExportFixtures.branch("1059", text: "매월 둘째·넷째 일요일")
    var matched = unmatched
    matched.registerID = "2009310010807500001"
    #expect(diff([matched], [matched]).isEmpty)

    let found = try #require(diff([unmatched], [matched]).changed.first)
    #expect(found.changes.map(\.field) == [.registerID])
    #expect(found.changes.first?.old == .null)
    #expect(found.changes.first?.new == .text("2009310010807500001"))

    let lost = try #require(diff([matched], [unmatched]).changed.first)
    #expect(lost.changes.first?.old == .text("2009310010807500001"))
    #expect(lost.changes.first?.new == .null)
  }
}

/// The register's cross-checks of the run that made the new bundle (its `report.json`) are
/// changes of the diff when the old bundle's run did not report them.
@Suite struct RegisterFindingDiffTests {
  let side = BundleDiff.Side(version: "v", asOf: ExportFixtures.asOf, window: ExportFixtures.window)

  /// An output directory holding only a `report.json` of the run that published `version`.
  func output(version: String, register: String) throws -> URL {
    let directory = Scratch.directory.appendingPathComponent("register-diff-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let report = #"{"published": {"version": "\#(version)"}, "brands": [], "register": \#(register)}"#
    try Data(report.utf8).write(to: directory.appendingPathComponent("report.json"))
    return directory
  }

  static let closed =
    #"{"branch": "homeplus-603", "registerID": "2001305010807500003", "state": "closed", "since": "2026-10-31", "until": null}"#
  static let permit =
    #"{"id": "2026350010807500001", "name": "주식회사 이마트 트레이더스 마곡점", "kind": "hypermarket", "brand": "traders", "sido": "서울특별시", "sigungu": "강서구", "roadAddress": null, "permitDate": "2026-11-15"}"#

  @Test func findingsTheOldRunDidNotReportAreChanges() throws {
    let new = try output(
      version: "new",
      register: #"{"shutInRegister": [\#(Self.closed)], "unlisted": [], "newPermits": [\#(Self.permit)]}"#)
    let old = try output(
      version: "old", register: #"{"shutInRegister": [], "unlisted": [], "newPermits": [\#(Self.permit)]}"#)
    defer {
      try? FileManager.default.removeItem(at: new)
      try? FileManager.default.removeItem(at: old)
    }
    let found = try #require(BundleDiff.registerFindings(inOutput: new, version: "new"))
    #expect(found.map(\.kind) == [.registerShut, .registerNewPermit])
    // A report of another run than the bundle's says nothing of it.
    #expect(BundleDiff.registerFindings(inOutput: new, version: "other") == nil)

    let base = BundleDiff(old: side, oldBranches: [], new: side, newBranches: [], brandNames: ExportFixtures.names)
    #expect(base.isEmpty)
    let diff = base.withRegisterFindings(new: found, old: BundleDiff.registerFindings(inOutput: old, version: "old"))
    #expect(diff.registerFindings.map(\.kind) == [.registerShut])
    #expect(diff.countsByKind == [.registerShut: 1])
    #expect(!diff.isEmpty)
    let shut = try #require(diff.registerFindings.first)
    #expect(shut.branch == "homeplus-603")
    #expect(shut.since?.iso == "2026-10-31")
    #expect(diff.text().contains("register-shut  homeplus-603 closed in the register since 2026-10-31 (관리번호 2001305010807500003)"))
    #expect(try diff.markdown(maxBytes: 65536, jsonOption: "--format json").contains("- **register-shut** homeplus-603 closed"))
    let json = try #require(try JSONSerialization.jsonObject(with: diff.json()) as? [String: Any])
    let register = try #require(json["register"] as? [[String: Any]])
    #expect(register.first?["kind"] as? String == "register-shut")
    #expect(register.first?["registerId"] as? String == "2001305010807500003")

    // Without the old run's report, what is new cannot be told: no finding is a change.
    #expect(base.withRegisterFindings(new: found, old: nil).isEmpty)
  }
}
