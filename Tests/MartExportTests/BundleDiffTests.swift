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

  @Test func daysBeforeTheNewerAsOfDateAreHistoryNotChange() throws {
    // A day later the same site lists only the days still to come, and a store shut since the
    // first as-of date is known to be shut from the second: yesterday is neither a change of
    // closing dates nor a newly unknown day.
    let nextAsOf = ExportFixtures.asOf.adding(days: 1)
    let listed = ClosingSchedule.parse(
      "\(ExportFixtures.asOf.iso), 2026-12-13", asOf: ExportFixtures.asOf, coverage: .asOfThroughLastListed)
    var listOnly = ExportFixtures.branch("1059", text: "")
    listOnly.closing = BranchClosing(schedule: listed, window: ExportFixtures.window)
    var listOnlyLater = listOnly
    listOnlyLater.closing = BranchClosing(
      schedule: .parse("2026-12-13", asOf: nextAsOf, coverage: .asOfThroughLastListed), window: ExportFixtures.window)
    var shut = ExportFixtures.branch("1060", text: "매월 둘째·넷째 일요일")
    shut.storeStatus = StoreStatus(state: .closed, text: "영업종료")
    shut.closing = BranchClosing(
      schedule: shut.closing.schedule, window: ExportFixtures.window, storeStatus: shut.storeStatus,
      asOf: ExportFixtures.asOf)
    var shutLater = shut
    shutLater.closing = BranchClosing(
      schedule: shut.closing.schedule, window: ExportFixtures.window, storeStatus: shut.storeStatus, asOf: nextAsOf)
    #expect(shut.closing.dates.contains(ExportFixtures.asOf) && !shutLater.closing.dates.contains(ExportFixtures.asOf))

    let later = BundleDiff.Side(version: "w", asOf: nextAsOf, window: ExportFixtures.window)
    let quiet = BundleDiff(
      old: side, oldBranches: [listOnly, shut], new: later, newBranches: [listOnlyLater, shutLater],
      brandNames: ExportFixtures.names)
    #expect(quiet.isEmpty, "\(quiet.text())")
    #expect(quiet.comparedDays?.from == nextAsOf)

    // A day from the newer as-of date on is still compared.
    var moved = listOnlyLater
    moved.closing = BranchClosing(
      schedule: .parse("\(nextAsOf.iso), 2026-12-13", asOf: nextAsOf, coverage: .asOfThroughLastListed),
      window: ExportFixtures.window)
    let loud = BundleDiff(
      old: side, oldBranches: [listOnly], new: later, newBranches: [moved], brandNames: ExportFixtures.names)
    let change = try #require(loud.changed.first?.changes.first { $0.field == .closingDates })
    #expect(change.new == .dates([nextAsOf]))
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
    // Compared from the later as-of date on: the days before it are history.
    #expect(result.comparedDays == DateWindow(from: later, through: ExportFixtures.window.through))
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

  // Weekdays below are from the calendar: 2026-11-22 and 2026-12-13 are Sundays (일), 2026-11-25
  // a Wednesday (수), 2027-01-01 a Friday (금), 2027-01-31 a Sunday (일).

  /// `count` branches of `brand` numbered from `first`, all with closing-day text `text`.
  func branches(_ brand: BrandSlug, _ count: Int, from first: Int = 1000, text: String) -> [Branch] {
    (0..<count).map { ExportFixtures.branch(brand, String(first + $0), name: "지점\(first + $0)", text: text) }
  }

  @Test func identicalChangesWithinABrandAreOneGroup() throws {
    let before = "20261122, 20261213"
    let moved = "20261125, 20261213"
    let old =
      branches(.emart, 51, text: before) + branches(.emart, 2, from: 2000, text: "20261213")
      + branches(.lottemart, 3, text: before)
    var new =
      branches(.emart, 51, text: moved) + branches(.emart, 2, from: 2000, text: "20261213, 20261227")
      + branches(.lottemart, 3, text: moved)
    new[0].phone = "055-211-9999"
    let result = diff(old, new)
    let groups = result.groups
    #expect(groups.map(\.brand) == [.emart, .emart, .emart, .lottemart])
    // The largest group of a brand first.
    #expect(groups.map(\.kind) == [.closingDates, .closingDates, .phone, .closingDates])
    let main = groups[0]
    #expect(main.branches.count == 51)
    #expect(main.branches.first?.id.description == "emart-1000")
    #expect(main.old == .dates([CalendarDate(iso: "2026-11-22")!]))
    #expect(main.new == .dates([CalendarDate(iso: "2026-11-25")!]))
    #expect(main.sourceTexts.count == 1)
    #expect(main.sourceTexts.first?.change == BundleDiff.TextChange(old: before, new: moved))
    #expect(main.sourceTexts.first?.ids.count == 51)
    #expect(groups[1].branches.map(\.id.description) == ["emart-2000", "emart-2001"])

    let text = result.text()
    #expect(text.contains("  closing-dates  51 branches: 11-22(일) → 11-25(수)\n"))
    #expect(text.contains("  closing-dates  2 branches: (none) → 12-27(일)\n"))
    #expect(text.contains("    source text: \"\(before)\" → \"\(moved)\" (51 branches)\n"))
    #expect(text.contains("  phone  emart-1000 지점1000: 055-211-1234 → 055-211-9999\n"))
    let markdown = try result.markdown()
    #expect(markdown.contains("#### 이마트 (`emart`)\n\n- **closing-dates**, 51 branches: 11-22(일) → 11-25(수)\n"))
    #expect(markdown.contains("\n- **phone** `emart-1000` 지점1000: 055-211-1234 → 055-211-9999\n"))
    #expect(markdown.contains("  - source text: `\(before)` → `\(moved)` (51 branches)\n"))
    #expect(markdown.contains("  - `emart-1000` 지점1000, `emart-1001` 지점1001, "))
    #expect(markdown.components(separatedBy: "`emart-1050`").count == 2, "each id listed once")
    #expect(markdown.contains("| 롯데마트 (`lottemart`) |  | 0 | 0 | 3 |"))

    let json = try #require(try JSONSerialization.jsonObject(with: result.json()) as? [String: Any])
    let jsonGroups = try #require(json["groups"] as? [[String: Any]])
    #expect(jsonGroups.count == 4)
    #expect(jsonGroups[0]["count"] as? Int == 51)
    #expect(jsonGroups[0]["brandName"] as? String == "이마트")
    #expect(jsonGroups[0]["field"] as? String == "closing-dates")
    #expect(jsonGroups[0]["old"] as? [String] == ["2026-11-22"])
    #expect(jsonGroups[0]["new"] as? [String] == ["2026-11-25"])
    #expect((jsonGroups[0]["ids"] as? [String])?.count == 51)
    let changed = try #require(json["changed"] as? [[String: Any]])
    #expect(changed.first?["name"] as? String == "지점1000")
    #expect(changed.first?["brand"] as? String == "emart")
    #expect(changed.first?["brandName"] as? String == "이마트")
    let closing = try #require((changed.first?["changes"] as? [[String: Any]])?.last)
    #expect(closing["sourceText"] as? [String: String] == ["old": before, "new": moved])
    #expect((json["summary"] as? [String: Any])?["groups"] as? Int == 4)
  }

  @Test func daysThatBecameUnknownOnTheSharedDays() throws {
    // January becomes unknown for every branch; a month later, February's unknown days are outside
    // the days both windows cover and are no change.
    let old = branches(.emart, 63, text: "매월 둘째·넷째 일요일")
    var new = old
    let january = DateWindow(from: CalendarDate(iso: "2027-01-01")!, through: CalendarDate(iso: "2027-01-31")!)
    for index in new.indices { new[index].closing.unknownRanges = [january] }
    let result = diff(old, new)
    #expect(result.kinds == [.unknownDays])
    #expect(result.groups.count == 1)
    #expect(result.groups.first?.branches.count == 63)
    #expect(result.groups.first?.old == .ranges([]))
    #expect(result.groups.first?.new == .ranges([january]))
    #expect(result.text().contains("  unknown-days  63 branches: newly unknown 01-01(금)~01-31(일)\n"))
    let json = try #require(try JSONSerialization.jsonObject(with: result.json()) as? [String: Any])
    let change = try #require(
      ((json["changed"] as? [[String: Any]])?.first?["changes"] as? [[String: Any]])?.first)
    #expect(change["field"] as? String == "unknown-days")
    #expect(change["new"] as? [[String: String]] == [["from": "2027-01-01", "through": "2027-01-31"]])
    #expect(change["old"] as? [[String: String]] == [])

    let later = CalendarDate(iso: "2026-12-20")!
    let laterWindow = DateWindow.threeMonths(startingAt: later)
    var february = old
    let days = DateWindow(from: CalendarDate(iso: "2027-02-01")!, through: CalendarDate(iso: "2027-02-28")!)
    for index in february.indices { february[index].closing.unknownRanges = [days] }
    let moved = BundleDiff(
      old: side, oldBranches: old, new: .init(version: "w", asOf: later, window: laterWindow),
      newBranches: february)
    #expect(!moved.kinds.contains(.unknownDays))
  }

  /// A brand's freshness in the old and new manifest (`nil`: not listed), and whether it is a change.
  @Test(arguments: [
    (BrandSummary.Freshness?.some(.fresh), BrandSummary.Freshness?.some(.fresh), false),
    (.fresh, .stale, true),
    (.fresh, .missing, true),
    (.stale, .fresh, true),
    (.missing, .stale, true),
    (.stale, .stale, false),
    (nil, .fresh, true),
    (.fresh, nil, true),
  ])
  func brandFreshness(old: BrandSummary.Freshness?, new: BrandSummary.Freshness?, changes: Bool) throws {
    func manifest(_ freshness: BrandSummary.Freshness?) -> [BrandSummary] {
      let fixed = BrandSummary(
        slug: .lottemart, name: "롯데마트", branchCount: 1, freshness: .fresh, lastFetchedAsOf: ExportFixtures.asOf)
      guard let freshness else { return [fixed] }
      return [
        fixed,
        BrandSummary(
          slug: .emart, name: "이마트", branchCount: 1, freshness: freshness,
          lastFetchedAsOf: freshness == .missing ? nil : CalendarDate(iso: "2026-11-19")),
      ]
    }
    let branch = ExportFixtures.branch("1059", text: "매월 둘째·넷째 일요일")
    let result = BundleDiff(
      old: .init(version: "v", asOf: ExportFixtures.asOf, window: ExportFixtures.window, brands: manifest(old)),
      oldBranches: [branch],
      new: .init(version: "w", asOf: ExportFixtures.asOf, window: ExportFixtures.window, brands: manifest(new)),
      newBranches: [branch])
    #expect(result.isEmpty == !changes)
    #expect(result.kinds == (changes ? [.brandFreshness] : []))
    guard changes else { return }
    let change = try #require(result.brands.first)
    #expect(result.brands.count == 1)
    #expect(change.brand == .emart)
    #expect(change.name == "이마트")
    #expect(change.old?.freshness == old)
    #expect(change.new?.freshness == new)
    let expected = "\(old?.rawValue ?? "(absent)") → \(new?.rawValue ?? "(absent)")"
    #expect(result.text().contains("brand-freshness  이마트 (emart)  \(expected)"), "\(result.text())")
    let markdown = try result.markdown()
    #expect(markdown.contains("| 이마트 (`emart`) | \(expected)"), "\(markdown)")
    let json = try #require(try JSONSerialization.jsonObject(with: result.json()) as? [String: Any])
    let brands = try #require(json["brands"] as? [[String: Any]])
    #expect(brands.first?["brand"] as? String == "emart")
    #expect((brands.first?["new"] as? [String: Any])?["freshness"] as? String == new?.rawValue)
    #expect((json["summary"] as? [String: Any])?["kinds"] as? [String: Int] == ["brand-freshness": 1])
  }

  @Test func theWindowMovingIsAChange() throws {
    // A month later the window takes in February; one branch's February is unknown.
    let later = CalendarDate(iso: "2026-12-20")!
    let branch = ExportFixtures.branch("1059", text: "매월 둘째·넷째 일요일")
    let other = ExportFixtures.branch("1060", text: "매월 둘째·넷째 일요일")
    let february = DateWindow(from: CalendarDate(iso: "2027-02-01")!, through: CalendarDate(iso: "2027-02-28")!)
    var moved = branch
    moved.closing = BranchClosing(schedule: branch.closing.schedule, window: .threeMonths(startingAt: later))
    moved.closing.unknownRanges = [february]
    var movedOther = other
    movedOther.closing = BranchClosing(schedule: other.closing.schedule, window: .threeMonths(startingAt: later))
    let result = BundleDiff(
      old: side, oldBranches: [branch, other],
      new: .init(version: "w", asOf: later, window: .threeMonths(startingAt: later)), newBranches: [moved, movedOther],
      brandNames: ExportFixtures.names)
    #expect(result.kinds == [.window])
    #expect(result.addedDays == [february])
    #expect(result.unknownOnAddedDays == [.emart: [moved.id]])
    // 2026-11-01 and 2027-01-31 are Sundays, 2026-12-01 a Tuesday, 2027-02-01 a Monday, 2027-02-28 a Sunday.
    let text = result.text()
    #expect(text.contains("window  2026-11-01(일)~2027-01-31(일) → 2026-12-01(화)~2027-02-28(일)\n"))
    #expect(text.contains("  unknown on the days new in the window (02-01(월)~02-28(일)): 1 branch (emart 1)\n"))
    let markdown = try result.markdown()
    // 2026-12-20 is a Sunday, the later as-of date.
    #expect(markdown.contains("closing dates and unknown days compared on 2026-12-20(일)~2027-01-31(일)"))
    #expect(markdown.contains("Unknown on the days new in the window (02-01(월)~02-28(일)): 1 branch (이마트 1)"))
    let json = try #require(try JSONSerialization.jsonObject(with: result.json()) as? [String: Any])
    let window = try #require(json["window"] as? [String: Any])
    #expect(window["changed"] as? Bool == true)
    #expect(window["compared"] as? [String: String] == ["from": "2026-12-20", "through": "2027-01-31"])
    #expect(window["addedDays"] as? [[String: String]] == [["from": "2027-02-01", "through": "2027-02-28"]])
    #expect(window["unknownOnAddedDays"] as? [String: [String]] == ["emart": ["emart-1059"]])
    #expect((json["new"] as? [String: Any])?["version"] as? String == "w")
    #expect((json["old"] as? [String: Any])?["asOf"] as? String == "2026-11-20")
    #expect(
      (json["new"] as? [String: Any])?["window"] as? [String: String] == [
        "from": "2026-12-01", "through": "2027-02-28",
      ])
  }

  /// Published bundles of 800 branches in two brands whose closing day moved the same way and
  /// whose names each changed differently: about 75 KB of markdown in full.
  static let large: (old: PublishedBundle, new: PublishedBundle) = {
    func make(_ text: String, renamed: Bool) -> [Branch] {
      [(BrandSlug.emart, 500), (.lottemart, 300)].flatMap { brand, count in
        (0..<count).map { index in
          ExportFixtures.branch(brand, String(10000 + index), name: (renamed ? "새" : "") + "지점\(index)", text: text)
        }
      }
    }
    let old = try! ExportFixtures.publish(make("20261122, 20261213", renamed: false), label: "diff-large-old").0
    let new = try! ExportFixtures.publish(make("20261125, 20261213", renamed: true), label: "diff-large-new").0
    return (try! BundleStore.readBundle(at: old), try! BundleStore.readBundle(at: new))
  }()

  /// The diff of ``large``, made once: the tests below check the markdown it writes at each limit.
  static let largeDiff = BundleDiff(old: large.old, new: large.new)

  @Test(arguments: [1_000_000, 60_000, 20_000, 5_000, 1_500])
  func markdownStaysWithinMaxBytesAndSaysWhatIsLeftOut(maxBytes: Int) throws {
    let result = Self.largeDiff
    #expect(result.changed.count == 800)
    let markdown = try result.markdown(maxBytes: maxBytes)
    #expect(markdown.utf8.count <= maxBytes)
    #expect(markdown.hasPrefix("### Closing-day dataset: changes\n"))
    #expect(markdown.contains("| 이마트 (`emart`) | fresh | 0 | 0 | 500 |"))
    guard maxBytes < 1_000_000 else {
      #expect(!markdown.contains("see the JSON diff"))
      #expect(markdown.contains("- **closing-dates**, 500 branches: 11-22(일) → 11-25(수)\n"))
      #expect(markdown.utf8.count > 60_000, "the full report is larger than the default limit")
      return
    }
    #expect(markdown.contains("_Shortened to stay within \(maxBytes) bytes: "), "\(markdown.suffix(400))")
    #expect(markdown.contains("(see the JSON diff)"))
    if maxBytes >= 20_000 {
      #expect(markdown.contains("<details><summary>0 added, 0 removed, 500 changed: 501 groups of changes</summary>"))
      #expect(markdown.contains("- **closing-dates**, 500 branches: 11-22(일) → 11-25(수)\n"))
    }
  }

  @Test func aLimitTooSmallForTheHeaderIsAnError() throws {
    let result = Self.largeDiff
    let problem = try #require(throws: BundleDiff.MarkdownLimitTooSmall.self) {
      try result.markdown(maxBytes: 100, jsonOption: "--format json")
    }
    #expect(problem.minimum > 100)
    let least = try result.markdown(maxBytes: problem.minimum, jsonOption: "--format json")
    #expect(least.utf8.count <= problem.minimum)
    #expect(
      least.contains("… and the changes of 2 more brands (802 groups of changes, 800 branches) (see the JSON diff)."))
    #expect(
      least.hasSuffix(
        "802 of 802 groups of changes not shown; left out: the table of brands."
          + " The JSON diff (`--format json`) has every change._\n"))
    #expect(throws: BundleDiff.MarkdownLimitTooSmall.self) {
      try result.markdown(maxBytes: problem.minimum - 1, jsonOption: "--format json")
    }
  }
}
