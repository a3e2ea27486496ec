import Foundation
import MartCore
import MartExport
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
