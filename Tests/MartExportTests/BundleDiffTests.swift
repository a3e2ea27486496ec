import Foundation
import MartCore
import MartExport
import Testing

@Suite struct BundleDiffTests {
  let side = BundleDiff.Side(version: "v", asOf: ExportFixtures.asOf, window: ExportFixtures.window)
  let point = Coordinate(latitude: 35.2353, longitude: 128.6810, source: .site, precision: .building)

  func diff(_ old: [Branch], _ new: [Branch]) -> BundleDiff {
    BundleDiff(old: side, oldBranches: old, new: side, newBranches: new, brandNames: ExportFixtures.names)
  }

  @Test func identicalBranchesGiveNoChange() {
    let branch = ExportFixtures.branch("1059", text: "매월 둘째·넷째 일요일")
    #expect(diff([branch], [branch]).isEmpty)
  }

  @Test func coordinatesMoveOnlyBeyondAHundredMetres() throws {
    let old = ExportFixtures.branch("1059", text: "", coordinate: point)
    var nudged = old
    // 0.00003° of latitude is about 3.3 m (one degree is about 111.2 km).
    nudged.coordinate?.latitude += 0.00003
    #expect(diff([old], [nudged]).isEmpty)
    var moved = old
    // 0.009° of latitude is about 1 km.
    moved.coordinate?.latitude += 0.009
    let change = try #require(diff([old], [moved]).changed.first)
    #expect(change.changes.map(\.field) == [.coordinates])
    let meters = point.point.distance(to: try #require(moved.coordinate).point)
    #expect(abs(meters - 1000.8) < 2)
    var lost = old
    lost.coordinate = nil
    #expect(diff([old], [lost]).changed.first?.changes.first?.new == .null)
  }

  @Test func aMovedClosingDayShowsTheDayGoneAndTheDayAdded() throws {
    // 2026-12-13 is December's 2nd Sunday; the store moves it to the 3rd, 2026-12-20.
    let old = ExportFixtures.branch("1059", text: "20261213, 20261227")
    let new = ExportFixtures.branch("1059", text: "20261220, 20261227")
    let change = try #require(diff([old], [new]).changed.first)
    #expect(change.changes.count == 1)
    #expect(change.changes[0].field == .closingDates)
    #expect(change.changes[0].old == .dates([CalendarDate(iso: "2026-12-13")!]))
    #expect(change.changes[0].new == .dates([CalendarDate(iso: "2026-12-20")!]))
  }

  @Test func closingDatesOutsideTheSharedWindowAreNotChanges() {
    // A month later the window is 2026-12-01 … 2027-02-28: November's dates leave it and
    // February's enter it, and neither is a change of the branch; only the window moved.
    let later = CalendarDate(iso: "2026-12-20")!
    let laterWindow = DateWindow.threeMonths(startingAt: later)
    let schedule = ClosingSchedule.parse("매월 둘째·넷째 일요일", asOf: ExportFixtures.asOf)
    let old = ExportFixtures.branch("1059", text: "매월 둘째·넷째 일요일")
    var new = old
    new.closing = BranchClosing(schedule: schedule, window: laterWindow)
    let result = BundleDiff(
      old: side, oldBranches: [old], new: .init(version: "w", asOf: later, window: laterWindow), newBranches: [new])
    #expect(result.changed.isEmpty)
    #expect(result.kinds == [.window])
    #expect(result.comparedDays == DateWindow(from: later.firstOfMonth(), through: ExportFixtures.window.through))
  }

  @Test func addedRemovedPhoneAndStatusWithSummaries() throws {
    let kept = ExportFixtures.branch(.emart, "1059", text: "20261213")
    let gone = ExportFixtures.branch(.emart, "1000", name: "창동점", text: "")
    let new = ExportFixtures.branch(.lottemart, "0100161", name: "잠실점", text: "")
    var changedPhone = kept
    changedPhone.phone = "055-211-9999"
    changedPhone.closing = BranchClosing(
      schedule: .parse("", asOf: ExportFixtures.asOf), window: ExportFixtures.window)
    let result = diff([kept, gone], [changedPhone, new])
    #expect(result.added.map(\.id.description) == ["lottemart-0100161"])
    #expect(result.removed.map(\.id.description) == ["emart-1000"])
    // With no text the branch's days become unknown: every day of the window.
    #expect(result.changed.first?.changes.map(\.field) == [.phone, .closingDates, .unknownDays, .closingStatus])
    #expect(result.kinds == [.added, .removed, .phone, .closingDates, .unknownDays, .closingStatus])
    #expect(result.countsByBrand[.emart] == BundleDiff.BrandCounts(added: 0, removed: 1, changed: 1))
    #expect(result.countsByBrand[.lottemart] == BundleDiff.BrandCounts(added: 1, removed: 0, changed: 0))

    let json = try #require(try JSONSerialization.jsonObject(with: result.json()) as? [String: Any])
    #expect(json["removed"] as? [String] == ["emart-1000"])
    let changed = try #require(json["changed"] as? [[String: Any]])
    #expect(changed.first?["id"] as? String == "emart-1059")
    let first = try #require((changed.first?["changes"] as? [[String: Any]])?.first)
    #expect(first["field"] as? String == "phone")
    #expect(first["old"] as? String == "055-211-1234")
    #expect(first["new"] as? String == "055-211-9999")
    #expect(try result.markdown().contains("- **phone** `emart-1059` 창원점: 055-211-1234 → 055-211-9999"))
    #expect(result.text().contains("removed  emart-1000  이마트 창동점"))
  }
}
